/**
 * One figure of a finished (or running) sweep as a heatmap over the grid, with its colour key and
 * the same values as a table; a cell opens its run — clicked, or reached with the arrow keys and
 * opened with Enter. Hovering or focusing a cell says which point it is and its value.
 */
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useWidth } from '../editor/hooks'
import { formatScenarioError } from '../engine/protocol'
import {
  cellAt,
  finiteRange,
  heatmapDomain,
  heatmapGeometry,
  moveFocus,
  paintHeatmap,
  renderHeatmapAxes,
  type HeatmapScale,
} from './heatmap'
import { METRIC_LABELS, type SummaryMetric } from './metrics'
import { pathLabel, type SweepRun } from './sweepPlan'
import type { SweepTarget } from './targets'

interface HeatmapProps {
  run: SweepRun
  metric: SummaryMetric
  targets: readonly SweepTarget[]
  scale: HeatmapScale
  onOpen(i: number): void
}

/** The heatmap of one figure of the sweep; drawn again only when its points' outcomes change. */
export const Heatmap = memo(function Heatmap({
  run,
  metric,
  targets,
  scale,
  onOpen,
}: HeatmapProps) {
  const boxRef = useRef<HTMLDivElement>(null)
  const width = useWidth(boxRef) || 320
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const axesRef = useRef<SVGSVGElement>(null)
  const [hover, setHover] = useState<{ slot: number; x: number; y: number } | null>(null)
  const [focused, setFocused] = useState<number | null>(null)
  const [tableOpen, setTableOpen] = useState(false)

  const labels = METRIC_LABELS[metric]
  // The packet model loses packets, not cells.
  const title = run.packets && metric === 'cells_lost' ? 'Packets lost' : labels.title
  const unit = run.packets && labels.unit === 'cells' ? 'packets' : labels.unit
  const { columns, rows } = run
  // Grid slot (row × columns + column) → the point there, and its figure.
  const { pointAt, values } = useMemo(() => {
    const slots = columns.length * rows.length
    const pointAt = new Int32Array(slots).fill(-1)
    const values: (number | null)[] = new Array(slots).fill(null)
    run.points.forEach((p, i) => {
      const slot = p.row * columns.length + p.column
      const outcome = run.outcomes[i]
      pointAt[slot] = i
      values[slot] =
        outcome === null ? null : outcome.ok ? (outcome.summary[metric] ?? Number.NaN) : Number.NaN
    })
    return { pointAt, values }
  }, [run.points, run.outcomes, metric, columns.length, rows.length])
  const range = finiteRange(values)
  // Enough decimals to tell the cells apart when a ratio varies only in its fourth digit.
  const spread = range ? range[1] - range[0] : 0
  const decimals =
    unit === '' && spread > 0 ? Math.min(6, Math.max(3, Math.ceil(-Math.log10(spread)) + 1)) : 3
  const format = unit === '' ? (v: number) => v.toFixed(decimals) : labels.format
  const domain = heatmapDomain(range ?? [], scale, labels.scale)
  const geometry = heatmapGeometry(width, columns.length, rows.length)
  const xLabel = pathLabel(targets, run.xPath)
  const yLabel = run.yPath ? pathLabel(targets, run.yPath) : ''

  const describe = (slot: number): string => {
    const i = pointAt[slot]
    if (i === undefined || i < 0) return ''
    const outcome = run.outcomes[i]
    const value = values[slot]
    const what =
      outcome === null
        ? 'still running'
        : outcome.ok
          ? `${title} ${value === null || !Number.isFinite(value) ? 'not measured' : format(value)}${unit ? ` ${unit}` : ''}`
          : `failed: ${outcome.errors.map(formatScenarioError).join('; ') || outcome.message}`
    return `${run.points[i].label}: ${what}`
  }
  const open = (slot: number) => {
    const i = pointAt[slot]
    if (i !== undefined && i >= 0) onOpen(i)
  }

  useLayoutEffect(() => {
    const canvas = canvasRef.current
    const ctx = canvas?.getContext('2d')
    if (!canvas || !ctx) return
    const ratio = window.devicePixelRatio || 1
    const w = geometry.columns * geometry.cellW
    const h = geometry.rows * geometry.cellH
    canvas.width = Math.max(1, Math.round(w * ratio))
    canvas.height = Math.max(1, Math.round(h * ratio))
    canvas.style.width = `${w}px`
    canvas.style.height = `${h}px`
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    paintHeatmap(ctx, { geometry, values, domain, format, focused: focused ?? -1 })
  })
  useLayoutEffect(() => {
    if (axesRef.current)
      renderHeatmapAxes(axesRef.current, geometry, { columns, rows, xLabel, yLabel })
  })

  const slotAt = (clientX: number, clientY: number): number | null => {
    const box = canvasRef.current?.getBoundingClientRect()
    if (!box) return null
    const cell = cellAt(geometry, clientX - box.left, clientY - box.top)
    return cell ? cell.row * geometry.columns + cell.column : null
  }
  const tip = hover ?? (focused === null ? null : cellCentre(geometry, focused))
  const tipSlot = hover?.slot ?? focused
  return (
    <figure className="heatmap" data-testid={`sweep-heatmap-${metric}`}>
      <figcaption>
        {title}
        {unit ? ` (${unit})` : ''}
        <span className="heatmap-key" data-testid="heatmap-scale">
          <span className="ramp" aria-hidden="true" />{' '}
          {scale === 'fixed' ? 'fixed scale' : 'relative scale'}: dark{' '}
          {(scale === 'fixed' ? labels.format : format)(domain[0])} → light{' '}
          {(scale === 'fixed' ? labels.format : format)(domain[1])}
          {range !== null &&
            (range[0] === range[1]
              ? ` · all ${format(range[0])}`
              : ` · values ${format(range[0])} to ${format(range[1])}`)}
        </span>
      </figcaption>
      <div ref={boxRef} className="heatmap-plot">
        <svg ref={axesRef} aria-hidden="true" height={geometry.height} />
        <div
          className="heatmap-cells"
          style={{ left: geometry.left, top: geometry.top }}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: one focus stop for the whole grid (an application role: arrow keys move between its cells, Enter opens one)
          tabIndex={0}
          role="application"
          aria-roledescription="heatmap"
          aria-label={`${title} over the sweep grid: ${columns.length} × ${rows.length} cells, ${xLabel} across${yLabel ? `, ${yLabel} down` : ''}. Arrow keys move between cells, Enter opens a cell's run.`}
          data-columns={columns.length}
          data-rows={rows.length}
          onPointerMove={(e) => {
            const slot = slotAt(e.clientX, e.clientY)
            const box = canvasRef.current?.getBoundingClientRect()
            setHover(
              slot === null || !box
                ? null
                : { slot, x: e.clientX - box.left, y: e.clientY - box.top },
            )
          }}
          onPointerLeave={() => setHover(null)}
          onClick={(e) => {
            const slot = slotAt(e.clientX, e.clientY)
            if (slot !== null) open(slot)
          }}
          onFocus={() => setFocused((f) => f ?? 0)}
          onBlur={() => setFocused(null)}
          onKeyDown={(e) => {
            if (focused === null) return
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault()
              open(focused)
              return
            }
            const next = moveFocus(e.key, focused, geometry.columns, geometry.rows)
            if (next === null) return
            e.preventDefault()
            setFocused(next)
          }}
        >
          <canvas ref={canvasRef} />
        </div>
        {tip && tipSlot !== null && (
          <div
            className="heatmap-tip"
            role="status"
            data-testid="heatmap-tip"
            style={{
              left: Math.min(geometry.left + tip.x + 12, Math.max(0, geometry.width - 220)),
              top: geometry.top + tip.y + 14,
            }}
          >
            {describe(tipSlot)}
          </div>
        )}
      </div>
      <details className="heatmap-table" onToggle={(e) => setTableOpen(e.currentTarget.open)}>
        <summary>Values as a table</summary>
        {tableOpen && (
          <table data-testid={`sweep-table-${metric}`}>
            <caption>
              {title}
              {unit ? ` (${unit})` : ''}: {yLabel ? `${yLabel} down, ` : ''}
              {xLabel} across
            </caption>
            <thead>
              <tr>
                <th scope="col">{yLabel ? '' : xLabel}</th>
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
                    const v = values[row * columns.length + column]
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
        )}
      </details>
    </figure>
  )
})

/** The centre of a grid slot relative to the grid's corner: where a focused cell's note goes. */
function cellCentre(
  geometry: ReturnType<typeof heatmapGeometry>,
  slot: number,
): { x: number; y: number } {
  return {
    x: ((slot % geometry.columns) + 0.5) * geometry.cellW,
    y: (Math.floor(slot / geometry.columns) + 0.5) * geometry.cellH,
  }
}
