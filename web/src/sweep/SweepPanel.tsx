/**
 * Sweeps: one or two parameters over lists of values, every combination run to the end
 * in background workers (one engine each, as many as the machine has cores), with progress and
 * cancel; then a heatmap per figure — maximum queue, bottleneck utilisation, fairness index, cells
 * lost. A cell opens its run on the page. `abrsim sweep` runs the same grid from the command line.
 */
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { formatScenarioError } from '../engine/protocol'
import { isPacketModel, type Layout } from '../engine/layout'
import { tasks, type TaskHandle } from '../progress/tasks'
import {
  heatmapDomain,
  heatmapHeight,
  renderHeatmap,
  valueRange,
  type HeatmapCell,
  type HeatmapScale,
} from './heatmap'
import { METRIC_LABELS, SUMMARY_METRICS, type SummaryMetric } from './metrics'
import { applyOverrides, formatParamValue, parseValue, type Override } from './paths'
import {
  createSweepWorker,
  defaultWorkerCount,
  runSweep,
  type PointOutcome,
  type SweepHandle,
} from './pool'
import {
  loadRegistry,
  parseValueList,
  suggestValues,
  sweepTargets,
  type ParamSpec,
  type SweepTarget,
} from './targets'

interface SweepPanelProps {
  layout: Layout
  scenarioJson: string
  /** Opens a sweep point as the page's run; returns null, or why it was refused. */
  onOpenRun(scenarioJson: string, label: string): string | null
}

interface AxisInput {
  path: string
  values: string
}

interface SweepPoint {
  /** The point's values, run length included: applied to the scenario in the sweep worker. */
  overrides: Override[]
  label: string
  column: number
  row: number
}

interface SweepRun {
  xPath: string
  yPath: string | null
  xValues: string[]
  yValues: string[]
  /** The scenario the grid's points vary. */
  scenarioJson: string
  points: SweepPoint[]
  outcomes: (PointOutcome | null)[]
  fractions: readonly number[]
  state: 'running' | 'done' | 'cancelled'
  workers: number
  /** A packet-level scenario: queues and losses count packets. */
  packets: boolean
}

const NONE = ''

function shortValue(raw: string): string {
  const v = parseValue(raw)
  return typeof v === 'number' ? formatParamValue(v) : String(raw)
}

function pathLabel(targets: readonly SweepTarget[], path: string): string {
  return targets.find((t) => t.path === path)?.label ?? path
}

