/**
 * The notebook side of the widget: the anywidget model (the Python object's synced traits) tied
 * to the Lab store. Python's `Lab.scenario` is the document (either side may change it: the
 * other follows), `Lab.set(path, value)` arrives as a message and is applied as the page's
 * parameter panel applies an edit, and the samples the page holds are pushed to Python as bytes
 * (a kernel busy running a cell cannot wait for the browser's answer, so Python never asks: it
 * reads what was last pushed).
 */
import { expandPath, parseSetValue } from '../engine/grammar'
import type { Lab } from '../lab/lab'
import { assigning } from '../lab/operation'
import type { JsonObject } from '../scenario/paths'

/** The slice of anywidget's model this module uses (`AnyModel` in anywidget's types). */
export interface WidgetModel {
  get(name: string): unknown
  set(name: string, value: unknown): void
  save_changes(): void
  on(event: string, callback: (...args: unknown[]) => void): void
  off(event: string, callback: (...args: unknown[]) => void): void
}

/** A `set` message from Python: a `--set` path (maybe with `*`) and its value as typed. */
export interface SetMessage {
  type: 'set'
  path: string
  raw: string
}

function isSetMessage(msg: unknown): msg is SetMessage {
  const m = msg as Partial<SetMessage> | null
  return m?.type === 'set' && typeof m.path === 'string' && typeof m.raw === 'string'
}

/** While the run plays, samples reach Python at most this often (and whenever it pauses or ends). */
export const SAMPLE_PUSH_MS = 1000
/**
 * ...and no faster than this many bytes a second: 500 VCs hold tens of MB of samples, which the
 * notebook's connection should not carry again every second.
 */
export const SAMPLE_PUSH_BYTES_PER_S = 4_000_000

/** How long to wait between pushes of `bytes` of samples while the run plays. */
export function pushInterval(bytes: number): number {
  return Math.max(SAMPLE_PUSH_MS, (bytes / SAMPLE_PUSH_BYTES_PER_S) * 1000)
}

/**
 * The samples the page holds as Python decodes them: little-endian float64, row-major, one value
 * per column (NaN where a value is undefined, as the store keeps it).
 */
export function samplesPayload(store: {
  columns: readonly string[]
  rowCount: number
  series(name: string): ArrayLike<number>
}): { columns: string[]; bytes: DataView } {
  const columns = [...store.columns]
  const rows = store.rowCount
  const values = new Float64Array(rows * columns.length)
  columns.forEach((name, c) => {
    const series = store.series(name)
    for (let r = 0; r < rows; r++) values[r * columns.length + c] = series[r]
  })
  // Float64Array is little-endian on every platform a browser runs on that this page supports;
  // written through a DataView it would be explicit, at a cost per value. Checked once here.
  if (new Uint8Array(new Float64Array([1]).buffer)[7] !== 0x3f)
    throw new Error('a big-endian browser: the samples cannot be sent as they are')
  return { columns, bytes: new DataView(values.buffer) }
}

/**
 * Applies one `Lab.set` from Python to the Lab: the path (maybe with `*`) and the value as
 * `abrsim --set` reads them, given to the Lab as one operation, which the engine validates (live
 * when the run can take it, else a new run). Resolves with null when applied, else the reason,
 * naming the path.
 */
export async function applySet(lab: Lab, message: SetMessage): Promise<string | null> {
  const scenario = lab.get().scenario
  if (!scenario) return 'the scenario is still loading'
  const expanded = expandPath(JSON.stringify(scenario), message.path)
  if ('error' in expanded) {
    const { path, message: text } = expanded.error
    return path ? `${path}: ${text}` : text
  }
  const value = parseSetValue(message.raw)
  const sets = expanded.paths.map((path) => ({ path, value }))
  const refused = await lab.apply(
    assigning(sets, `Set ${message.path} = ${message.raw}`),
    `python:${message.path}`,
  )
  return refused === null ? null : `${message.path}: ${refused}`
}

