/**
 * One parameter: a slider and a number field with its unit (or a toggle, or a menu), where the
 * value in force comes from, whether a change applies live, and — at the spot — why a value was
 * refused or how it was snapped.
 */
import { startTransition, useEffect, useId, useMemo, useRef, useState } from 'react'
import { type ApplyOp, assigning } from '../lab/operation'
import type { Assignment } from '../scenario/assign'
import type { ChoiceField, NumberField } from './field'
import { formatValue, scaleFor, valueFromText } from './scale'

/** About one display frame, in ms. */
const FRAME_MS = 16

/** Chromium's task scheduler (`scheduler.postTask`), where there is one. */
interface TaskScheduler {
  postTask(task: () => void, options: { priority: 'user-blocking' }): Promise<void>
}

/**
 * Runs `fn` in a task of its own, soon: ahead of the tasks already queued where the browser lets
 * a task say it answers the user (`scheduler.postTask`, priority user-blocking). Playing 500 VCs
 * flat out, the page's thread has a queue of sample messages, chart drawing and renders; behind
 * them, a slider's edit waited 15–70 ms for its turn before it even reached the engine.
 */
function soon(fn: () => void): void {
  const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler
  if (typeof scheduler?.postTask === 'function') {
    void scheduler.postTask(fn, { priority: 'user-blocking' })
    return
  }
  setTimeout(fn, 0)
}

interface Message {
  text: string
  tone: 'error' | 'note'
}

function LiveTag({ live }: { live: boolean }) {
  return (
    <span
      className={`live-tag ${live ? 'is-live' : 'is-restart'}`}
      title={live ? 'Changes apply to the running simulation' : 'A change restarts the run'}
    >
      {live ? 'live' : 'restarts'}
    </span>
  )
}

function FieldMessage({ id, message }: { id: string; message: Message | null }) {
  return (
    <p
      id={id}
      className={`param-message ${message?.tone ?? ''}`}
      role={message?.tone === 'error' ? 'alert' : undefined}
      hidden={!message}
    >
      {message?.text}
    </p>
  )
}

function withUnit(text: string, unit: string): string {
  return unit ? `${text} ${unit}` : text
}

