/**
 * The Lab: the page's one store, outside React (in the manner of tldraw's `Editor`). It owns the
 * scenario document, its undo history, the selection, the pinned run and the status line, and it
 * drives the run (lab/run.ts). Components read it with `useLab(selector)` / `useRun(selector)`
 * (lab/hooks.ts) and change it only through its methods, so there is one copy of each thing.
 *
 * Every change to the document is an operation given to `apply` (lab/operation.ts): a parameter
 * set by its path, or a structural edit. The operation goes to the engine worker as it is, and
 * the worker's engine validates it once (lab/carry.ts); the page's own copy of the engine only
 * answers questions about the registry. The document and its undo history change only when the
 * engine has accepted the change; a refusal changes nothing and comes back, naming the path,
 * to whoever dispatched it. Accepted, the change reaches the run:
 *   - node positions and the lecture's stops: made on the worker's document (the stops
 *     validated), the run goes on untouched;
 *   - parameter values mid-run: `Engine.set_param` for each value — "live" when the model took
 *     it, and the run goes on;
 *   - anything else (a parameter the model cannot take live, a change to the network, any edit
 *     once the run has ended) replaces the run.
 * Every change that replaces a run — that last case, Reset, a loaded file, a library scenario,
 * change & run again, a sweep cell, a thing to try — takes one path: the run so far is pinned
 * behind the new one, the status line says "restarted — the previous run is pinned", and one
 * undo brings back the scenario and that run (rebuilt to the same time; the engine is
 * deterministic). Undo and redo are operations too, carried the same way.
 *
 * Adding to the page: a new panel reads what it shows with `useLab`/`useRun` and acts through the
 * Lab's methods; nothing is passed down through App. A panel that must act at a moment of the run
 * (pause at time t, a question at a stop) subscribes to `lab.run` (`subscribe`, `get().nowMs`)
 * and calls `lab.run.pause()` or `lab.run.step(ms)`; `lab.announce` writes the status line.
 */
