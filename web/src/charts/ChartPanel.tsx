/**
 * A titled chart with an HTML legend and an export menu; the plot is drawn by D3
 * (timeSeries.ts), and the pointer drives the linked read-out and the time brush
 * (interaction.ts). Hover redraws only the read-out, never the chart.
 */
import { memo, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { ExportMenu } from '../export/ExportMenu'
import type { ChartModel } from './acrChart'
import type { TimeCursor } from './cursor'
import { cancelDraw, queueDraw } from './drawQueue'
import { Legend } from './Legend'
import { renderCursor, renderInteraction } from './interaction'
import { chartSummary, chartTable } from './readout'
import { MARGIN, PRESENT_MARGIN, renderTimeSeries, type LineSeries } from './timeSeries'

/** Presentation mode's larger text needs more room around the plot (styles.css, `.app.present`). */
function marginFor(svg: Element) {
  return svg.closest('.app.present') ? PRESENT_MARGIN : MARGIN
}

export interface ChartPanelProps {
  /** DOM id of the <svg>, also used by tests. */
  id: string
  title: string
  model: ChartModel | null
  /** Shown instead of the plot when there is no model yet. */
  placeholder?: string
  /** The linked hover time shared by every chart and the topology. */
  cursor?: TimeCursor
  /** Zoom every chart to a time window (null: the whole run). */
  onZoom?(window: [number, number] | null): void
}

interface Size {
  width: number
  height: number
}

/** Tracks an element's content size; the chart fills whatever room the page layout gives it. */
function useSize<T extends HTMLElement>(): [RefObject<T | null>, Size] {
  const ref = useRef<T>(null)
  const [size, setSize] = useState<Size>({ width: 0, height: 0 })
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    setSize({ width: element.clientWidth, height: element.clientHeight })
    const observer = new ResizeObserver(([entry]) =>
      setSize({
        width: Math.floor(entry.contentRect.width),
        height: Math.floor(entry.contentRect.height),
      }),
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [ref, size]
}

/** The chart in words (always) and as a table (on demand). */
function ChartReadout({
  id,
  title,
  series,
  unit,
}: {
  id: string
  title: string
  series: readonly LineSeries[]
  unit: string
}) {
  const [table, setTable] = useState(false)
  const data = table ? chartTable(series) : null
  return (
    <div className={`chart-readout${table ? ' open' : ''}`}>
      <p className="chart-summary" data-testid={`${id}-summary`}>
        <span className="summary-text">{chartSummary(series, unit)}</span>{' '}
        <button
          type="button"
          className="link-button"
          aria-expanded={table}
          onClick={() => setTable(!table)}
        >
          {table ? 'Hide table' : 'Data as a table'}
        </button>
      </p>
      {data && (
        <div className="chart-table">
          <table>
            <caption>
              {title}
              {unit ? ` (${unit})` : ''}
            </caption>
            <thead>
              <tr>
                {data.head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.body.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) =>
                    c === 0 ? (
                      <th key={c} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={c}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}

/** Redraws only when its model, size or handlers change (memo): not on every page render. */
export const ChartPanel = memo(function ChartPanel({
  id,
  title,
  model,
  placeholder,
  cursor,
  onZoom,
}: ChartPanelProps) {
  const [boxRef, { width, height }] = useSize<HTMLDivElement>()
  const svgRef = useRef<SVGSVGElement>(null)
  const latest = useRef({ model, width, height })
  latest.current = { model, width, height }

  // Drawn in a task of its own after the commit (drawQueue.ts), not inside it.
  useLayoutEffect(() => {
    const svg = svgRef.current
    if (!svg || !model || width <= 0 || height <= 0) return
    queueDraw(svg, () => {
      if (!svg.isConnected) return
      const options = { ...model.options, width, height, margin: marginFor(svg) }
      renderTimeSeries(svg, options)
      renderInteraction(svg, options, {
        onHover: (t) => cursor?.set(t),
        onBrush: (window) => onZoom?.(window),
        onResetZoom: () => onZoom?.(null),
      })
      renderCursor(svg, options, model.unit ?? '', cursor?.get() ?? null)
    })
  })
  useLayoutEffect(() => {
    const svg = svgRef.current
    return () => {
      if (svg) cancelDraw(svg)
    }
  }, [])

  useEffect(() => {
    if (!cursor) return
    return cursor.subscribe((t) => {
      const svg = svgRef.current
      const { model: m, width: w, height: h } = latest.current
      if (!svg || !m || w <= 0 || h <= 0) return
      renderCursor(
        svg,
        { ...m.options, width: w, height: h, margin: marginFor(svg) },
        m.unit ?? '',
        t,
      )
    })
  }, [cursor])

  return (
    <section className="chart-panel" aria-labelledby={`${id}-title`} data-chart={id}>
      <header className="chart-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <ExportMenu title={title} model={model} svgRef={svgRef} />
        <Legend entries={model?.legend ?? []} label={`${title} legend`} />
      </header>
      <div className="chart-box" ref={boxRef}>
        {model ? (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard focus reaches every chart (its role=img label and the readout describe it)
          <svg id={id} ref={svgRef} tabIndex={0} />
        ) : (
          <p className="placeholder">{placeholder}</p>
        )}
      </div>
      {model && (
        <ChartReadout id={id} title={title} series={model.options.series} unit={model.unit ?? ''} />
      )}
    </section>
  )
})
