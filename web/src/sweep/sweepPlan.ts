/**
 * A sweep's grid as the form gives it: the values of one or two parameters, the run length and the
 * window the figures are taken over, checked; then every point of the grid with the overrides that
 * make its scenario and its label.
 */
import { formatParamValue, parseValue, type Override } from './paths'
import type { PointOutcome } from './pool'
import { parseValueList, type SweepTarget } from './targets'

/** One axis of the form: the parameter's path and the values typed for it. */
export interface AxisInput {
  path: string
  values: string
}

/** The second axis's path when the sweep has one parameter. */
export const NONE = ''

/** One point of the grid. */
export interface SweepPoint {
  /** The point's values, run length included: applied to the scenario in the sweep worker. */
  overrides: Override[]
  label: string
  column: number
  row: number
}

/** A sweep started: its grid, its points' outcomes and progress so far. */
export interface SweepRun {
  xPath: string
  yPath: string | null
  xValues: string[]
  yValues: string[]
  /** The grid's column and row headings (`shortValue`; one empty row for one parameter). */
  columns: string[]
  rows: string[]
  /** The scenario the grid's points vary. */
  scenarioJson: string
  points: SweepPoint[]
  outcomes: (PointOutcome | null)[]
  /** How many points have an outcome. */
  done: number
  state: 'running' | 'done' | 'cancelled'
  workers: number
  /** A packet-level scenario: queues and losses count packets. */
  packets: boolean
}

/** A value as the grid shows it: a number in the parameter's notation, else as typed. */
export function shortValue(raw: string): string {
  const v = parseValue(raw)
  return typeof v === 'number' ? formatParamValue(v) : String(raw)
}

/** A path's label in the parameter list, or the path itself. */
export function pathLabel(targets: readonly SweepTarget[], path: string): string {
  return targets.find((t) => t.path === path)?.label ?? path
}

/** What the form asks for, read and checked. */
export interface SweepForm {
  xValues: string[]
  yValues: string[]
  until: number
  /** The window the figures are taken over, or null for the whole run. */
  window: [number, number] | null
}

/** Reads the form, or says every reason it cannot start a sweep. */
export function readForm(
  axes: readonly [AxisInput, AxisInput],
  untilMs: string,
  windowText: { from: string; to: string },
): SweepForm | { problems: string[] } {
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
  if (found.length > 0) return { problems: found }
  return { xValues, yValues, until, window }
}

/**
 * The grid's points, row by row: each sets the axes' values (and the run length, when it differs
 * from the scenario's `untilMs`) and is labelled with the parameters' names and values.
 */
export function gridPoints(
  axes: readonly [AxisInput, AxisInput],
  form: SweepForm,
  untilMs: number,
  targets: readonly SweepTarget[],
): SweepPoint[] {
  const { xValues, yValues, until } = form
  const points: SweepPoint[] = []
  const rows = yValues.length > 0 ? yValues : [null]
  // Each axis's labels once: a 100 × 100 grid has 200 values, not 20,000.
  const named = (i: 0 | 1, raw: string) =>
    `${pathLabel(targets, axes[i].path)} = ${shortValue(raw)}`
  const xNames = xValues.map((x) => named(0, x))
  const yNames = rows.map((y) => (y === null ? null : named(1, y)))
  rows.forEach((y, row) => {
    xValues.forEach((x, column) => {
      const overrides: Override[] = [{ path: axes[0].path, raw: x }]
      if (y !== null) overrides.push({ path: axes[1].path, raw: y })
      const all =
        until !== untilMs ? [{ path: 'run.until_ms', raw: String(until) }, ...overrides] : overrides
      const label = yNames[row] === null ? xNames[column] : `${xNames[column]}, ${yNames[row]}`
      points.push({ overrides: all, label, column, row })
    })
  })
  return points
}
