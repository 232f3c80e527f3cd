/**
 * Carries each change of the Lab's document to the engine worker, which validates it once and
 * says whether it is accepted (lab/lab.ts explains what follows from each answer). Changes go one
 * at a time, in the order they were made; a change still waiting is replaced by a later one with
 * the same key (the steps of a dragged slider).
 */
import type { PinnedRun } from '../charts/chartContext'
import type { RunState } from '../editor/history'
import type { EditResult, LoadResult } from '../engine/EngineClient'
import { formatScenarioError, type ScenarioError } from '../engine/protocol'
import type { Assignment } from '../scenario/assign'
import type { JsonObject } from '../scenario/paths'
import { capitalise } from './documents'
import type { Operation, Reach } from './operation'
import type { Run } from './run'
import type { Announcement, ReplaceOptions } from './types'

/** A change on its way to the engine. */
export interface Carried {
  /** The document after it. */
  scenario: JsonObject
  /**
   * The operation that made it, sent as it is when the worker has a run whose document it can be
   * made on; without one (another scenario, the undo of a structural step), `scenario` goes whole.
   */
  op?: Operation
  /** What it did, for the status line and the undo step. */
  label: string
  reach: Reach
  /** When the change is values at paths: each offered to the running simulation. */
  sets?: readonly Assignment[]
  /** What undoes `sets`, to put the run back when the engine refuses one after taking others. */
  inverse?: readonly Assignment[]
  /**
   * Records the change, once the engine accepted it: the document, its undo step (keeping the
   * run it replaced, `replaced`, if it replaced one).
   */
  commit(replaced?: RunState): void
  /** For another scenario in place of this one: the run to pin (default: the run so far). */
  pinned?: PinnedRun | null
  /** Play the new run once built (default: as the run was going). */
  play?: boolean
  /**
   * Another scenario in place of this one (a file, a library scenario, a sweep cell): the run so
   * far always pinned and kept with the undo step, the status line saying so without a why.
   */
  replacing?: boolean
}

type Task = () => Promise<string | null>

/** Why a change was dropped: another run was built while the engine looked at it. */
const REPLACED = 'another run was built meanwhile; nothing changed'

interface Queued {
  task: Task
  key: string | null
  done: (refusal: string | null) => void
}

/** The engine's refusal in words, each problem named by its path. */
export function refusal(errors: readonly ScenarioError[]): string {
  return errors.map(formatScenarioError).join('; ')
}

/** What the carrier needs of the Lab store it works for (lab/lab.ts). */
export interface CarrierHost {
  readonly run: Run
  readonly lecture: { nextPauseMs(): number | undefined }
  get(): { readonly scenario: JsonObject | null }
  announce(text: string, tone: Announcement['tone']): void
  runState(): RunState
  replaceRun(next: JsonObject, label: string, why: string, options: ReplaceOptions): void
  markLive(atMs: number, text: string): void
  pinFor(pin: PinnedRun | null): string
  pinOfRun(): PinnedRun | null
}

export class Carrier {
  private readonly queue: Queued[] = []
  private busy = false
  /** Bumped when the run is rebuilt: a change still under way for the old one stops. */
  private epoch = 0

  constructor(private readonly lab: CarrierHost) {}

  /**
   * Runs `task` after those before it; resolves with its refusal, or null when it was accepted
   * (or replaced, while waiting, by a later task with the same key).
   */
  enqueue(task: Task, key?: string): Promise<string | null> {
    return new Promise((done) => {
      const last = this.queue[this.queue.length - 1]
      if (key !== undefined && last?.key === key) {
        last.done(null)
        this.queue[this.queue.length - 1] = { task, key, done }
      } else {
        this.queue.push({ task, key: key ?? null, done })
      }
      if (!this.busy) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.busy = true
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        let answer: string | null
        try {
          answer = await next.task()
        } catch (error) {
          answer = error instanceof Error ? error.message : String(error)
        }
        next.done(answer)
      }
    } finally {
      this.busy = false
    }
  }

  /** Builds a new run from `doc` (already valid); a change under way for the old run stops. */
  rebuild(doc: JsonObject, play?: boolean): Promise<LoadResult | null> {
    this.epoch += 1
    // Playing at once pauses at the lecture's first stop, like the Play button.
    return this.lab.run.load(JSON.stringify(doc), {
      play,
      pauseAt: () => this.lab.lecture.nextPauseMs(),
    })
  }

  /** Has the engine validate one change and, accepted, brings the run in step with it. */
  async carry(change: Carried): Promise<string | null> {
    const epoch = this.epoch
    const { layout, error } = this.lab.run.get()
    const sets = change.sets ?? []
    const settable = layout !== null && sets.length > 0 && sets.every((s) => s.value !== undefined)
    // Without a run (or after a crash, in a fresh worker) there is no document to make it on.
    const op = layout !== null && error === null ? change.op : undefined
    if (change.reach === 'engine')
      return settable ? this.setEach(change, sets, epoch) : this.swap(change, op)
    if (change.reach === 'layout' && layout === null) {
      // Node positions, and no run: nothing the engine reads, nothing it can refuse.
      change.commit()
      return null
    }
    // What the engine does not run (node positions, the lecture): made on the worker's document,
    // the lecture checked by the engine, and the run goes on untouched.
    const expected = JSON.stringify(change.scenario)
    const answer = settable
      ? await this.offer(change, sets, epoch)
      : op
        ? await this.lab.run.edit(op, expected)
        : await this.lab.run.keep(expected)
    if (typeof answer === 'string') return answer
    if (!answer.ok) return this.refused(answer)
    if (this.epoch !== epoch) return REPLACED
    change.commit()
    return null
  }

