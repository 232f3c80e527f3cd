/** Exports of the run as a whole: the scenario file it was built from, and every sample as CSV. */
import type { SampleStore } from '../engine/samples'
import { downloadText, slug } from './download'
import { samplesCsv } from './series'

interface RunExportsProps {
  scenarioJson: string | null
  scenarioId: string
  store: SampleStore | null
}

/** The scenario text as a file: pretty-printed when it is JSON, as it came otherwise. */
export function scenarioFileText(scenarioJson: string): string {
  try {
    return `${JSON.stringify(JSON.parse(scenarioJson), null, 2)}\n`
  } catch {
    return scenarioJson
  }
}

export function RunExports({ scenarioJson, scenarioId, store }: RunExportsProps) {
  const stem = slug(scenarioId || 'scenario')
  return (
    <details className="export-menu run-exports">
      <summary>Export run</summary>
      <div className="export-choices" role="group" aria-label="Export the run">
        <button type="button" disabled={!scenarioJson} onClick={() => scenarioJson && downloadText(scenarioFileText(scenarioJson), `${stem}.json`, 'application/json')}>
          Scenario file
        </button>
        <button type="button" disabled={!store || store.rowCount === 0} onClick={() => store && downloadText(samplesCsv(store), `${stem}-samples.csv`, 'text/csv')}>
          All samples (CSV)
        </button>
      </div>
    </details>
  )
}
