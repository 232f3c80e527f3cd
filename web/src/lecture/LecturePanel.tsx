/**
 * The lecture beside the run: at a stop, its note in large type (readable on a projector) and
 * Next; in student mode, the question the run stopped for, and once its window has passed, how
 * close the answer came and why. Stops are edited here (add at the current time, edit, delete),
 * each change one undo step of the document, so they travel in share links, embeds and files.
 */
import { useState } from 'react'
import { useLab, useLabStore, useRun, useRunFrame } from '../lab/hooks'
import type { Operation } from '../lab/operation'
import { closeness, paperAnswer, type StudentAnswer } from './questions'
import { nextPause, type Question } from './stops'
import { useLecture, useStops } from './useLecture'
import './lecture.css'

interface LecturePanelProps {
  /** Stops may be added, edited and deleted (each one undo step of the Lab's document). */
  editable: boolean
}

const ms = (t: number) => `${Number(t.toFixed(3))} ms`
const nowOf = (r: { nowMs: number }) => r.nowMs

export function LecturePanel({ editable }: LecturePanelProps) {
  const lab = useLabStore()
  const model = useLecture()
  const { stops, current, asking, nextPauseMs, view, lecture } = model
  const scenario = useLab((l) => l.scenario)
  const status = useRun((r) => r.status)
  const nowMs = useRunFrame(nowOf)
  const [form, setForm] = useState<{ index: number | null; title: string; text: string } | null>(
    null,
  )
  const [problem, setProblem] = useState<string | null>(null)
  /** Dispatches a stop edit; resolves true once the engine accepted it (else shows why). */
  const apply = async (op: Operation) => {
    const refused = await lab.apply(op)
    setProblem(refused)
    return refused === null
  }
  const next = stops.find((s) => s.t_ms === nextPauseMs)
  // With pausing off (and no questions to stop for) the run plays through every stop: the panel
  // names the one ahead without offering to play to it.
  const following = view.pauseAtStops || view.student
  const ahead = following ? undefined : stops.find((s) => s.t_ms === nextPause(stops, nowMs))
  const answered = model.questions.filter(
    (q) => view.answers.has(q.id) && model.rows.get(q.id)?.status === 'due',
  )
  if (!scenario) return null
  // Without editing (the embed) the panel takes room only while there is something to read.
  if (!editable && !current && !asking && answered.length === 0) return null
  return (
    <section className="lecture" aria-label="Lecture" data-testid="lecture">
      {current && (
        <div className="stop-note" role="status" data-testid="stop-note">
          <p className="stop-when">
            Stop {stops.indexOf(current) + 1} of {stops.length} · t = {ms(current.t_ms)}
          </p>
          <h2>{current.title}</h2>
          <p className="stop-text">{current.text}</p>
        </div>
      )}
      {asking && (
        <QuestionCard
          key={asking.id}
          question={asking}
          onAnswer={(a) => {
            lecture.answer(asking.id, a)
            lecture.playOn()
          }}
        />
      )}
      {answered.map((q) => {
        const row = model.rows.get(q.id)
        const a = view.answers.get(q.id)
        if (!row || !a) return null
        return (
          <div key={q.id} className="question-result" role="status" data-testid="question-result">
            <p className="question-prompt">{q.prompt}</p>
            <p>
              <strong>{closeness(q, a, row)}</strong>
            </p>
            <p>The paper: {paperAnswer(q)}.</p>
            <p>Why: {q.explanation}</p>
          </div>
        )
      })}
      <div className="lecture-bar">
        {following &&
          (status === 'paused' || status === 'running') &&
          (current || asking === null) && (
            <button
              type="button"
              className="primary"
              onClick={lecture.playOn}
              disabled={status === 'running' || asking !== null}
              data-testid="stop-next"
            >
              {current ? 'Next' : 'Play to next stop'}
            </button>
          )}
        <span className="lecture-next" data-testid="lecture-next">
          {next
            ? `Next stop: ${next.title} at ${ms(next.t_ms)}`
            : ahead
              ? `Next stop: ${ahead.title} at ${ms(ahead.t_ms)} (playing through it: pausing is off)`
              : stops.length > 0
                ? 'No more stops'
                : ''}
        </span>
        {stops.length > 0 && (
          <Toggle
            on={view.pauseAtStops}
            set={lecture.setPauseAtStops}
            testId="pause-at-stops"
            label="Pause at stops"
          />
        )}
        {model.questions.length > 0 && (
          <Toggle
            on={view.student}
            set={lecture.setStudent}
            testId="student-mode"
            label="Student mode: stop for questions"
          />
        )}
      </div>
      {editable && (
        <div className="stop-tools">
          <button
            type="button"
            onClick={() => setForm({ index: null, title: '', text: '' })}
            data-testid="stop-add"
          >
            Add stop at {ms(nowMs)}
          </button>
          {current && (
            <>
              <button
                type="button"
                onClick={() =>
                  setForm({ index: current.index, title: current.title, text: current.text })
                }
              >
                Edit this stop
              </button>
              <button
                type="button"
                onClick={() => void apply({ op: 'removeStop', index: current.index })}
                data-testid="stop-delete"
              >
                Delete this stop
              </button>
            </>
          )}
          {form && (
            <form
              className="stop-form"
              onSubmit={(e) => {
                e.preventDefault()
                const { title, text } = form
                void apply(
                  form.index === null
                    ? { op: 'addStop', tMs: nowMs, title, text }
                    : { op: 'editStop', index: form.index, title, text },
                ).then((applied) => applied && setForm(null))
              }}
            >
              <label>
                Title
                <input
                  value={form.title}
                  maxLength={120}
                  onChange={(e) => setForm({ ...form, title: e.target.value })}
                  data-testid="stop-title"
                />
              </label>
              <label>
                Note
                <textarea
                  value={form.text}
                  maxLength={2000}
                  rows={3}
                  onChange={(e) => setForm({ ...form, text: e.target.value })}
                  data-testid="stop-text"
                />
              </label>
              <button type="submit" data-testid="stop-save">
                Save stop
              </button>
              <button type="button" onClick={() => setForm(null)}>
                Cancel
              </button>
            </form>
          )}
          {problem && (
            <p className="stop-problem" role="alert">
              {problem}
            </p>
          )}
        </div>
      )}
    </section>
  )
}

