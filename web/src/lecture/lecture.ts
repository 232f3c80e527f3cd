/**
 * The lecture's part of the Lab store: whether playing pauses at the narrated stops (the reader's
 * preference, kept on this browser), student mode, and the student's answers to this run's
 * questions. The stops themselves are the document's (`lab.get().scenario.stops`: edited with undo
 * like any other part of it; the engine checks them but they never change the run); the questions are the run's, as the engine
 * read them (`layout.scenario.questions`, with their asking and due times).
 *
 * Playing goes through `playOn`, which asks the engine to pause exactly at the next stop (the
 * worker's run loop stops at that simulated time, not at the first display frame after it). When
 * the stops, student mode or the preference change while the run plays, the engine is told the new
 * place to pause (a `play` while running only moves it).
 */
import type { Layout } from '../engine/layout'
import { Emitter } from '../lab/emitter'
import type { Run } from '../lab/run'
import type { JsonObject } from '../scenario/paths'
import type { StudentAnswer } from './questions'
import { nextPause, readStops, type Question, type Stop } from './stops'

const PAUSE_KEY = 'abrlab.pauseAtStops'

/** Playing pauses at the stops unless the reader turned that off on this browser. */
function readPauseAtStops(): boolean {
  try {
    return globalThis.localStorage?.getItem(PAUSE_KEY) !== 'off'
  } catch {
    return true
  }
}

export interface LectureView {
  /** Playing pauses at the stops (a preference kept across reloads). */
  pauseAtStops: boolean
  /** The run also stops before each question's window and asks it. */
  student: boolean
  /** The student's answers, by question id, for the current run. */
  answers: ReadonlyMap<string, StudentAnswer>
}

export type LectureStop = Stop & { index: number }

const NO_STOPS: readonly LectureStop[] = []

/** The stops of a document, in time order; the same array for the same document. */
const stopsCache = new WeakMap<JsonObject, readonly LectureStop[]>()
export function stopsOf(scenario: JsonObject | null): readonly LectureStop[] {
  if (!scenario) return NO_STOPS
  let stops = stopsCache.get(scenario)
  if (!stops) {
    stops = readStops(scenario)
    stopsCache.set(scenario, stops)
  }
  return stops
}

const NO_QUESTIONS: readonly Question[] = []

/** The questions of a run, as the engine read them. */
export function questionsOf(layout: Layout | null): readonly Question[] {
  return layout?.scenario.questions ?? NO_QUESTIONS
}

/** What the lecture needs of the Lab store that owns it (lab/lab.ts): the run, and the document as it changes. */
export interface LectureHost {
  readonly run: Run
  get(): { readonly scenario: JsonObject | null }
  subscribe(listener: () => void): () => void
}

export class Lecture extends Emitter<LectureView> {
  constructor(private readonly lab: LectureHost) {
    super({ pauseAtStops: readPauseAtStops(), student: false, answers: new Map() })
    const { run } = lab
    // A new run asks afresh.
    let layout = run.get().layout
    run.subscribe(() => {
      if (run.get().layout === layout) return
      layout = run.get().layout
      if (this.view.answers.size > 0) this.update({ answers: new Map() })
    })
    // Stops added, moved or removed while the run plays: the engine pauses at the new next one.
    let scenario = lab.get().scenario
    lab.subscribe(() => {
      const next = lab.get().scenario
      if (next === scenario) return
      const before = stopsOf(scenario)
      scenario = next
      if (stopsOf(next) !== before) this.replan()
    })
  }

  /** Where playing from now pauses next (undefined: the run's end). */
  nextPauseMs(): number | undefined {
    const { pauseAtStops, student, answers } = this.view
    const { layout, nowMs } = this.lab.run.get()
    const asks = student
      ? questionsOf(layout)
          .filter((q) => !answers.has(q.id))
          .map((q) => q.ask_ms)
      : []
    return nextPause(pauseAtStops || student ? stopsOf(this.lab.get().scenario) : [], nowMs, asks)
  }

  /** Plays on to the next pause: the next stop, or in student mode the next question. */
  playOn = (): void => {
    this.lab.run.play(this.nextPauseMs())
  }

  setPauseAtStops = (on: boolean): void => {
    try {
      globalThis.localStorage?.setItem(PAUSE_KEY, on ? 'on' : 'off')
    } catch {
      // Storage may be unavailable (private mode, an embedding page's policy): the choice holds for this page.
    }
    this.update({ pauseAtStops: on })
    this.replan()
  }

  setStudent = (on: boolean): void => {
    this.update({ student: on })
    this.replan()
  }

  /** Records the student's answer to one question. */
  answer = (id: string, answer: StudentAnswer): void => {
    this.update({ answers: new Map(this.view.answers).set(id, answer) })
  }

  /** While the run plays, tells the engine where it pauses now. */
  private replan(): void {
    if (this.lab.run.get().status === 'running') this.playOn()
  }
}
