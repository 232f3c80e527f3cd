/**
 * The Lab: the page's one store, outside React (in the manner of tldraw's `Editor`). It owns the
 * scenario document, its undo history, the selection, the pinned run and the status line, and it
 * drives the run (lab/run.ts). Components read it with `useLab(selector)` / `useRun(selector)`
 * (lab/hooks.ts) and change it only through its methods, so there is one copy of each thing.
 *
 * Every change to the document goes through `apply`: the engine validates the result first — the
 * whole of it, or for one changed value as far as that value reaches (a refused edit changes
 * nothing and says why) — then the change is recorded for undo and carried to the run:
 *   - node positions only (dragging): nothing to tell the engine, the run goes on untouched;
 *   - parameter values mid-run: `Engine.set_param` for each changed value — "live" when the model
 *     took it, and the run goes on;
 *   - anything else (a parameter the model cannot take live, a change to the network, any edit
 *     once the run has ended) replaces the run.
 * Every change that replaces a run — that last case, Reset, a loaded file, a library scenario,
 * change & run again, a sweep cell, a thing to try — takes one path (`replaceRun`): the run so
 * far is pinned behind the new one, the status line says "restarted — the previous run is
 * pinned", and one undo brings back the scenario and that run (rebuilt to the same time; the
 * engine is deterministic).
 *
 * Adding to the page: a new panel reads what it shows with `useLab`/`useRun` and acts through the
 * Lab's methods; nothing is passed down through App. A panel that must act at a moment of the run
 * (pause at time t, a question at a stop) subscribes to `lab.run` (`subscribe`, `get().nowMs`)
 * and calls `lab.run.pause()` or `lab.run.step(ms)`; `lab.announce` writes the status line.
 */
import { TimeCursor } from '../charts/cursor'
import type { PinnedRun } from '../charts/models'
import { snapshotStore } from '../compare/snapshot'
import {
  emptyHistory,
  record,
  redo as redoStep,
  undo as undoStep,
  type RunState,
} from '../editor/history'
import type { Edit } from '../editor/ops'
import { formatScenarioError } from '../engine/protocol'
import { editedState } from '../scenario/edited'
import type { EngineInfo } from '../scenario/engineInfo'
import { leafChanges, type JsonObject } from '../scenario/paths'
import type { Notice, Origin } from '../scenario/restore'
import type { Selection, ViewState } from '../scenario/shareLink'
import { applyThing, type ThingToTry } from '../scenario/things'
import { setPresentation } from '../app/presentation'
import { Lecture } from '../lecture/lecture'
import { capitalise, engineReads, lowerFirst, validSelection } from './documents'
import { Emitter } from './emitter'
import { Carrier } from './carry'
import { ENGINE_CRASHED, type Run } from './run'
import type { Announcement, Carry, LabView, MainView, ReplaceOptions, SideTab } from './types'

export type { Announcement, LabView, LiveMark, MainView, ReplaceOptions, SideTab } from './types'

export class Lab extends Emitter<LabView> {
  private serial = 0
  /** Carries each change of the document to the run. */
  private readonly carrier: Carrier = new Carrier(this)
  /** The linked time of every chart and the drawing (hovered, or held on the timeline). */
  readonly cursor = new TimeCursor()
  /** The lecture: pausing at the narrated stops, student mode and the answers (lecture/lecture.ts). */
  readonly lecture: Lecture

  constructor(
    readonly run: Run,
    private readonly autoplay = false,
  ) {
    super({
      info: null,
      scenario: null,
      origin: null,
      notice: null,
      selection: null,
      tab: 'about',
      view: 'charts',
      picked: undefined,
      pinned: null,
      liveMarks: [],
      edited: null,
      differs: false,
      history: emptyHistory,
      announcement: null,
      runLabel: null,
    })
    // A new run starts live, nothing held.
    let layout = run.get().layout
    run.subscribe(() => {
      if (run.get().layout === layout) return
      layout = run.get().layout
      this.cursor.setScrub(null)
      this.cursor.set(null)
    })
    this.lecture = new Lecture(this)
  }

  /** Writes the status line. */
  announce(text: string, tone: Announcement['tone']): void {
    this.serial += 1
    this.update({ announcement: { text, tone, serial: this.serial } })
  }

  setInfo(info: EngineInfo): void {
    this.update({ info })
  }

