/**
 * Exports of the run as a whole: every sample as CSV. (The scenario file, as edited, is saved with
 * the bench's Save button.)
 */
import type { SampleStore } from '../engine/samples'
import { downloadText, slug } from './download'
import { samplesCsv } from './series'

interface RunExportsProps {
  scenarioId: string
  store: SampleStore | null
}

export function RunExports({ scenarioId, store }: RunExportsProps) {
  const stem = slug(scenarioId || 'scenario')
  return (
    <details className="export-menu run-exports">
      <summary>Export run</summary>
      <div className="export-choices" role="group" aria-label="Export the run">
        <button type="button" disabled={!store || store.rowCount === 0} onClick={() => store && downloadText(samplesCsv(store), `${stem}-samples.csv`, 'text/csv')}>
          All samples (CSV)
        </button>
      </div>
    </details>
  )
}
