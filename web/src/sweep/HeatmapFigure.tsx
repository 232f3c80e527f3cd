/**
 * One figure of a finished (or running) sweep as a heatmap over the grid, with its colour key and
 * the same values as a table; a cell opens its run.
 */
import { useLayoutEffect, useRef, useState } from 'react'
import { formatScenarioError } from '../engine/protocol'
import {
  heatmapDomain,
  heatmapHeight,
  renderHeatmap,
  valueRange,
  type HeatmapCell,
  type HeatmapScale,
} from './heatmap'
import { METRIC_LABELS, type SummaryMetric } from './metrics'
import { pathLabel, shortValue, type SweepRun } from './sweepPlan'
import type { SweepTarget } from './targets'

/** The heatmap of one figure of the sweep. */
export function Heatmap({
  run,
  metric,
  targets,
  scale,
  onOpen,
}: {
  run: SweepRun
  metric: SummaryMetric
  targets: readonly SweepTarget[]
  scale: HeatmapScale
  onOpen(i: number): void
}) {
  const ref = useRef<SVGSVGElement>(null)
  const boxRef = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(320)
  useLayoutEffect(() => {
    const box = boxRef.current
    if (!box) return
    setWidth(box.clientWidth || 320)
    const observer = new ResizeObserver(([entry]) =>
      setWidth(Math.floor(entry.contentRect.width) || 320),
    )
    observer.observe(box)
    return () => observer.disconnect()
  }, [])
  const labels = METRIC_LABELS[metric]
  // The packet model loses packets, not cells.
  const packets = run.packets
  const title = packets && metric === 'cells_lost' ? 'Packets lost' : labels.title
  const unit = packets && labels.unit === 'cells' ? 'packets' : labels.unit
  const baseFormat = labels.format
  // Enough decimals to tell the cells apart when a ratio varies only in its fourth digit.
  const spread = (() => {
    const values = run.outcomes.flatMap((o) =>
      o?.ok && o.summary[metric] !== null && Number.isFinite(o.summary[metric])
        ? [o.summary[metric] as number]
        : [],
    )
    return values.length > 1 ? Math.max(...values) - Math.min(...values) : 0
  })()
  const decimals =
    unit === '' && spread > 0 ? Math.min(6, Math.max(3, Math.ceil(-Math.log10(spread)) + 1)) : 3
  const format = unit === '' ? (v: number) => v.toFixed(decimals) : baseFormat
  const cells: HeatmapCell[] = run.points.map((p, index) => {
    const outcome = run.outcomes[index]
    const value =
      outcome === null ? null : outcome.ok ? (outcome.summary[metric] ?? Number.NaN) : Number.NaN
    const what =
      outcome === null
        ? 'still running'
        : outcome.ok
          ? `${title} ${value === null || !Number.isFinite(value) ? 'not measured' : format(value)}${unit ? ` ${unit}` : ''}`
          : `failed: ${outcome.errors.map(formatScenarioError).join('; ') || outcome.message}`
    return { index, column: p.column, row: p.row, value, description: `${p.label}: ${what}` }
  })
  const range = valueRange(cells)
  const domain = heatmapDomain(
    cells.flatMap((c) => (c.value === null ? [] : [c.value])),
    scale,
    labels.scale,
  )
  const columns = run.xValues.map(shortValue)
  const rows = run.yPath ? run.yValues.map(shortValue) : ['']
  useLayoutEffect(() => {
    if (!ref.current) return
    renderHeatmap(ref.current, {
      width,
      columns,
      rows,
      domain,
      xLabel: pathLabel(targets, run.xPath),
      yLabel: run.yPath ? pathLabel(targets, run.yPath) : '',
      unit,
      format,
      cells,
      onOpen,
    })
  })
  return (
    <figure className="heatmap" data-testid={`sweep-heatmap-${metric}`}>
      <figcaption>
        {title}
        {unit ? ` (${unit})` : ''}
        <span className="heatmap-key" data-testid="heatmap-scale">
          <span className="ramp" aria-hidden="true" />{' '}
          {scale === 'fixed' ? 'fixed scale' : 'relative scale'}: dark{' '}
          {(scale === 'fixed' ? baseFormat : format)(domain[0])} → light{' '}
          {(scale === 'fixed' ? baseFormat : format)(domain[1])}
          {range !== null &&
            (range[0] === range[1]
              ? ` · all ${format(range[0])}`
              : ` · values ${format(range[0])} to ${format(range[1])}`)}
        </span>
      </figcaption>
      <div ref={boxRef}>
        <svg
          ref={ref}
          role="group"
          aria-label={`${title} over the sweep grid`}
          height={heatmapHeight(run.yValues.length || 1, width, run.xValues.length)}
        />
      </div>
      <details className="heatmap-table">
        <summary>Values as a table</summary>
        <table data-testid={`sweep-table-${metric}`}>
          <caption>
            {title}
            {unit ? ` (${unit})` : ''}: {run.yPath ? `${pathLabel(targets, run.yPath)} down, ` : ''}
            {pathLabel(targets, run.xPath)} across
          </caption>
          <thead>
            <tr>
              <th scope="col">{run.yPath ? '' : pathLabel(targets, run.xPath)}</th>
              {columns.map((c, i) => (
                <th key={i} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, row) => (
              <tr key={row}>
                <th scope="row">{r}</th>
                {columns.map((_, column) => {
                  const cell = cells.find((c) => c.row === row && c.column === column)
                  const v = cell?.value
                  return (
                    <td key={column}>
                      {v === null || v === undefined ? '…' : Number.isFinite(v) ? format(v) : '×'}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