  setNotice = (notice: Notice | null): void => this.update({ notice })
  dismissNotice = (): void => this.update({ notice: null })
  setTab = (tab: SideTab): void => this.update({ tab })
  setView = (view: MainView): void => this.update({ view })
  setPicked = (picked: ReadonlySet<string> | undefined): void => this.update({ picked })
  setPinned = (pinned: PinnedRun | null): void => this.update({ pinned })
  /** Pins the run so far behind the runs that follow. */
  pinRun = (): void => this.update({ pinned: this.pinOfRun() ?? this.view.pinned })

  select = (selection: Selection | null): void => {
    this.update(selection ? { selection, tab: 'params' } : { selection })
  }

  /**
   * Opens a scenario afresh (the page's address): new history, no pin, the status line cleared,
   * the run rebuilt. `differs` marks it as differing from what the URL names.
   */
  open(next: JsonObject, origin: Origin, view: ViewState = {}, differs = false): void {
    this.update({
      ...this.documentPatch(next),
      origin,
      history: emptyHistory,
      differs,
      pinned: null,
      announcement: null,
      runLabel: null,
      selection: validSelection(next, view.selection),
      ...(view.tab ? { tab: view.tab } : {}),
    })
    if (view.speed !== undefined) this.run.setSpeed(view.speed)
    if (view.present) setPresentation({ on: true })
    void this.carrier.rebuild(next, this.autoplay)
  }

  /**
   * Validates and applies an edit; returns null when applied, or the reason it was refused.
   * `key` groups a quick run of the same change into one undo step.
   */
  apply = (edit: Edit, key?: string): string | null => {
    const { scenario: current, info } = this.view
    if (!edit.ok) return capitalise(edit.message)
    if (!current || !info) return 'the scenario is still loading'
    const changes = leafChanges(current, edit.scenario)
    // Setting what is already there (a slider let go where it was) changes nothing.
    if (changes !== null && changes.length === 0) return null
    const text = JSON.stringify(edit.scenario)
    if (changes === null && text === JSON.stringify(current)) return null
    // One value changed in a valid document (a slider's step): the engine checks it as far as
    // it reaches; anything more is validated whole.
    const verdict =
      changes !== null && changes.length === 1 && changes[0].after !== undefined
        ? info.validateEdit(text, changes[0].path)
        : info.validate(text)
    if (!verdict.ok) return verdict.errors.map(formatScenarioError).join('; ')
    const before = this.runState()
    const history = record(this.view.history, current, edit.label, key ?? null, performance.now())
    this.update({
      ...this.documentPatch(edit.scenario),
      history,
      differs: true,
      selection:
        edit.select !== undefined
          ? edit.select
          : validSelection(edit.scenario, this.view.selection),
    })
    const detail = edit.detail ? ` (${edit.detail})` : ''
    const one = changes?.length === 1 ? changes[0] : null
    this.carrier.request({
      scenario: edit.scenario,
      label: `${edit.label}${detail}`,
      known:
        one && one.after !== undefined && engineReads(one)
          ? { from: current, change: one }
          : undefined,
      entry: history.past[history.past.length - 1],
      before,
    })
    return null
  }

  /**
   * Replaces the run with another scenario (change & run again, a sweep cell, a library file, a
   * loaded file, a thing to try): validated first — on refusal nothing changes and the engine's
   * words come back — then the one path of every run-replacing change.
   */
  replace = (next: JsonObject, label: string, options: ReplaceOptions = {}): string | null => {
    const { scenario: current, info } = this.view
    if (!current || !info) return 'the scenario is still loading'
    const verdict = info.validate(JSON.stringify(next))
    if (!verdict.ok) return verdict.errors.map(formatScenarioError).join('; ')
    const history = record(this.view.history, current, label, null, performance.now(), {
      ...this.runState(),
    })
    // The run so far, pinned under its own name (before the new run's name replaces it).
    const pinned = options.pinned !== undefined ? options.pinned : this.pinOfRun()
    this.update({
      ...this.documentPatch(next),
      history,
      differs: options.differs ?? true,
      selection: validSelection(next, this.view.selection),
      runLabel: options.runLabel ?? null,
      ...(options.origin ? { origin: options.origin } : {}),
    })
    this.replaceRun(next, label, '', { ...options, pinned })
    return null
  }

  /** Opens a run from the compare or sweep panel (scenario text the page made) and plays it. */
  openRun = (json: string, label: string): string | null => {
    const refused = this.replace(JSON.parse(json) as JsonObject, label, {
      play: true,
      runLabel: label,
    })
    if (refused === null) this.setView('charts')
    return refused
  }

