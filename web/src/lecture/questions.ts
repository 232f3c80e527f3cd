/**
 * Predict-then-play questions judged on the run that is playing. The judging is the engine's
 * (`QuestionCheck` in the wasm module: the tracker that judges the paper claims); this file loads
 * it, and says how close a student's answer came.
 */
import { ClaimJudge, type ClaimCheckCtor, loadCheck } from '../library/claims'
import type { SampleStore } from '../engine/samples'
import type { Question } from './stops'

/** How a question stands, as `QuestionCheck.evaluate` reports it. */
export interface QuestionRow {
  id: string
  status: 'pending' | 'due'
  value: number | null
  value_text: string
  /** For a choice: the index of the choice the run's value falls in. */
  run_choice: number | null
  agrees_with_paper: boolean | null
  due_ms: number
}

/** A student's answer: a number, or the index of a choice. */
export type StudentAnswer = { value: number } | { choice: number }

/** Judges a scenario's questions against a run's samples (the claims' judge, another check). */
export class QuestionJudge {
  private readonly inner: ClaimJudge

  constructor(Check: ClaimCheckCtor, scenarioJson: string, runColumns: readonly string[]) {
    this.inner = new ClaimJudge(Check, scenarioJson, runColumns)
  }

  judge(store: SampleStore, nowMs: number): QuestionRow[] {
    return this.inner.judge(store, nowMs) as unknown as QuestionRow[]
  }

  dispose(): void {
    this.inner.dispose()
  }
}

/** The wasm module's `QuestionCheck` on the page's thread. */
export function loadQuestionCheck(): Promise<ClaimCheckCtor> {
  return loadCheck('QuestionCheck')
}

/** A number for people: four significant digits, no trailing zeros. */
const fmt = (x: number) => String(Number(x.toPrecision(4)))

/** The paper's answer in words: "70 Mbit/s (65.9 to 72.1)", or the paper's choice. */
export function paperAnswer(q: Question): string {
  const a = q.answer
  if (a.correct !== null) return a.choices[a.correct]?.text ?? ''
  const unit = a.unit ? ` ${a.unit}` : ''
  return `${fmt(a.value ?? 0)}${unit} (${fmt(a.low ?? 0)} to ${fmt(a.high ?? 0)})`
}

/** How close the student came to the run: one sentence. */
export function closeness(q: Question, answer: StudentAnswer, row: QuestionRow): string {
  if (row.value === null) return 'The run has no value for this question.'
  const unit = q.answer.unit ? ` ${q.answer.unit}` : ''
  if ('choice' in answer) {
    const picked = q.answer.choices[answer.choice]?.text ?? '—'
    const ran =
      row.run_choice === null ? 'none of the choices' : q.answer.choices[row.run_choice].text
    return answer.choice === row.run_choice
      ? `Right: you chose “${picked}”, and the run gave ${row.value_text}${unit}.`
      : `You chose “${picked}”; the run gave ${row.value_text}${unit}: “${ran}”.`
  }
  const off = answer.value - row.value
  const rel = row.value !== 0 ? Math.abs(off / row.value) : Number.POSITIVE_INFINITY
  const within =
    q.answer.low !== null && q.answer.high !== null
      ? answer.value >= q.answer.low && answer.value <= q.answer.high
      : false
  const pct = Number.isFinite(rel) ? ` (${(rel * 100).toFixed(rel < 0.1 ? 1 : 0)} %)` : ''
  const verdict = rel <= 0.05 ? 'Close' : within ? 'Within the paper’s range' : 'Off'
  return `${verdict}: you said ${fmt(answer.value)}${unit}, the run gave ${row.value_text}${unit} — ${off >= 0 ? 'above' : 'below'} by ${fmt(Math.abs(off))}${unit}${pct}.`
}
