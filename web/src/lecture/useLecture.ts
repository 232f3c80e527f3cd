/**
 * The page's lecture: where the run pauses next (the next stop, or in student mode the next
 * question not yet answered), the stop or question the run stands at, the student's answers, and
 * the engine's verdict on each once its window has passed. Playing goes through `playOn`, which
 * asks the engine to pause exactly at the next stop (the worker's run loop stops at that simulated
 * time, not at the first display frame after it).
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { SampleStore } from '../engine/samples'
import type { Layout } from '../engine/layout'
import type { JsonObject } from '../scenario/paths'
import { loadQuestionCheck, QuestionJudge, type QuestionRow, type StudentAnswer } from './questions'
import { nextPause, readStops, SAME_MS, stopAt, type Question, type Stop } from './stops'
import type { ClaimCheckCtor } from '../library/claims'

const PAUSE_KEY = 'abrlab.pauseAtStops'

/** Playing pauses at the stops unless the reader turned that off on this browser. */
function readPauseAtStops(): boolean {
  try {
    return window.localStorage.getItem(PAUSE_KEY) !== 'off'
  } catch {
    return true
  }
}

export interface LectureInput {
  scenario: JsonObject | null
  layout: Layout | null
  store: SampleStore | null
  nowMs: number
  status: string
  /** Bumped when new samples arrived. */
  revision: number
  play(pauseAtMs?: number): void
}

export interface Lecture {
  stops: ReturnType<typeof readStops>
  questions: readonly Question[]
  /** The stop the run is paused at, if any. */
  current: Stop | null
  /** The question the run is paused to ask (student mode, not answered yet). */
  asking: Question | null
  /** Where playing on pauses next (undefined: the run's end). */
  nextPauseMs: number | undefined
  student: boolean
  setStudent(on: boolean): void
  /** Whether playing pauses at the stops (a preference kept across reloads). */
  pauseAtStops: boolean
  setPauseAtStops(on: boolean): void
  answers: ReadonlyMap<string, StudentAnswer>
  answer(id: string, answer: StudentAnswer): void
  /** The engine's verdict on each question, once judged. */
  rows: ReadonlyMap<string, QuestionRow>
  /** Plays on to the next pause. */
  playOn(): void
}

export function useLecture({
  scenario,
  layout,
  store,
  nowMs,
  status,
  revision,
  play,
}: LectureInput): Lecture {
  const stops = useMemo(() => (scenario ? readStops(scenario) : []), [scenario])
  const questions = layout?.scenario.questions ?? []
  const [student, setStudent] = useState(false)
  const [pauseAtStops, setPauseState] = useState(readPauseAtStops)
  const setPauseAtStops = useCallback((on: boolean) => {
    setPauseState(on)
    try {
      window.localStorage.setItem(PAUSE_KEY, on ? 'on' : 'off')
    } catch {
      // Storage may be unavailable (private mode, an embedding page's policy): the choice holds for this page.
    }
  }, [])
  const [answers, setAnswers] = useState<ReadonlyMap<string, StudentAnswer>>(new Map())
  // A new run asks afresh.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the run changes
  useEffect(() => setAnswers(new Map()), [layout])
  const asks = student ? questions.filter((q) => !answers.has(q.id)).map((q) => q.ask_ms) : []
  const nextPauseMs = nextPause(pauseAtStops || student ? stops : [], nowMs, asks)
  const paused = status === 'paused'
  const current = paused ? stopAt(stops, nowMs) : null
  const asking =
    student && paused
      ? (questions.find((q) => !answers.has(q.id) && Math.abs(q.ask_ms - nowMs) <= SAME_MS) ?? null)
      : null
  const playOn = useCallback(() => play(nextPauseMs), [play, nextPauseMs])
  const answer = useCallback(
    (id: string, a: StudentAnswer) => setAnswers((m) => new Map(m).set(id, a)),
    [],
  )

  const [Check, setCheck] = useState<ClaimCheckCtor | null>(null)
  const wanted = questions.length > 0
  useEffect(() => {
    if (!wanted) return
    let live = true
    void loadQuestionCheck().then((ctor) => live && setCheck(() => ctor))
    return () => {
      live = false
    }
  }, [wanted])
  const judge = useMemo(() => {
    if (!Check || !store || !scenario || !wanted) return null
    try {
      return new QuestionJudge(Check, JSON.stringify(scenario), store.columns)
    } catch {
      return null
    }
  }, [Check, store, scenario, wanted])
  useEffect(() => () => judge?.dispose(), [judge])
  const anyDue = questions.some((q) => q.due_ms <= nowMs + SAME_MS)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store grows in place; revision says so
  const rows = useMemo(() => {
    const out = new Map<string, QuestionRow>()
    if (!judge || !store || !anyDue) return out
    for (const r of judge.judge(store, nowMs)) out.set(r.id, r)
    return out
  }, [judge, store, anyDue, nowMs, revision])

  return {
    stops,
    questions,
    current,
    asking,
    nextPauseMs,
    student,
    setStudent,
    pauseAtStops,
    setPauseAtStops,
    answers,
    answer,
    rows,
    playOn,
  }
}

/** Shows a stop's view when the run reaches it: selects its element and magnifies its port. */
export function useStopView(
  stop: Stop | null,
  layout: Layout | null,
  select: (selection: { kind: 'node' | 'link' | 'vc'; id: string }) => void,
  magnify: (port: number) => void,
): void {
  useEffect(() => {
    const v = stop?.view
    if (!v || !layout) return
    const id = v.selection
    if (id) {
      const kind = layout.vcs.some((x) => x.id === id)
        ? 'vc'
        : layout.links.some((x) => x.id === id)
          ? 'link'
          : 'node'
      select({ kind, id })
    }
    const port = v.magnify ? layout.ports.findIndex((p) => p.id === v.magnify) : -1
    if (port >= 0) magnify(port)
  }, [stop, layout, select, magnify])
}