  /** A thing to try: the suggested change run beside the run so far, which is pinned. */
  tryThing = (thing: ThingToTry): string | null => {
    const { scenario } = this.view
    if (!scenario || !this.run.get().store) return 'the scenario is still loading'
    let next: JsonObject
    try {
      next = applyThing(scenario, thing)
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
    const sentence = thing.text.replace(/[.:]\s*$/, '')
    const short = sentence.length > 48 ? `${sentence.slice(0, 47)}…` : sentence
    return this.openRun(JSON.stringify(next), short)
  }

  /** Reset: the run starts again from 0 ms; the run so far is pinned, and undo brings it back. */
  restart = (): void => {
    const { scenario } = this.view
    const { store, status, error } = this.run.get()
    if (scenario && error?.title === ENGINE_CRASHED) {
      // A fresh engine, built from the document: the live changes are in it.
      void this.carrier.rebuild(scenario)
      return
    }
    if (!scenario || !store || store.rowCount === 0 || status === 'idle') {
      this.run.reset()
      return
    }
    const history = record(this.view.history, scenario, 'Restart', null, performance.now(), {
      ...this.runState(),
    })
    this.update({ history })
    this.replaceRun(scenario, 'Restart', '', { play: false })
  }

  undo = (): void => this.travel(undoStep, 'Undo:')
  redo = (): void => this.travel(redoStep, 'Redo:')

  /**
   * The one path of a change that replaces the run (the document is already the new one): the
   * run so far pinned (unless `options.pinned` says otherwise), the new run built.
   */
  private replaceRun(next: JsonObject, label: string, why: string, options: ReplaceOptions): void {
    const pin = options.pinned !== undefined ? options.pinned : this.pinOfRun()
    this.update({ pinned: pin ?? this.view.pinned })
    void this.carrier.rebuild(next, options.play)
    const said = pin
      ? 'restarted — the previous run is pinned'
      : 'a new run replaced the previous one'
    this.announce(`${label}: ${said}${why}. Undo brings it back.`, 'restart')
  }

  /** A change the running simulation took: a marker on the timeline. */
  markLive(atMs: number, text: string): void {
    const run = this.run.get().layout
    this.update({
      liveMarks: [...this.view.liveMarks.filter((m) => m.run === run), { atMs, text, run }],
    })
  }

  /** A carried change that the run cannot take: its undo step brings the run back, and it replaces the run. */
  replaceFor(job: Carry, why: string, play: boolean): void {
    const entry = job.entry
    const past = this.view.history.past
    if (entry && past[past.length - 1] === entry) {
      const history = {
        ...this.view.history,
        past: [...past.slice(0, -1), { ...entry, run: job.before }],
      }
      this.update({ history })
    }
    this.replaceRun(job.scenario, job.label, why, { play })
  }

  /** The run so far as a pin, or null before it has any samples. */
  private pinOfRun(): PinnedRun | null {
    const { layout, store, status, nowMs } = this.run.get()
    if (!layout || !store || store.rowCount === 0) return null
    const name = this.view.runLabel ?? layout.scenario.title
    const label = status === 'finished' ? name : `${name} (to ${nowMs.toFixed(1)} ms)`
    return { label, layout, store: snapshotStore(store) }
  }

  private runState(): RunState {
    return { origin: this.view.origin, nowMs: this.run.get().nowMs, pinned: this.view.pinned }
  }

  /** The parts of the view that follow from the document. */
  private documentPatch(scenario: JsonObject): Pick<LabView, 'scenario' | 'edited'> {
    return { scenario, edited: editedState(scenario) }
  }

  private travel(step: typeof undoStep, verb: string): void {
    const current = this.view.scenario
    if (!current) return
    const result = step(this.view.history, current, this.runState())
    if (!result) return
    const text = `${verb} ${lowerFirst(result.label)}`
    const run = result.run
    this.update({
      ...this.documentPatch(result.scenario),
      history: result.history,
      differs: true,
      selection: validSelection(result.scenario, this.view.selection),
      ...(run ? { origin: run.origin, pinned: run.pinned, runLabel: null } : {}),
    })
    if (!run) {
      this.carrier.request({
        scenario: result.scenario,
        label: text,
        entry: undefined,
        before: this.runState(),
      })
      return
    }
    // The whole run was replaced: rebuild the one it replaced, to the time it had reached.
    void this.carrier.rebuild(result.scenario).then((loaded) => {
      if (loaded?.ok && run.nowMs > 0) this.run.step(run.nowMs)
    })
    this.announce(
      run.nowMs > 0
        ? `${text}: the previous run is back, rebuilt to t = ${run.nowMs.toFixed(1)} ms.`
        : `${text}: the previous run is back.`,
      'restart',
    )
  }
}
