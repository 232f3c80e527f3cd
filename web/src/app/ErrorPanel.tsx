/** A readable account of what went wrong: never a blank page. */
import { formatScenarioError } from '../engine/protocol'
import { DEFAULT_SCENARIO_ID } from '../scenario/library'
import type { PageError } from '../lab/run'

export function ErrorPanel({ error, onDismiss }: { error: PageError; onDismiss?: () => void }) {
  return (
    <section className="error-panel" role="alert" aria-labelledby="error-title">
      {onDismiss && (
        <button type="button" className="error-dismiss" onClick={onDismiss}>
          Dismiss
        </button>
      )}
      <h2 id="error-title">{error.title}</h2>
      <p>{error.message}</p>
      {error.errors.length > 0 && (
        <ul className="error-list">
          {error.errors.map((e, i) => (
            <li key={i}>
              {e.path && <code>{e.path}</code>}
              {e.path ? ': ' : ''}
              {e.message}
            </li>
          ))}
        </ul>
      )}
      {error.offerDefault && (
        <p className="error-way-out">
          <a href={`#scenario=${DEFAULT_SCENARIO_ID}`}>Open the default scenario instead</a>
        </p>
      )}
    </section>
  )
}

/** The error as one line of text, for the test API. */
export function errorText(error: PageError | null): string | null {
  if (!error) return null
  return [error.title, error.message, ...error.errors.map(formatScenarioError)].join('\n')
}
