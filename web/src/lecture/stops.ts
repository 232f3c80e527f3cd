/**
 * A scenario's lecture as the page reads it from the document: its narrated stops and its
 * predict-then-play questions (the engine has validated both; scenarios/README.md), where the run
 * pauses next, and the edits that add, change and remove a stop (each one undo step, like every
 * other edit of the document).
 */
import type { Edit } from '../editor/ops'
import type { Question, Stop, StopView } from '../engine/generated/engine-types'
import { isObject, type Json, type JsonObject } from '../scenario/paths'

export type { Question, Stop, StopView }

/** Two simulated times this close are the same moment (the engine's clock is in ns). */
export const SAME_MS = 1e-6

const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null)
const num = (v: Json | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null

/** The document's stops, in time order (each keeps its index in the file as `index`). */
export function readStops(doc: JsonObject): (Stop & { index: number })[] {
  const list = Array.isArray(doc.stops) ? doc.stops : []
  const out: (Stop & { index: number })[] = []
  list.forEach((item, index) => {
    if (!isObject(item)) return
    const t = num(item.t_ms)
    const title = str(item.title)
    const text = str(item.text)
    if (t === null || title === null || text === null) return
    const v = isObject(item.view) ? item.view : null
    const view: StopView | null = v
      ? { selection: str(v.selection), chart: str(v.chart), magnify: str(v.magnify) }
      : null
    out.push({ id: str(item.id), t_ms: t, title, text, view, index })
  })
  return out.sort((a, b) => a.t_ms - b.t_ms || a.index - b.index)
}

/** The stop the run stands at (paused exactly at its time), if any. */
export function stopAt(stops: readonly Stop[], nowMs: number): Stop | null {
  return stops.find((s) => Math.abs(s.t_ms - nowMs) <= SAME_MS) ?? null
}

/**
 * Where playing from `nowMs` pauses next: the first stop after now, or in student mode the first
 * unanswered question's asking time, whichever comes first; undefined: the run's end.
 */
export function nextPause(
  stops: readonly Stop[],
  nowMs: number,
  asks: readonly number[] = [],
): number | undefined {
  const times = [...stops.map((s) => s.t_ms), ...asks].filter((t) => t > nowMs + SAME_MS)
  return times.length > 0 ? Math.min(...times) : undefined
}

function withStops(doc: JsonObject, update: (stops: Json[]) => void): JsonObject {
  const next = structuredClone(doc)
  const stops = Array.isArray(next.stops) ? next.stops : []
  update(stops)
  if (stops.length > 0) next.stops = stops
  else delete next.stops
  return next
}

/** A new stop at `tMs` (rounded to a microsecond), titled and worded as given. */
export function addStop(doc: JsonObject, tMs: number, title: string, text: string): Edit {
  if (!title.trim() || !text.trim())
    return { ok: false, message: 'a stop needs a title and a note' }
  const t = Math.round(tMs * 1000) / 1000
  return {
    ok: true,
    scenario: withStops(doc, (stops) => stops.push({ t_ms: t, title, text })),
    label: `Add stop “${title}” at ${t} ms`,
  }
}

/** Changes the title and note of the stop at file index `index`. */
export function editStop(doc: JsonObject, index: number, title: string, text: string): Edit {
  if (!title.trim() || !text.trim())
    return { ok: false, message: 'a stop needs a title and a note' }
  const old = Array.isArray(doc.stops) ? doc.stops[index] : undefined
  if (!isObject(old)) return { ok: false, message: `there is no stop ${index}` }
  return {
    ok: true,
    scenario: withStops(doc, (stops) => {
      stops[index] = { ...old, title, text }
    }),
    label: `Edit stop “${title}”`,
  }
}

/** Removes the stop at file index `index` (and the `before` of any question asked at it). */
export function removeStop(doc: JsonObject, index: number): Edit {
  const old = Array.isArray(doc.stops) ? doc.stops[index] : undefined
  if (!isObject(old)) return { ok: false, message: `there is no stop ${index}` }
  const scenario = withStops(doc, (stops) => stops.splice(index, 1))
  const id = str(old.id)
  if (id !== null && Array.isArray(scenario.questions))
    for (const q of scenario.questions) if (isObject(q) && q.before === id) delete q.before
  return { ok: true, scenario, label: `Remove stop “${str(old.title) ?? ''}”` }
}

/** The chart a stop brings forward, if the run has it. */
export function stopChart<K extends string>(stop: Stop | null, kinds: readonly K[]): K | null {
  const chart = stop?.view?.chart
  return kinds.find((k) => k === chart) ?? null
}

/** The two charts a presentation shows with `chart` among them: first, beside the other's first. */
export function presentingWith<K extends string>(shown: readonly [K, K], chart: K): [K, K] {
  if (shown.includes(chart)) return [shown[0], shown[1]]
  return [chart, shown[0]]
}