function Toggle(props: { on: boolean; set(on: boolean): void; testId: string; label: string }) {
  return (
    <label className="student-toggle">
      <input
        type="checkbox"
        checked={props.on}
        onChange={(e) => props.set(e.target.checked)}
        data-testid={props.testId}
      />{' '}
      {props.label}
    </label>
  )
}

function QuestionCard({
  question,
  onAnswer,
}: {
  question: Question
  onAnswer(answer: StudentAnswer): void
}) {
  const [raw, setRaw] = useState('')
  const [choice, setChoice] = useState<number | null>(null)
  const a = question.answer
  const isChoice = a.correct !== null
  const value = Number(raw)
  const ready = isChoice ? choice !== null : raw.trim() !== '' && Number.isFinite(value)
  return (
    <form
      className="question-card"
      data-testid="question-card"
      onSubmit={(e) => {
        e.preventDefault()
        if (!ready) return
        onAnswer(isChoice ? { choice: choice ?? 0 } : { value })
      }}
    >
      <p className="stop-when">Predict, then play</p>
      <h2 id={`q-${question.id}`}>{question.prompt}</h2>
      {isChoice ? (
        <fieldset aria-labelledby={`q-${question.id}`}>
          {a.choices.map((c, i) => (
            <label key={c.text} className="question-choice">
              <input
                type="radio"
                name={`q-${question.id}`}
                checked={choice === i}
                onChange={() => setChoice(i)}
              />{' '}
              {c.text}
            </label>
          ))}
        </fieldset>
      ) : (
        <label className="question-number">
          Your answer{a.unit ? ` (${a.unit})` : ''}
          <input
            inputMode="decimal"
            value={raw}
            onChange={(e) => setRaw(e.target.value)}
            data-testid="question-answer"
          />
        </label>
      )}
      <button type="submit" className="primary" disabled={!ready} data-testid="question-submit">
        Answer and play
      </button>
    </form>
  )
}

/** The document's stops as marks under the timeline, placed over the whole run. */
export function StopMarks() {
  const stops = useStops()
  const untilMs = useRun((r) => r.layout?.until_ms ?? 0)
  if (stops.length === 0 || untilMs <= 0) return null
  return (
    <div className="stop-marks" data-testid="stop-marks">
      {stops.map((s) => (
        <span
          key={`${s.t_ms}-${s.title}`}
          className="stop-mark"
          data-testid="stop-mark"
          style={{ left: `${Math.min(100, (s.t_ms / untilMs) * 100)}%` }}
          title={`Stop at ${ms(s.t_ms)}: ${s.title}`}
          role="img"
          aria-label={`Stop at ${ms(s.t_ms)}: ${s.title}`}
        />
      ))}
    </div>
  )
}
