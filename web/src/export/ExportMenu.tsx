/** A chart's export menu: its series as CSV or JSON, the chart as SVG or PNG. */
import { type RefObject, useState } from 'react'
import type { ChartModel } from '../charts/acrChart'
import { tasks } from '../progress/tasks'
import { chartSvgText, svgToPng } from './chartImage'
import { downloadBlob, downloadText, slug } from './download'
import { seriesCsv, seriesJson } from './series'

interface ExportMenuProps {
  /** The chart's title: heading of the pictures, stem of the file names. */
  title: string
  model: ChartModel | null
  svgRef: RefObject<SVGSVGElement | null>
}

export function ExportMenu({ title, model, svgRef }: ExportMenuProps) {
  const [problem, setProblem] = useState<string | null>(null)
  const stem = slug(title)
  const disabled = !model || model.series.length === 0

  const guard = (work: () => void | Promise<void>) => () => {
    setProblem(null)
    Promise.resolve()
      .then(work)
      .catch((cause: unknown) => setProblem(cause instanceof Error ? cause.message : String(cause)))
  }

  const svgText = () => {
    const svg = svgRef.current
    if (!svg || !model) throw new Error('the chart is not drawn yet')
    return chartSvgText(svg, title, [...model.legend, ...(model.runLegend ?? [])])
  }

  return (
    <details className="export-menu">
      <summary aria-label={`Export ${title}`}>Export</summary>
      <div className="export-choices" role="group" aria-label={`Export ${title} as`}>
        <button
          type="button"
          disabled={disabled}
          onClick={guard(
            () =>
              void (
                model &&
                downloadText(
                  seriesCsv(model.series.filter((s) => !s.key.startsWith('pinned:'))),
                  `${stem}.csv`,
                  'text/csv',
                )
              ),
          )}
        >
          CSV
        </button>
        <button
          type="button"
          disabled={disabled}
          onClick={guard(
            () =>
              void (
                model &&
                downloadText(
                  JSON.stringify(seriesJson(title, model.unit ?? '', model.series)),
                  `${stem}.json`,
                  'application/json',
                )
              ),
          )}
        >
          JSON
        </button>
        <button
          type="button"
          disabled={disabled}
          onClick={guard(() => downloadText(svgText(), `${stem}.svg`, 'image/svg+xml'))}
        >
          SVG
        </button>
        <button
          type="button"
          disabled={disabled}
          onClick={guard(() =>
            tasks.run(`Drawing ${title} as PNG…`, async () =>
              downloadBlob(await svgToPng(svgText()), `${stem}.png`),
            ),
          )}
        >
          PNG
        </button>
      </div>
      {problem && (
        <p className="export-problem" role="status">
          Could not export: {problem}
        </p>
      )}
    </details>
  )
}
