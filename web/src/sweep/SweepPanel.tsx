/**
 * Sweeps: one or two parameters over lists of values, every combination run to the end
 * in background workers (one engine each, as many as the machine has cores), with progress and
 * cancel; then a heatmap per figure — maximum queue, bottleneck utilisation, fairness index, cells
 * lost. A cell opens its run on the page. `abrsim sweep` runs the same grid from the command line.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import './sweep.css'
import { formatScenarioError } from '../engine/protocol'
import { isPacketModel, type Layout } from '../engine/layout'
import { tasks, type TaskHandle } from '../progress/tasks'
import { AxisControls } from './AxisControls'
import type { HeatmapScale } from './heatmap'
import { Heatmap } from './HeatmapFigure'
import { SUMMARY_METRICS } from './metrics'
import { applyOverrides } from './paths'
import { createSweepWorker, defaultWorkerCount, runSweep, type SweepHandle } from './pool'
import { type AxisInput, gridPoints, NONE, readForm, shortValue, type SweepRun } from './sweepPlan'
import {
  loadRegistry,
  parseValueList,
  suggestValues,
  sweepTargets,
  type ParamSpec,
} from './targets'

/** What the workers report reaches the page at most this often (ms). */
const REPORT_EVERY_MS = 250

interface SweepPanelProps {
  layout: Layout
  scenarioJson: string
  /** Opens a sweep point as the page's run; returns null, or why it was refused. */
  onOpenRun(scenarioJson: string, label: string): Promise<string | null>
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
  const [fraction, setFraction] = useState(0)
  // Stable while the outcomes stay the same: the heatmaps are drawn again only when they change.
  const openPoint = useCallback(
    async (i: number) => {
      if (!run?.outcomes[i]?.ok) return
      const point = run.points[i]
      const applied = applyOverrides(run.scenarioJson, point.overrides)
      const refused =
        'error' in applied
          ? formatScenarioError(applied.error)
          : await onOpenRun(applied.json, point.label)
      setOpenProblem(refused === null ? null : `${point.label} was not opened: ${refused}`)
    },
    [run, onOpenRun],
  )
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

  // Typing edits an axis as it is; choosing a parameter from the list starts its values from a guess.
  const editAxis = (i: 0 | 1, next: Partial<AxisInput>) =>
    setAxes((c) => (i === 0 ? [{ ...c[0], ...next }, c[1]] : [c[0], { ...c[1], ...next }]))
  const chooseAxis = (i: 0 | 1, path: string) => {
    const spec = specOf(path)
    editAxis(i, { path, values: spec ? suggestValues(spec) : '' })
  }

  const start = async () => {
    const form = readForm(axes, untilMs, windowText)
    if ('problems' in form) {
      setProblems(form.problems)
      return
    }
    const { xValues, yValues, window } = form
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
    const points = gridPoints(axes, form, layout.until_ms, targets)
    setProblems([])
    const workers = defaultWorkerCount(points.length)
    const fresh: SweepRun = {
      xPath: axes[0].path,
      yPath: axes[1].path === NONE ? null : axes[1].path,
      xValues,
      yValues,
      columns: xValues.map(shortValue),
      rows: yValues.length > 0 ? yValues.map(shortValue) : [''],
      scenarioJson,
      points,
      outcomes: points.map(() => null),
      done: 0,
      state: 'running',
      workers,
      packets: isPacketModel(layout),
    }
    setRun(fresh)
    setFraction(0)
    taskRef.current?.done()
    const task = tasks.start(
      `Sweep: ${points.length} runs on ${workers} worker${workers === 1 ? '' : 's'}`,
      0,
    )
    taskRef.current = task
    // Points finish faster than a page can draw 10,000 cells: what the workers report is kept
    // here and shown at most every REPORT_EVERY_MS, not once per point.
    const outcomes = [...fresh.outcomes]
    let done = 0
    let fractions: readonly number[] = []
    let timer: ReturnType<typeof setTimeout> | null = null
    const show = () => {
      timer = null
      const f = fractions.reduce((a, b) => a + b, 0) / Math.max(1, fractions.length)
      task.update(f)
      setFraction(f)
      // A new outcome draws the heatmaps again; progress alone moves only the progress bar.
      setRun((r) =>
        r && r.points === points && r.done !== done ? { ...r, outcomes: [...outcomes], done } : r,
      )
    }
    const later = () => {
      timer ??= setTimeout(show, REPORT_EVERY_MS)
    }
    // The empty grid is drawn first; the workers start in the next task, unless cancelled (or
    // the panel closed) meanwhile.
    let cancelledFirst = false
    handleRef.current = {
      cancel: () => {
        cancelledFirst = true
      },
      done: Promise.resolve({ cancelled: true }),
    }
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    if (cancelledFirst) {
      task.done()
      setRun((r) => (r && r.points === points ? { ...r, state: 'cancelled' } : r))
      return
    }
    const handle = runSweep(
      points.map((p) => ({ scenarioJson, overrides: p.overrides, window })),
      createSweepWorker,
      {
        onProgress: (now) => {
          fractions = now
          later()
        },
        onPoint: (index, outcome) => {
          outcomes[index] = outcome
          done++
          later()
        },
      },
      workers,
    )
    handleRef.current = handle
    const { cancelled } = await handle.done
    if (timer !== null) clearTimeout(timer)
    show()
    task.done()
    setRun((r) =>
      r && r.points === points ? { ...r, state: cancelled ? 'cancelled' : 'done' } : r,
    )
  }

  const cancel = () => handleRef.current?.cancel()
  const running = run?.state === 'running'
  const doneCount = run?.done ?? 0
  const gridSize =
    parseValueList(axes[0].values).length *
    (axes[1].path === NONE ? 1 : Math.max(1, parseValueList(axes[1].values).length))

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
        {([0, 1] as const).map((i) => (
          <AxisControls
            key={i}
            i={i}
            axis={axes[i]}
            targets={targets}
            onChoose={(path) => chooseAxis(i, path)}
            onEdit={(next) => editAxis(i, next)}
          />
        ))}
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