  /**
   * The engine's refusal in words. When the worker's document came out different from the
   * page's (`diverged`), the run is rebuilt from the page's document, and the status line says so.
   */
  private refused(result: Extract<EditResult, { ok: false }>): string {
    const text = refusal(result.errors)
    if (!result.diverged) return text
    const doc = this.lab.get().scenario
    if (doc) void this.rebuild(doc)
    const said = `${capitalise(text)}: nothing changed, and the run was rebuilt from the page's copy.`
    this.lab.announce(said, 'error')
    return said
  }

  /**
   * Offers each value to the engine (`Engine.set_param` checks it as far as it reaches, and the
   * running simulation takes it live when the model can): whether any needs a rebuild, and the
   * time of the last, or a refusal (the values taken before it taken back).
   */
  private async offer(
    change: Carried,
    sets: readonly Assignment[],
    epoch: number,
  ): Promise<string | { ok: true; restart: boolean; at: number }> {
    let restart = false
    let at = this.lab.run.get().nowMs
    for (const [i, one] of sets.entries()) {
      const result = await this.lab.run.setParam(one.path, JSON.stringify(one.value))
      if (this.epoch !== epoch) return REPLACED
      if (!result.ok) {
        if (i > 0) await this.putBack(change, sets.length - i)
        return refusal(result.errors)
      }
      restart ||= result.applied === 'restart'
      at = result.nowMs
    }
    return { ok: true, restart, at }
  }

  /** Values offered to the running simulation: taken live, or the run rebuilt when it cannot. */
  private async setEach(
    change: Carried,
    sets: readonly Assignment[],
    epoch: number,
  ): Promise<string | null> {
    const { status, nowMs, store } = this.lab.run.get()
    const before = this.lab.runState()
    const answer = await this.offer(change, sets, epoch)
    if (typeof answer === 'string') return answer
    const { restart, at } = answer
    const hasRun = store !== null && store.rowCount > 0 && nowMs > 0
    if (!hasRun) {
      // Nothing run yet: the scenario is simply rebuilt.
      change.commit()
      await this.rebuild(change.scenario, status === 'running')
      this.lab.announce(`${change.label}.`, 'info')
    } else if (status === 'finished' || restart) {
      change.commit(before)
      const why =
        status === 'finished' ? ' (the run had ended)' : ' (the model cannot change this mid-run)'
      this.lab.replaceRun(change.scenario, change.label, why, { play: status === 'running' })
    } else {
      change.commit()
      this.lab.markLive(at, change.label)
      this.lab.announce(
        `${change.label}: applied live at t = ${at.toFixed(1)} ms, the run goes on.`,
        'live',
      )
    }
    return null
  }

  /**
   * The engine refused a value after taking the ones before it: those are taken back (the
   * inverse after its first `untaken` undoes them, last first), so the run stays with the document.
   */
  private async putBack(change: Carried, untaken: number): Promise<void> {
    const inverse = change.inverse ?? []
    let removed = false
    for (const one of inverse.slice(untaken)) {
      if (one.value !== undefined) await this.lab.run.setParam(one.path, JSON.stringify(one.value))
      else removed = true
    }
    // A value cannot take a setting away: the worker keeps the page's document instead.
    const doc = this.lab.get().scenario
    if (removed && doc) await this.lab.run.keep(JSON.stringify(doc))
  }

  /**
   * Another network or scenario: validated whole, then built in place of the run — the run so far
   * pinned behind it, one undo bringing it back — or, refused, nothing changed.
   */
  private async swap(change: Carried, op?: Operation): Promise<string | null> {
    const { status, nowMs, store } = this.lab.run.get()
    const before = this.lab.runState()
    const replaces =
      change.replacing === true || (store !== null && store.rowCount > 0 && nowMs > 0)
    let said = ''
    this.epoch += 1
    const json = JSON.stringify(change.scenario)
    const result = await this.lab.run.swap(
      op ? { op, expected: json } : json,
      { play: change.play ?? status === 'running', pauseAt: () => this.lab.lecture.nextPauseMs() },
      () => {
        change.commit(replaces ? before : undefined)
        if (replaces)
          said = this.lab.pinFor(change.pinned !== undefined ? change.pinned : this.lab.pinOfRun())
      },
    )
    if (result === null) return null
    if (!result.ok) return this.refused(result)
    if (!replaces) this.lab.announce(`${change.label}.`, 'info')
    else {
      const why = change.replacing
        ? ''
        : status === 'finished'
          ? ' (the run had ended)'
          : ' (the network changed)'
      this.lab.announce(`${change.label}: ${said}${why}. Undo brings it back.`, 'restart')
    }
    return null
  }
}
