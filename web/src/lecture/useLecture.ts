/**
 * React's view of the lecture (lecture/lecture.ts, part of the Lab store): the document's stops,
 * the run's questions, the stop or question the run stands at, the student's answers, and the
 * engine's verdict on each question once its window has passed.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import { getPresentation, setPresentation } from '../app/presentation'
import { CHART_IDS } from '../charts/ChartsWorkspace'
import { chartKinds } from '../charts/models'
import type { Layout } from '../engine/layout'
import { useLab, useLabStore, useRun, useRunFrame } from '../lab/hooks'
import type { ClaimCheckCtor } from '../library/claims'
import type { Selection } from '../scenario/doc'
import { type Lecture, type LectureStop, type LectureView, questionsOf, stopsOf } from './lecture'
import { loadQuestionCheck, QuestionJudge, type QuestionRow } from './questions'
import { presentingWith, SAME_MS, stopAt, stopChart, type Question, type Stop } from './stops'

/** A slice of the lecture's state. */
export function useLectureState<T>(selector: (view: LectureView) => T): T {
  const { lecture } = useLabStore()
  return useSyncExternalStore(lecture.subscribe, () => selector(lecture.get()))
}

/** The document's stops, in time order. */
export function useStops(): readonly LectureStop[] {
  return stopsOf(useLab((l) => l.scenario))
}

/** The stop the run is paused at, if any. */
export function useCurrentStop(): LectureStop | null {
  const stops = useStops()
  const pausedAt = useRun((r) => (r.status === 'paused' ? r.nowMs : null))
  // Only a lecture being followed has a current stop: with stops off, a run that merely rests at
  // a stop's time (a restart at 0 ms) shows no note and leaves the reader's selection and tab alone.
  const following = useLectureState((v) => v.pauseAtStops || v.student)
  if (!following || pausedAt === null) return null
  return stopAt(stops, pausedAt) as LectureStop | null
}

export interface LectureModel {
  stops: readonly LectureStop[]
  questions: readonly Question[]
  /** The stop the run is paused at, if any. */
  current: LectureStop | null
  /** The question the run is paused to ask (student mode, not answered yet). */
  asking: Question | null
  /** Where playing on pauses next (undefined: the run's end). */
  nextPauseMs: number | undefined
  view: LectureView
  /** The engine's verdict on each question, once judged. */
  rows: ReadonlyMap<string, QuestionRow>
  lecture: Lecture
}

const nowOf = (r: { nowMs: number }) => r.nowMs
const revisionOf = (r: { revision: number }) => r.revision

export function useLecture(): LectureModel {
  const { lecture } = useLabStore()
  const stops = useStops()
  const layout = useRun((r) => r.layout)
  const pausedAt = useRun((r) => (r.status === 'paused' ? r.nowMs : null))
  const nowMs = useRunFrame(nowOf)
  const revision = useRunFrame(revisionOf)
  const scenario = useLab((l) => l.scenario)
  const view = useLectureState((v) => v)
  const questions = questionsOf(layout)
  const current = useCurrentStop()
  const asking =
    view.student && pausedAt !== null
      ? (questions.find(
          (q) => !view.answers.has(q.id) && Math.abs(q.ask_ms - pausedAt) <= SAME_MS,
        ) ?? null)
      : null
  const rows = useQuestionRows(questions, layout, nowMs, revision, scenario)
  return {
    stops,
    questions,
    current,
    asking,
    // Follows from the stops, the answers and the time, each of which re-renders this.
    nextPauseMs: lecture.nextPauseMs(),
    view,
    rows,
    lecture,
  }
}

/** The engine's verdict on each question whose window has passed (the claims' judge). */
function useQuestionRows(
  questions: readonly Question[],
  layout: Layout | null,
  nowMs: number,
  revision: number,
  scenario: object | null,
): ReadonlyMap<string, QuestionRow> {
  const store = useRun((r) => r.store)
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
  // The judge reads the scenario the run was built from: a stop edited since does not rebuild it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt per run (its layout), not per edit
  const judge = useMemo(() => {
    if (!Check || !store || !scenario || !wanted) return null
    try {
      return new QuestionJudge(Check, JSON.stringify(scenario), store.columns)
    } catch {
      return null
    }
  }, [Check, store, wanted, layout])
  useEffect(() => () => judge?.dispose(), [judge])
  const anyDue = questions.some((q) => q.due_ms <= nowMs + SAME_MS)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store grows in place; revision says so
  return useMemo(() => {
    const out = new Map<string, QuestionRow>()
    if (!judge || !store || !anyDue) return out
    for (const r of judge.judge(store, nowMs)) out.set(r.id, r)
    return out
  }, [judge, store, anyDue, nowMs, revision])
}

/**
 * Shows a stop's view when the run reaches it: selects its element, magnifies its port (the
 * drawing's magnifier, `magnify`) and brings its chart forward: the Charts view, the chart
 * scrolled into view, and in presentation mode among the two charts shown.
 */
export function useStopView(magnify: (port: number) => void): void {
  const lab = useLabStore()
  const stop: Stop | null = useCurrentStop()
  const layout = useRun((r) => r.layout)
  useEffect(() => {
    const v = stop?.view
    if (!v || !layout) return
    const id = v.selection
    if (id) {
      const kind: Selection['kind'] = layout.vcs.some((x) => x.id === id)
        ? 'vc'
        : layout.links.some((x) => x.id === id)
          ? 'link'
          : 'node'
      lab.select({ kind, id })
    }
    const port = v.magnify ? layout.ports.findIndex((p) => p.id === v.magnify) : -1
    if (port >= 0) magnify(port)
    const chart = stopChart(stop, chartKinds(layout))
    if (chart === null) return
    lab.setView('charts')
    const presenting = getPresentation()
    if (presenting.on) setPresentation({ charts: presentingWith(presenting.charts, chart) })
    // Once the view shows it: scrolled only as far as it takes, the stop's note stays where it is.
    const frame = requestAnimationFrame(() =>
      document.getElementById(CHART_IDS[chart])?.scrollIntoView({ block: 'nearest' }),
    )
    return () => cancelAnimationFrame(frame)
  }, [stop, layout, lab, magnify])
}
