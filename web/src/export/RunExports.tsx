/**
 * Exports of the run as a whole: every sample as CSV. (The scenario file, as edited, is saved with
 * the bench's Save button.)
 */
import type { SampleStore } from '../engine/samples'
import { downloadText, slug } from './download'
import { samplesCsv } from './series'

interface RunExportsProps {
  scenarioId: string
  /** The scenario differs from its library file: the file names say so. */
  edited?: boolean
  store: SampleStore | null
}

export function RunExports({ scenarioId, store, edited = false }: RunExportsProps) {
  const stem = `${slug(scenarioId || 'scenario')}${edited ? '-edited' : ''}`
  return (
    <details className="export-menu run-exports">
      <summary>Export run</summary>
      <div className="export-choices" role="group" aria-label="Export the run">
        <button
          type="button"
          disabled={!store || store.rowCount === 0}
          onClick={() =>
            store && downloadText(samplesCsv(store), `${stem}-samples.csv`, 'text/csv')
          }
        >
          All samples (CSV)
        </button>
      </div>
    </details>
  )
}