import { TimeCursor } from '../charts/cursor'
import type { PinnedRun } from '../charts/chartContext'
import { snapshotStore } from '../compare/snapshot'
import {
  emptyHistory,
  record,
  redo as redoStep,
  type RunState,
  type Step,
  undo as undoStep,
} from '../editor/history'
import { editedState } from '../scenario/edited'
import type { EngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import type { Notice, Origin } from '../scenario/restore'
import type { Selection } from '../scenario/doc'
import type { ViewState } from '../scenario/shareLink'
import { applyThing, type ThingToTry } from '../scenario/things'
import { setPresentation } from '../app/presentation'
import { Lecture } from '../lecture/lecture'
import { capitalise, lowerFirst, validSelection } from './documents'
import { Emitter } from './emitter'
import { type Carried, Carrier } from './carry'
import { assigning, change, type Operation } from './operation'
import { ENGINE_CRASHED, type Run } from './run'
import type { Announcement, LabView, MainView, ReplaceOptions, SideTab } from './types'

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
   * Applies an operation once the engine accepts it; resolves with null when applied, or the
   * reason it was refused (each problem named by its path). `key` groups a quick run of the same
   * change into one undo step, and a step still waiting is replaced by the next with its key.
   */
  apply = (op: Operation, key?: string): Promise<string | null> =>
    this.carrier.enqueue(async () => {
      const current = this.view.scenario
      if (!current || !this.view.info) return 'the scenario is still loading'
      const outcome = change(current, op)
      // Setting what is already there (a slider let go where it was) changes nothing.
      if (outcome === null) return null
      if ('refused' in outcome) return capitalise(outcome.refused)
      const detail = outcome.kind === 'document' && outcome.detail ? ` (${outcome.detail})` : ''
      const back: Step =
        outcome.kind === 'assign'
          ? { kind: 'assign', sets: outcome.inverse, reach: outcome.reach }
          : { kind: 'document', scenario: current, reach: outcome.reach }
      const select = outcome.kind === 'document' ? outcome.select : undefined
      return this.carrier.carry({
        scenario: outcome.scenario,
        label: `${outcome.label}${detail}`,
        reach: outcome.reach,
        // Another scenario travels as the document it is.
        ...(op.op === 'replace' ? {} : { op }),
        ...(outcome.kind === 'assign' ? { sets: outcome.sets, inverse: outcome.inverse } : {}),
        commit: (replaced) => {
          const history = record(
            this.view.history,
            back,
            outcome.label,
            key ?? null,
            performance.now(),
            replaced,
          )
          this.update({
            ...this.documentPatch(outcome.scenario),
            history,
            differs: true,
            selection:
              select !== undefined ? select : validSelection(outcome.scenario, this.view.selection),
          })
        },
      })
    }, key)

  /**
   * Replaces the run with another scenario (change & run again, a sweep cell, a library file, a
   * loaded file, a thing to try): validated by the engine first — on refusal nothing changes and
   * the engine's words come back — then the one path of every run-replacing change.
   */
  replace = (
    next: JsonObject,
    label: string,
    options: ReplaceOptions = {},
  ): Promise<string | null> =>
    this.carrier.enqueue(async () => {
      const current = this.view.scenario
      if (!current || !this.view.info) return 'the scenario is still loading'
      // The run so far, pinned under its own name (before the new run's name replaces it).
      const pinned = options.pinned !== undefined ? options.pinned : this.pinOfRun()
      return this.carrier.carry({
        scenario: next,
        label,
        reach: 'engine',
        replacing: true,
        pinned,
        play: options.play ?? false,
        commit: (replaced) => {
          const back: Step = { kind: 'document', scenario: current, reach: 'engine' }
          const history = record(this.view.history, back, label, null, performance.now(), replaced)
          this.update({
            ...this.documentPatch(next),
            history,
            differs: options.differs ?? true,
            selection: validSelection(next, this.view.selection),
            runLabel: options.runLabel ?? null,
            ...(options.origin ? { origin: options.origin } : {}),
          })
        },
      })
    })

  /** Opens a run from the compare or sweep panel (scenario text the page made) and plays it. */
  openRun = async (json: string, label: string): Promise<string | null> => {
    const refused = await this.replace(JSON.parse(json) as JsonObject, label, {
      play: true,
      runLabel: label,
    })
    if (refused === null) this.setView('charts')
    return refused
  }

  /** A thing to try: the suggested change run beside the run so far, which is pinned. */
  tryThing = async (thing: ThingToTry): Promise<string | null> => {
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
    const back: Step = { kind: 'document', scenario, reach: 'engine' }
    const history = record(this.view.history, back, 'Restart', null, performance.now(), {
      ...this.runState(),
    })
    this.update({ history })
    this.replaceRun(scenario, 'Restart', '', { play: false })
  }

  /** Undoes the last step; resolves once the engine has taken it (null), or with its refusal. */
  undo = (): Promise<string | null> => this.travel(undoStep, 'Undo:')
  redo = (): Promise<string | null> => this.travel(redoStep, 'Redo:')

  /**
   * The one path of a change that replaces the run (the document is already the new one): the
   * run so far pinned (unless `options.pinned` says otherwise), the new run built.
   */
  replaceRun(next: JsonObject, label: string, why: string, options: ReplaceOptions): void {
    const said = this.pinFor(options.pinned !== undefined ? options.pinned : this.pinOfRun())
    void this.carrier.rebuild(next, options.play)
    this.announce(`${label}: ${said}${why}. Undo brings it back.`, 'restart')
  }

  /** Pins `pin` (if any) behind the run that replaces it; says so, for the status line. */
  pinFor(pin: PinnedRun | null): string {
    this.update({ pinned: pin ?? this.view.pinned })
    return pin ? 'restarted — the previous run is pinned' : 'a new run replaced the previous one'
  }

  /** A change the running simulation took: a marker on the timeline. */
  markLive(atMs: number, text: string): void {
    const run = this.run.get().layout
    this.update({
      liveMarks: [...this.view.liveMarks.filter((m) => m.run === run), { atMs, text, run }],
    })
  }

  /** The run so far as a pin, or null before it has any samples. */
  pinOfRun(): PinnedRun | null {
    const { layout, store, status, nowMs } = this.run.get()
    if (!layout || !store || store.rowCount === 0) return null
    const name = this.view.runLabel ?? layout.scenario.title
    const label = status === 'finished' ? name : `${name} (to ${nowMs.toFixed(1)} ms)`
    return { label, layout, store: snapshotStore(store) }
  }

  /** Where the document came from, how far its run has got and the pin beside it. */
  runState(): RunState {
    return { origin: this.view.origin, nowMs: this.run.get().nowMs, pinned: this.view.pinned }
  }

  /** The parts of the view that follow from the document. */
  private documentPatch(scenario: JsonObject): Pick<LabView, 'scenario' | 'edited'> {
    return { scenario, edited: editedState(scenario) }
  }

  /** Undo or redo, carried to the engine like any other change (after those still under way). */
  private travel(go: typeof undoStep, verb: string): Promise<string | null> {
    return this.carrier.enqueue(async () => {
      const current = this.view.scenario
      if (!current) return null
      const result = go(this.view.history, current, this.runState())
      if (!result) return null
      const text = `${verb} ${lowerFirst(result.label)}`
      const run = result.run
      const commit = () =>
        this.update({
          ...this.documentPatch(result.scenario),
          history: result.history,
          differs: true,
          selection: validSelection(result.scenario, this.view.selection),
          ...(run ? { origin: run.origin, pinned: run.pinned, runLabel: null } : {}),
        })
      if (run) {
        // The whole run was replaced: rebuild the one it replaced, to the time it had reached.
        commit()
        void this.carrier.rebuild(result.scenario).then((loaded) => {
          if (loaded?.ok && run.nowMs > 0) this.run.step(run.nowMs)
        })
        this.announce(
          run.nowMs > 0
            ? `${text}: the previous run is back, rebuilt to t = ${run.nowMs.toFixed(1)} ms.`
            : `${text}: the previous run is back.`,
          'restart',
        )
        return null
      }
      const { step, back } = result
      const carried: Carried = {
        scenario: result.scenario,
        label: text,
        reach: step.reach,
        commit,
        // A structural step's undo is the document it kept, sent whole.
        ...(step.kind === 'assign' && back.kind === 'assign'
          ? { sets: step.sets, inverse: back.sets, op: assigning(step.sets, text) }
          : {}),
      }
      const refused = await this.carrier.carry(carried)
      if (refused !== null) this.announce(`${text}: the engine refused it — ${refused}`, 'error')
      return refused
    })
  }
}