export function NumberControl({
  field,
  subject,
  onApply,
}: {
  field: NumberField
  /** What the field belongs to, for the undo label: "vc1", "port SW1→SW2". */
  subject: string
  onApply: ApplyOp
}) {
  const { spec } = field
  const scale = useMemo(() => scaleFor(spec, field.softMax), [spec, field.softMax])
  const shown = field.value === null ? '' : formatValue(field.value, spec.kind)
  const [text, setText] = useState(shown)
  const [editing, setEditing] = useState(false)
  const [message, setMessage] = useState<Message | null>(null)
  /**
   * The slider's value while its edit waits to be applied. The edit re-renders the whole page (the
   * scenario changed), which with hundreds of VCs takes long enough to be felt: the slider shows
   * where it was moved at once, the edit goes to the engine from the same task, and the page's
   * re-render for it follows as a transition (a slider moved while 500 VCs run; a
   * render in the same task held back the engine's request, a task of its own waited in line).
   */
  const [draft, setDraft] = useState<number | null>(null)
  const movedTo = useRef<number | null>(null)
  /** When the last edit of this control went out (for gathering fast steps). */
  const lastEdit = useRef(Number.NEGATIVE_INFINITY)
  const base = useId()
  const numberId = `${base}-number`
  const messageId = `${base}-message`
  const docId = `${base}-doc`

  useEffect(() => {
    if (!editing) setText(shown)
  }, [shown, editing])

  /** Dispatches the change; resolves true once the engine accepted it (else says why, here). */
  const apply = async (sets: readonly Assignment[], label: string, note?: string, all = false) => {
    const refusal = await onApply(assigning(sets, label), all ? undefined : field.id)
    if (refusal) {
      setMessage({ text: withoutPaths(refusal), tone: 'error' })
      return false
    }
    setMessage(note ? { text: note, tone: 'note' } : null)
    return true
  }

  const label = (value: number, all = false) =>
    `${spec.label} ${all ? 'of every VC' : `of ${subject}`} = ${withUnit(formatValue(value, spec.kind), spec.unit)}`

  const set = (value: number, note?: string) => apply(field.assign(value), label(value), note)
  // The latest render's `set` (its field), for an edit applied in a later task.
  const setLatest = useRef(set)
  setLatest.current = set
  const clear = () =>
    field.clear && apply(field.clear, `${spec.label} of ${subject}: back to the default`)

  const move = (value: number) => {
    setDraft(value)
    const scheduled = movedTo.current !== null
    movedTo.current = value
    if (scheduled) return
    const run = () => {
      const to = movedTo.current
      movedTo.current = null
      lastEdit.current = performance.now()
      if (to === null) return
      // The edit reaches the engine from this task; the slider shows its draft until the engine
      // has answered (and the document holds the value, or the refusal is shown beside it).
      void setLatest.current(to).then(() => {
        if (movedTo.current === null) startTransition(() => setDraft(null))
      })
    }
    // A step on its own goes out from the input's own task: a task of its own still waited
    // 20-45 ms behind the frames and messages of a run playing 500 VCs. Steps that
    // come faster than frames (a drag) are gathered into the latest of them.
    if (performance.now() - lastEdit.current > FRAME_MS) run()
    else soon(run)
  }

  const commitText = () => {
    setEditing(false)
    if (text.trim() === shown) return
    if (text.trim() === '' && field.clear) {
      void clear()
      return
    }
    const parsed = valueFromText(text, spec)
    if ('error' in parsed) {
      // What was typed stays in the field beside the message saying what is wrong with it.
      setEditing(true)
      setMessage({ text: parsed.error, tone: 'error' })
      return
    }
    void set(parsed.value, parsed.note).then((applied) => {
      // A refused value stays in the field beside the engine's reason.
      if (!applied) setText(text)
    })
  }

  if (spec.kind === 'bool') {
    // Shown as switched at once; back where it was if the engine refuses.
    const on = (draft ?? field.value ?? 0) !== 0
    return (
      <div className="param param-bool" data-param={spec.key}>
        <label className="param-toggle">
          <input
            type="checkbox"
            role="switch"
            checked={on}
            aria-checked={on}
            aria-describedby={`${docId} ${messageId}`}
            onChange={(e) => {
              const value = e.target.checked ? 1 : 0
              setDraft(value)
              void set(value).then(() => setDraft(null))
            }}
          />
          <span className="param-label">{spec.label}</span>
          <LiveTag live={spec.live} />
        </label>
        <p id={docId} className="param-doc">
          {spec.doc} <span className="param-origin">({field.originText})</span>
        </p>
        <FieldMessage id={messageId} message={message} />
      </div>
    )
  }

  const value = draft ?? field.value
  const position = value === null ? 0 : scale.toPosition(value)
  return (
    <div className="param param-number" data-param={spec.key}>
      <div className="param-head">
        <label htmlFor={numberId} className="param-label">
          {spec.label}
        </label>
        {spec.unit && <span className="param-unit">{spec.unit}</span>}
        <LiveTag live={spec.live} />
        <span className="param-origin">{field.originText}</span>
        {field.noEffect && <strong className="param-no-effect">{field.noEffect}</strong>}
      </div>
      <div className="param-inputs">
        <input
          type="range"
          min={0}
          max={scale.max}
          step={1}
          value={position}
          aria-label={`${spec.label} slider`}
          aria-valuetext={
            value === null
              ? (field.unsetText ?? 'unset')
              : withUnit(formatValue(value, spec.kind), spec.unit)
          }
          aria-describedby={`${docId} ${messageId}`}
          onChange={(e) => {
            setEditing(false)
            move(scale.toValue(Number(e.target.value)))
          }}
        />
        <input
          id={numberId}
          className="param-value"
          type="text"
          inputMode="decimal"
          value={text}
          placeholder={field.unsetText}
          aria-describedby={`${docId} ${messageId}`}
          aria-invalid={message?.tone === 'error'}
          onFocus={() => setEditing(true)}
          onChange={(e) => {
            setEditing(true)
            setText(e.target.value)
          }}
          onBlur={commitText}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              commitText()
            } else if (e.key === 'Escape') {
              setText(shown)
              setEditing(false)
              setMessage(null)
            }
          }}
        />
        {field.clear && (
          <button
            type="button"
            className="param-clear"
            onClick={() => void clear()}
            title="Remove this setting and use the inherited or default value"
          >
            {field.unsetText ? `Reset to ${field.unsetText}` : 'Use default'}
          </button>
        )}
        {field.applyAll && field.value !== null && (
          <button
            type="button"
            className="param-all"
            onClick={() => {
              const value = field.value ?? 0
              if (field.applyAll)
                void apply(field.applyAll(value), label(value, true), undefined, true)
            }}
            title={`Give every VC this ${spec.label}`}
          >
            Apply to all VCs
          </button>
        )}
      </div>
      <p id={docId} className="param-doc">
        {spec.doc}
      </p>
      <FieldMessage id={messageId} message={message} />
    </div>
  )
}

export function ChoiceControl({
  field,
  subject,
  onApply,
}: {
  field: ChoiceField
  subject: string
  onApply: ApplyOp
}) {
  const id = useId()
  const [message, setMessage] = useState<Message | null>(null)
  /** The choice made, shown until the engine has answered. */
  const [draft, setDraft] = useState<string | null>(null)
  const options = field.options.includes(field.value)
    ? field.options
    : [field.value, ...field.options]
  if (options.length === 1) {
    // Nothing to choose between: say what is in force rather than offer a menu of one.
    return (
      <div className="param param-choice">
        <div className="param-head">
          <span className="param-label">{field.label}</span>
          <span className="param-fixed">{field.value}</span>
          <span className="param-origin">the only one the engine has</span>
        </div>
        <p className="param-doc">{field.doc}</p>
      </div>
    )
  }
  return (
    <div className="param param-choice">
      <div className="param-head">
        <label htmlFor={`${id}-select`} className="param-label">
          {field.label}
        </label>
        <LiveTag live={field.live} />
      </div>
      <select
        id={`${id}-select`}
        value={draft ?? field.value}
        aria-describedby={`${id}-doc ${id}-message`}
        onChange={(e) => {
          const value = e.target.value
          setDraft(value)
          void onApply(
            assigning(field.assign(value), `${field.label} of ${subject} = ${value}`),
          ).then((refusal) => {
            setDraft(null)
            setMessage(refusal ? { text: withoutPaths(refusal), tone: 'error' } : null)
          })
        }}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <p id={`${id}-doc`} className="param-doc">
        {field.doc}
      </p>
      <FieldMessage id={`${id}-message`} message={message} />
    </div>
  )
}

/**
 * The engine's refusal without the scenario paths it starts each problem with ("vcs.vc1.rif: …"):
 * beside the field, the path is the field itself.
 */
export function withoutPaths(text: string): string {
  const parts = text.split('; ').map((part) => part.replace(/^[A-Za-z0-9_.\-[\]]+: (?=\S)/, ''))
  const joined = parts.join('; ')
  return joined.charAt(0).toUpperCase() + joined.slice(1)
}
