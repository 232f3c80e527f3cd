/**
 * Beside the charts: what the open scenario reproduces, what the paper saw, things to try, and the
 * scenario's variants as buttons. A variant is applied to the scenario as it stands, like any other
 * edit: live when the run can take it, otherwise by restarting.
 */
import { memo, useState, type ReactNode } from 'react'
import { formatScenarioError, type ScenarioError } from '../engine/protocol'
import type { EditedState } from '../scenario/edited'
import type { ApplyOp } from '../lab/operation'
import { isObject, type JsonObject } from '../scenario/paths'
import { hasChange, thingsToTry, type ThingToTry } from '../scenario/things'
import { ericaTimings } from './ericaTiming'

interface ScenarioAboutProps {
  scenario: JsonObject
  warnings: readonly ScenarioError[]
  onApply: ApplyOp
  /** The document against its library file: listed when it differs. */
  edited?: EditedState | null
  /** Pins the current run and runs the one a thing to try suggests; null, or why it was refused. */
  onTry?(thing: ThingToTry): Promise<string | null>
  /** The paper-claims table of the run (ClaimsTable), shown below the explanation. */
  claims?: ReactNode
}

export const ScenarioAbout = memo(function ScenarioAbout({
  scenario,
  warnings,
  onApply,
  edited = null,
  onTry,
  claims,
}: ScenarioAboutProps) {
  const text = (key: string) => (typeof scenario[key] === 'string' ? (scenario[key] as string) : '')
  const things = thingsToTry(scenario)
  const timings = ericaTimings(scenario)
  const [tryProblem, setTryProblem] = useState<{ index: number; message: string } | null>(null)
  const variants = Array.isArray(scenario.variants) ? scenario.variants.filter(isObject) : []
  const [whole, setWhole] = useState(false)
  const explanation = text('explanation')
  /** Paragraphs are separated by a blank line; the first says the key point. */
  const paragraphs = explanation
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
  /**
   * Long explanations start folded to their first paragraph's first few lines, so the variants and
   * things to try stay in view.
   */
  const long = explanation.length > 420 || paragraphs.length > 1
  const folded = long && !whole
  const [variantProblem, setVariantProblem] = useState<string | null>(null)
  const chooseVariant = async (id: string, label: string) => {
    setVariantProblem(null)
    setVariantProblem(await onApply({ op: 'variant', id, label: `Variant “${label}”` }))
  }
  return (
    <section className="about" aria-label="About this scenario">
      {text('paper') && <p className="paper">{text('paper')}</p>}
      {timings.length > 0 && (
        <p className="erica-timing" data-testid="erica-timing">
          The switches run {timings.join('; ')}.
        </p>
      )}
      {edited && edited.changes.length > 0 && (
        <section
          className="edited-changes"
          aria-label="Changed from the library file"
          data-testid="edited-changes"
        >
          <h2>Edited: not the library file {edited.base}.json</h2>
          <p className="muted">
            The explanation below is about the library file; this run differs from it in:
          </p>
          <ul>
            {edited.changes.slice(0, 12).map((c) => (
              <li key={c.path}>
                <code>{c.path}</code>: {c.before} → {c.after}
              </li>
            ))}
            {edited.changes.length > 12 && <li>… and {edited.changes.length - 12} more</li>}
          </ul>
        </section>
      )}
      <div className={`explanation${folded ? ' folded' : ''}`} id="scenario-explanation">
        {(folded ? paragraphs.slice(0, 1) : paragraphs).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      {long && (
        <button
          type="button"
          className="link-button"
          aria-expanded={whole}
          aria-controls="scenario-explanation"
          onClick={() => setWhole(!whole)}
        >
          {whole ? 'Show less' : 'Read the whole explanation'}
        </button>
      )}
      {claims}
      {variants.length > 0 && (
        <section className="variants">
          <h2>Variants</h2>
          <div className="variant-buttons" role="group" aria-label="Variants of this scenario">
            {variants.map((v) => {
              const id = String(v.id)
              const label = typeof v.label === 'string' ? v.label : id
              return (
                <button key={id} type="button" onClick={() => void chooseVariant(id, label)}>
                  {label}
                </button>
              )
            })}
          </div>
          {variantProblem && (
            <p className="sweep-problem" role="alert" data-testid="variant-problem">
              {variantProblem}
            </p>
          )}
        </section>
      )}
      {warnings.length > 0 && (
        <section className="warnings" aria-label="Scenario warnings">
          <h2>The engine notes</h2>
          <ul>
            {warnings.map((w, i) => (
              <li key={i}>{formatScenarioError(w)}</li>
            ))}
          </ul>
        </section>
      )}
      {things.length > 0 && (
        <section className="things-to-try">
          <h2>Things to try</h2>
          <ul>
            {things.map((thing, i) => (
              <li key={i}>
                {thing.text}
                {onTry && hasChange(thing) && (
                  <>
                    {' '}
                    <button
                      type="button"
                      className="try-it"
                      title="Pin the current run and run this change, to see both on the charts"
                      onClick={async () => {
                        const refused = await onTry(thing)
                        setTryProblem(refused === null ? null : { index: i, message: refused })
                      }}
                    >
                      Try it
                    </button>
                  </>
                )}
                {tryProblem?.index === i && (
                  <span className="sweep-problem" role="alert">
                    {' '}
                    {tryProblem.message}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  )
})
