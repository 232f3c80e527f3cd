/**
 * The page's top bar: the scenario's title, the scenario tools (undo, redo, library, save, share,
 * presentation), the transport and the timeline.
 */
import { useState } from 'react'
import { fullPageUrl } from '../embed/embed'
import type { Action } from './actions'
import { saveScenario } from '../library/files'
import { useLab, useLabStore, useRun, useRunFrame } from '../lab/hooks'
import { StopMarks } from '../lecture/LecturePanel'
import { setPresentation, usePresentation } from './presentation'
import { Timeline } from './Timeline'
import { Transport } from './Transport'

interface HeaderProps {
  embed: boolean
  title: string
  actions: readonly Action[]
  onLibrary(): void
  onShare(): void
  /** The embed's logo opens the scenario on the full page; false where there is none (a notebook). */
  fullPageLink?: boolean
}

export function Header({
  embed,
  title,
  actions,
  onLibrary,
  onShare,
  fullPageLink = true,
}: HeaderProps) {
  const lab = useLabStore()
  const { run, cursor } = lab
  const present = usePresentation()
  const status = useRun((r) => r.status)
  const nowMs = useRunFrame((r) => r.nowMs)
  const events = useRunFrame((r) => r.events)
  const speed = useRun((r) => r.speed)
  const layout = useRun((r) => r.layout)
  const history = useLab((l) => l.history)
  const liveMarks = useLab((l) => l.liveMarks)
  const hasInfo = useLab((l) => l.info !== null)
  const scenario = useLab((l) => l.scenario)
  /** On a phone the scenario tools fold behind a menu button (styles.css). */
  const [toolsOpen, setToolsOpen] = useState(false)
  const undoLabel = history.past.at(-1)?.label ?? null
  const redoLabel = history.future.at(-1)?.label ?? null
  return (
    <header className="topbar">
      <div className="brand">
        {embed && fullPageLink ? (
          <a
            className="logo"
            href={fullPageUrl(window.location.href, window.location.hash)}
            target="_blank"
            rel="noreferrer"
            title="Open this scenario in ABR Lab"
          >
            ABR Lab ↗
          </a>
        ) : (
          <span className="logo">ABR Lab</span>
        )}
        <h1>{title}</h1>
      </div>
      {!embed && (
        <div
          className={`bench-tools${toolsOpen ? ' open' : ''}`}
          id="bench-tools"
          role="toolbar"
          aria-label="Scenario"
        >
          <button
            type="button"
            onClick={lab.undo}
            disabled={undoLabel === null}
            title={undoLabel ? `Undo: ${undoLabel} (Ctrl+Z)` : 'Nothing to undo'}
            aria-keyshortcuts="Control+Z"
          >
            Undo
          </button>
          <button
            type="button"
            onClick={lab.redo}
            disabled={redoLabel === null}
            title={redoLabel ? `Redo: ${redoLabel} (Ctrl+Shift+Z)` : 'Nothing to redo'}
            aria-keyshortcuts="Control+Shift+Z"
          >
            Redo
          </button>
          <button type="button" onClick={onLibrary} disabled={!hasInfo}>
            Library
          </button>
          <button
            type="button"
            onClick={() => scenario && saveScenario(scenario)}
            disabled={!scenario}
            title="Save the scenario as edited to a file"
          >
            Save
          </button>
          <button type="button" onClick={onShare} disabled={!scenario}>
            Share
          </button>
          <button
            type="button"
            aria-pressed={present.on}
            onClick={() => setPresentation({ on: !present.on })}
            title="Presentation mode: large text, the drawing and two charts (P)"
            aria-keyshortcuts="P"
            data-testid="present"
          >
            Present
          </button>
        </div>
      )}
      <Transport
        actions={actions}
        status={status}
        nowMs={nowMs}
        untilMs={layout?.until_ms ?? 0}
        events={events}
        speed={speed}
        onSpeed={(next) => run.setSpeed(next)}
        compact={embed}
        extra={
          !embed && (
            <button
              type="button"
              className="tools-toggle"
              aria-expanded={toolsOpen}
              aria-controls="bench-tools"
              onClick={() => setToolsOpen((o) => !o)}
            >
              Menu
            </button>
          )
        }
      />
      {layout && !embed && (
        <Timeline
          cursor={cursor}
          nowMs={nowMs}
          stepMs={layout.sample_interval_ms}
          marks={liveMarks.filter((m) => m.run === layout)}
        />
      )}
      <StopMarks />
    </header>
  )
}
