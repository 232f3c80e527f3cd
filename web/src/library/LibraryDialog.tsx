/**
 * The scenario library: every file of scenarios/ by paper or by topic, each with its explanation,
 * things to try and variants; one click opens a scenario (or one of its variants). Also loads a
 * scenario file from disk (validated, every problem shown with its path) and saves the current one.
 */
import './library.css'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { ScenarioError } from '../engine/protocol'
import type { EngineInfo } from '../scenario/engineInfo'
import { applyVariant, type JsonObject } from '../scenario/paths'
import type { Origin } from '../scenario/restore'
import { buildCatalogue, byPaper, byTopic, filterEntries, type CatalogueEntry } from './catalogue'
import { readInWorker } from '../scenario/check'
import { readScenarioFile } from './files'

interface LibraryDialogProps {
  open: boolean
  info: EngineInfo
  currentId: string | null
  onClose(): void
  /** Opens a scenario; returns null, or why the engine refused it (the dialog stays open). */
  /** Opens the scenario; resolves with null once the engine accepted it, else why not. */
  onOpen(scenario: JsonObject, origin: Origin): Promise<string | null>
}

function Entry({
  entry,
  current,
  onOpen,
}: {
  entry: CatalogueEntry
  current: boolean
  onOpen(scenario: JsonObject, origin: Origin): void
}) {
  const open = (scenario: JsonObject, variant?: string) =>
    onOpen(scenario, { kind: 'library', id: entry.id, variant })
  return (
    <li className={`library-entry${current ? ' current' : ''}`} data-scenario={entry.id}>
      <h4>
        <button type="button" className="library-open" onClick={() => open(entry.scenario)}>
          {entry.title}
        </button>
        {current && <span className="muted"> (open now)</span>}
      </h4>
      <p className="muted library-where">
        {entry.section || entry.paper} · <code>{entry.id}</code>
        {entry.topics.length > 0 && <> · {entry.topics.join(', ')}</>}
      </p>
      <details>
        <summary>Explanation and things to try</summary>
        <p>{entry.explanation}</p>
        {entry.thingsToTry.length > 0 && (
          <>
            <h5>Things to try</h5>
            <ul>
              {entry.thingsToTry.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          </>
        )}
      </details>
      {entry.variants.length > 0 && (
        <div className="variant-buttons" role="group" aria-label={`Variants of ${entry.title}`}>
          <span className="muted">Open with:</span>
          {entry.variants.map((v) => (
            <button
              key={v.id}
              type="button"
              onClick={() => open(applyVariant(entry.scenario, v.id), v.id)}
            >
              {v.label}
            </button>
          ))}
        </div>
      )}
    </li>
  )
}

export function LibraryDialog({ open, info, currentId, onClose, onOpen }: LibraryDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const [grouping, setGrouping] = useState<'paper' | 'topic'>('paper')
  const [query, setQuery] = useState('')
  const [loadErrors, setLoadErrors] = useState<{ name: string; errors: ScenarioError[] } | null>(
    null,
  )
  const catalogue = useMemo(() => buildCatalogue(info), [info])
  const groups = useMemo(() => {
    const shown = filterEntries(catalogue, query)
    return grouping === 'paper' ? byPaper(shown) : byTopic(shown)
  }, [catalogue, query, grouping])

  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])

  const choose = async (scenario: JsonObject, origin: Origin) => {
    setLoadErrors(null)
    const refused = await onOpen(scenario, origin)
    if (refused !== null) {
      const name =
        origin.kind === 'file'
          ? origin.name
          : origin.kind === 'library'
            ? `${origin.id}.json`
            : 'The scenario'
      setLoadErrors({ name, errors: [{ path: '', message: refused }] })
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className="library-dialog"
      aria-labelledby="library-title"
      onClose={onClose}
    >
      <header className="dialog-header">
        <h2 id="library-title">Scenario library</h2>
        <button type="button" className="plain" onClick={onClose} aria-label="Close the library">
          Close
        </button>
      </header>
      <div className="library-controls">
        <label>
          Find
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="RIF, satellite, VBR…"
          />
        </label>
        <fieldset className="grouping">
          <legend>Group by</legend>
          <label>
            <input
              type="radio"
              name="grouping"
              checked={grouping === 'paper'}
              onChange={() => setGrouping('paper')}
            />{' '}
            paper
          </label>
          <label>
            <input
              type="radio"
              name="grouping"
              checked={grouping === 'topic'}
              onChange={() => setGrouping('topic')}
            />{' '}
            topic
          </label>
        </fieldset>
        <label className="file-load">
          Load a scenario file…
          <input
            type="file"
            accept=".json,application/json"
            onChange={async (e) => {
              const file = e.target.files?.[0]
              e.target.value = ''
              if (!file) return
              const verdict = await readScenarioFile(file, readInWorker, info.maxInputBytes)
              if (verdict.ok) choose(verdict.scenario, { kind: 'file', name: verdict.name })
              else setLoadErrors({ name: verdict.name, errors: verdict.errors })
            }}
          />
        </label>
      </div>
      {loadErrors && (
        <section className="error-panel" role="alert" aria-label="The file was not loaded">
          <h3>{loadErrors.name} was not loaded</h3>
          <p>
            The engine found{' '}
            {loadErrors.errors.length === 1
              ? 'one problem'
              : `${loadErrors.errors.length} problems`}
            , each named by its path in the file:
          </p>
          <ul className="error-list">
            {loadErrors.errors.map((e, i) => (
              <li key={i}>
                {e.path && <code>{e.path}</code>}
                {e.path ? ': ' : ''}
                {e.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="library-groups">
        {groups.length === 0 && <p className="muted">No scenario matches “{query}”.</p>}
        {groups.map((group) => (
          <section key={group.title} className="library-group" aria-label={group.title}>
            <h3>{group.title}</h3>
            <ul>
              {group.entries.map((entry) => (
                <Entry
                  key={entry.id}
                  entry={entry}
                  current={entry.id === currentId}
                  onOpen={choose}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </dialog>
  )
}