function Heatmap({
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

/** Memoised: the page re-renders every frame while a run plays, the sweep form need not. */
export const SweepPanel = memo(function SweepPanel({
  layout,
  scenarioJson,
  onOpenRun,
}: SweepPanelProps) {
  const [registry, setRegistry] = useState<ParamSpec[] | null>(null)
  const [registryError, setRegistryError] = useState<string | null>(null)
  useEffect(() => {
    loadRegistry().then(setRegistry, (cause: unknown) =>
      setRegistryError(cause instanceof Error ? cause.message : String(cause)),
    )
  }, [])
  const targets = useMemo(
    () => (registry ? sweepTargets(layout, scenarioJson, registry) : []),
    [registry, layout, scenarioJson],
  )
  const specOf = (path: string) => targets.find((t) => t.path === path)?.spec

  const [axes, setAxes] = useState<[AxisInput, AxisInput]>([
    { path: isPacketModel(layout) ? 'run.seed' : 'vcs.*.rif', values: '' },
    { path: NONE, values: '' },
  ])
  const [untilMs, setUntilMs] = useState(String(layout.until_ms))
  const [windowText, setWindowText] = useState({ from: '', to: '' })
  const [problems, setProblems] = useState<string[]>([])
  const [scale, setScale] = useState<HeatmapScale>('fixed')
  const [openProblem, setOpenProblem] = useState<string | null>(null)
  const [run, setRun] = useState<SweepRun | null>(null)
  const openPoint = (i: number) => {
    if (!run?.outcomes[i]?.ok) return
    const point = run.points[i]
    const applied = applyOverrides(run.scenarioJson, point.overrides)
    const refused =
      'error' in applied ? formatScenarioError(applied.error) : onOpenRun(applied.json, point.label)
    setOpenProblem(refused === null ? null : `${point.label} was not opened: ${refused}`)
  }
  const handleRef = useRef<SweepHandle | null>(null)
  const taskRef = useRef<TaskHandle | null>(null)

  // Fill a freshly chosen parameter's values with a first guess.
  useEffect(() => {
    setAxes(
      (current) =>
        current.map((axis) => {
          if (axis.values !== '' || axis.path === NONE) return axis
          const spec = targets.find((t) => t.path === axis.path)?.spec
          return spec ? { ...axis, values: suggestValues(spec) } : axis
        }) as [AxisInput, AxisInput],
    )
  }, [targets])

  useEffect(
    () => () => {
      handleRef.current?.cancel()
      taskRef.current?.done()
    },
    [],
  )

  const setAxis = (i: 0 | 1, next: Partial<AxisInput>) =>
    setAxes((current) => {
      const copy: [AxisInput, AxisInput] = [{ ...current[0] }, { ...current[1] }]
      copy[i] = { ...copy[i], ...next }
      if (next.path !== undefined) {
        const spec = specOf(next.path)
        copy[i].values = spec ? suggestValues(spec) : ''
      }
      return copy
    })

  const start = async () => {
    const found: string[] = []
    const xValues = parseValueList(axes[0].values)
    const yValues = axes[1].path === NONE ? [] : parseValueList(axes[1].values)
    if (axes[0].path === NONE || xValues.length === 0)
      found.push('Choose the first parameter and at least one value.')
    if (axes[1].path !== NONE && yValues.length === 0)
      found.push('Give the second parameter at least one value, or choose “nothing”.')
    if (axes[1].path !== NONE && axes[1].path === axes[0].path)
      found.push('The two parameters are the same.')
    const until = Number(untilMs)
    if (!(until > 0)) found.push('The run length must be a positive number of milliseconds.')
    let window: [number, number] | null = null
    if (windowText.from.trim() !== '' || windowText.to.trim() !== '') {
      const from = windowText.from.trim() === '' ? 0 : Number(windowText.from)
      const to = windowText.to.trim() === '' ? until : Number(windowText.to)
      if (!(from >= 0 && to > from && to <= until))
        found.push(`The window must satisfy 0 ≤ from < to ≤ ${until} ms.`)
      else window = [from, to]
    }
    if (found.length > 0) {
      setProblems(found)
      return
    }
    const mod = await import('../engine/pkg/sim_wasm.js')
    await mod.default()
    // The engine's own bound on a grid (limits.max_sweep_points), counted from the axes' lengths
    // before any point is made (sim_core::sweep::Grid, the same check as `abrsim sweep`).
    const gridAxes = [{ path: axes[0].path, values: xValues }]
    if (yValues.length > 0) gridAxes.push({ path: axes[1].path, values: yValues })
    try {
      new mod.SweepGrid(JSON.stringify(gridAxes)).free()
    } catch (e) {
      setProblems([`${e instanceof Error ? e.message : String(e)}: give fewer values.`])
      return
    }
    const points: SweepPoint[] = []
    const rows = yValues.length > 0 ? yValues : [null]
    rows.forEach((y, row) => {
      xValues.forEach((x, column) => {
        const overrides: Override[] = [{ path: axes[0].path, raw: x }]
        if (y !== null) overrides.push({ path: axes[1].path, raw: y })
        const all =
          until !== layout.until_ms
            ? [{ path: 'run.until_ms', raw: String(until) }, ...overrides]
            : overrides
        const label = overrides
          .map((o) => `${pathLabel(targets, o.path)} = ${shortValue(o.raw)}`)
          .join(', ')
        points.push({ overrides: all, label, column, row })
      })
    })
    setProblems([])
    const workers = defaultWorkerCount(points.length)
    const fresh: SweepRun = {
      xPath: axes[0].path,
      yPath: axes[1].path === NONE ? null : axes[1].path,
      xValues,
      yValues,
      scenarioJson,
      points,
      outcomes: points.map(() => null),
      fractions: points.map(() => 0),
      state: 'running',
      workers,
      packets: isPacketModel(layout),
    }
    setRun(fresh)
    taskRef.current?.done()
    const task = tasks.start(
      `Sweep: ${points.length} runs on ${workers} worker${workers === 1 ? '' : 's'}`,
      0,
    )
    taskRef.current = task
    const handle = runSweep(
      points.map((p) => ({ scenarioJson, overrides: p.overrides, window })),
      createSweepWorker,
      {
        onProgress: (fractions) => {
          const copy = [...fractions]
          task.update(copy.reduce((a, b) => a + b, 0) / copy.length)
          setRun((r) => (r && r.points === points ? { ...r, fractions: copy } : r))
        },
        onPoint: (index, outcome) =>
          setRun((r) => {
            if (!r || r.points !== points) return r
            const outcomes = [...r.outcomes]
            outcomes[index] = outcome
            return { ...r, outcomes }
          }),
      },
      workers,
    )
    handleRef.current = handle
    const { cancelled } = await handle.done
    task.done()
    setRun((r) =>
      r && r.points === points ? { ...r, state: cancelled ? 'cancelled' : 'done' } : r,
    )
  }

  const cancel = () => handleRef.current?.cancel()
  const running = run?.state === 'running'
  const doneCount = run ? run.outcomes.filter((o) => o !== null).length : 0
  const fraction = run
    ? run.fractions.reduce((a, b) => a + b, 0) / Math.max(1, run.fractions.length)
    : 0
  const gridSize =
    parseValueList(axes[0].values).length *
    (axes[1].path === NONE ? 1 : Math.max(1, parseValueList(axes[1].values).length))

  const axisControls = (i: 0 | 1) => {
    const spec = specOf(axes[i].path)
    const isCustom = axes[i].path !== NONE && !spec
    return (
      <fieldset className="sweep-axis">
        <legend>{i === 0 ? 'First parameter (across)' : 'Second parameter (down)'}</legend>
        <label>
          Parameter
          <select
            value={isCustom ? '__custom' : axes[i].path}
            onChange={(e) =>
              setAxis(i, { path: e.target.value === '__custom' ? 'vcs.*.' : e.target.value })
            }
            aria-label={`${i === 0 ? 'First' : 'Second'} parameter`}
          >
            {i === 1 && <option value={NONE}>nothing (one-parameter sweep)</option>}
            {targets.map((t) => (
              <option key={t.path} value={t.path}>
                {t.label}
              </option>
            ))}
            <option value="__custom">another path…</option>
          </select>
        </label>
        {isCustom && (
          <label>
            Path
            <input
              value={axes[i].path}
              onChange={(e) =>
                setAxes((c) =>
                  i === 0
                    ? [{ ...c[0], path: e.target.value }, c[1]]
                    : [c[0], { ...c[1], path: e.target.value }],
                )
              }
              aria-label={`${i === 0 ? 'First' : 'Second'} parameter path`}
            />
          </label>
        )}
        {axes[i].path !== NONE && (
          <label>
            Values{spec?.unit ? ` (${spec.unit})` : ''}
            <input
              value={axes[i].values}
              onChange={(e) =>
                setAxes((c) =>
                  i === 0
                    ? [{ ...c[0], values: e.target.value }, c[1]]
                    : [c[0], { ...c[1], values: e.target.value }],
                )
              }
              aria-label={`${i === 0 ? 'First' : 'Second'} parameter values`}
              placeholder="e.g. 1/64, 1/16, 1/4, 1"
            />
          </label>
        )}
        {spec && (
          <p className="muted sweep-doc">
            {spec.doc} Range {formatParamValue(spec.min)}–{formatParamValue(spec.max)}
            {spec.kind === 'pow2'
              ? ', powers of two'
              : spec.kind === 'zero_or_pow2'
                ? ', 0 or powers of two'
                : ''}
            .
          </p>
        )}
      </fieldset>
    )
  }

  return (
    <section className="sweep-panel" aria-labelledby="sweep-title">
      <h2 id="sweep-title">Sweep parameters</h2>
      <p className="muted">
        Every combination runs to the end in background workers (
        {defaultWorkerCount(Math.max(1, gridSize))} at a time on this machine). To run the same grid
        without the page — on a bigger machine, or from a script — save the scenario and use the
        command line: <code>abrsim sweep FILE --param PATH=V1,V2,…</code>.
      </p>
      {registryError && (
        <p className="sweep-problem">
          The parameter list could not be read from the engine: {registryError}
        </p>
      )}
      <div className="sweep-form">
        {axisControls(0)}
        {axisControls(1)}
        <fieldset className="sweep-axis runs">
          <legend>Runs</legend>
          <label>
            Run length (ms)
            <input
              value={untilMs}
              onChange={(e) => setUntilMs(e.target.value)}
              inputMode="decimal"
              aria-label="Run length in ms"
            />
          </label>
          <label>
            Figures from (ms)
            <input
              value={windowText.from}
              onChange={(e) => setWindowText((w) => ({ ...w, from: e.target.value }))}
              placeholder="0"
              inputMode="decimal"
              aria-label="Window from in ms"
            />
          </label>
          <label>
            to (ms)
            <input
              value={windowText.to}
              onChange={(e) => setWindowText((w) => ({ ...w, to: e.target.value }))}
              placeholder="end"
              inputMode="decimal"
              aria-label="Window to in ms"
            />
          </label>
        </fieldset>
      </div>
      <div className="sweep-actions">
        <button
          type="button"
          className="primary"
          onClick={() => void start()}
          disabled={running || !registry}
        >
          Run {gridSize} {gridSize === 1 ? 'point' : 'points'}
        </button>
        {running && (
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        )}
        {run && (
          <span className="sweep-status" data-testid="sweep-status" data-state={run.state}>
            <progress max={1} value={fraction} aria-label="Sweep progress" />
            {run.state === 'running'
              ? `${doneCount} of ${run.points.length} runs done`
              : run.state === 'cancelled'
                ? `Cancelled after ${doneCount} of ${run.points.length} runs`
                : `All ${run.points.length} runs done`}
          </span>
        )}
      </div>
      {problems.length > 0 && (
        <ul className="sweep-problem" aria-label="Sweep problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {run && (
        <>
          <p className="muted">
            Click a cell (or focus it and press Enter) to open that run on the page.{' '}
            <label>
              <input
                type="checkbox"
                checked={scale === 'relative'}
                onChange={(e) => setScale(e.target.checked ? 'relative' : 'fixed')}
              />{' '}
              relative colour scale (lowest to highest of this sweep)
            </label>
          </p>
          {openProblem && (
            <p className="sweep-problem" role="alert">
              {openProblem}
            </p>
          )}
          <div className="heatmaps">
            {SUMMARY_METRICS.map((metric) => (
              <Heatmap
                key={metric}
                run={run}
                metric={metric}
                targets={targets}
                scale={scale}
                onOpen={openPoint}
              />
            ))}
          </div>
        </>
      )}
    </section>
  )
})