/**
 * Keeps the model and the Lab in step until the returned function is called: the document both
 * ways, `set` messages, the samples and the status line.
 */
export function connectModel(lab: Lab, model: WidgetModel): () => void {
  let sentScenario = JSON.stringify(model.get('scenario') ?? null)
  let lastPush = 0
  let pushTimer: ReturnType<typeof setTimeout> | null = null
  let pushedRows = -1
  let pushedStore: unknown = null

  const say = (text: string) => {
    model.set('status', text)
    model.save_changes()
  }

  const pushSamples = () => {
    pushTimer = null
    const { store } = lab.run.get()
    if (!store || (store === pushedStore && store.rowCount === pushedRows)) return
    pushedStore = store
    pushedRows = store.rowCount
    lastPush = Date.now()
    const { columns, bytes } = samplesPayload(store)
    model.set('_columns', columns)
    model.set('_samples', bytes)
    model.save_changes()
  }

  let seenSpeed = lab.run.get().speed
  const onRun = () => {
    const { status, store, speed } = lab.run.get()
    if (speed !== seenSpeed) {
      // The pace set on the transport, for Python's `Lab.speed`.
      seenSpeed = speed
      model.set('speed', speed)
      model.save_changes()
    }
    if (status === 'running') {
      const bytes = store ? store.rowCount * store.columns.length * 8 : 0
      if (pushTimer === null)
        pushTimer = setTimeout(
          pushSamples,
          Math.max(0, pushInterval(bytes) - (Date.now() - lastPush)),
        )
      return
    }
    if (pushTimer !== null) clearTimeout(pushTimer)
    pushSamples()
  }

  // The document to Python when it changes here (an edit, a `set`, an undo).
  let seenScenario = lab.get().scenario
  let seenAnnouncement = lab.get().announcement
  const onLab = () => {
    const { scenario, announcement } = lab.get()
    if (scenario !== seenScenario) {
      seenScenario = scenario
      const text = JSON.stringify(scenario)
      if (scenario && text !== sentScenario) {
        sentScenario = text
        model.set('scenario', scenario)
        model.save_changes()
      }
    }
    if (announcement !== seenAnnouncement) {
      seenAnnouncement = announcement
      if (announcement) say(announcement.text)
    }
  }

  // A scenario assigned in Python replaces the run (one undo step, as a loaded file does).
  const onScenario = async () => {
    const next = model.get('scenario') as JsonObject | null
    const text = JSON.stringify(next)
    if (!next || text === sentScenario) return
    sentScenario = text
    const refused = await lab.replace(next, 'Scenario from Python', { play: true })
    if (refused === null) return
    say(`The scenario from Python was refused: ${refused}`)
    // Python reads back the document the lab still has.
    const kept = lab.get().scenario
    sentScenario = JSON.stringify(kept)
    model.set('scenario', kept)
    model.save_changes()
  }

  // A pace set in Python (simulated ms per second; null: as fast as the engine goes).
  const onSpeed = () => {
    const speed = model.get('speed')
    if ((speed === null || (typeof speed === 'number' && speed > 0)) && speed !== seenSpeed)
      lab.run.setSpeed(speed)
  }

  const onMessage = (msg: unknown) => {
    if (!isSetMessage(msg)) return
    void applySet(lab, msg).then((refused) => {
      if (refused !== null) say(`Refused: ${refused}`)
    })
  }

  const offLab = lab.subscribe(onLab)
  const offRun = lab.run.subscribe(onRun)
  model.on('change:scenario', onScenario)
  model.on('change:speed', onSpeed)
  model.on('msg:custom', onMessage)
  return () => {
    offLab()
    offRun()
    model.off('change:scenario', onScenario)
    model.off('change:speed', onSpeed)
    model.off('msg:custom', onMessage)
    if (pushTimer !== null) clearTimeout(pushTimer)
  }
}
