/**
 * ABR Lab's page: the panels laid out. The state is the Lab's (lab/lab.ts); each panel reads what
 * it shows from it (lab/hooks.ts) and acts through it.
 */
import { useEffect, useMemo, useState } from 'react'
import './bench.css'
import { readEmbedOptions } from '../embed/embed'
import { ShareDialog } from '../embed/ShareDialog'
import { labHash } from '../lab/address'
import { LabContext, useLab, useNewLab, useRun, useRunFrame } from '../lab/hooks'
import type { Lab } from '../lab/lab'
import { LecturePanel } from '../lecture/LecturePanel'
import { LibraryDialog } from '../library/LibraryDialog'
import { ProgressIndicator, useTask } from '../progress/ProgressIndicator'
import { editedTitle } from '../scenario/edited'
import { ErrorPanel } from './ErrorPanel'
import { Header } from './Header'
import { LiveContext } from './live'
import { useLiveState } from './liveHooks'
import { PRESENTATION_PACE, usePresentation } from './presentation'
import { EditingSide, WatchedDrawing } from './SidePanel'
import { installTestApi } from './testApi'
import { useActions } from './useActions'
import { Views } from './Views'

export function App() {
  const { embed, autoplay } = useMemo(() => readEmbedOptions(window.location.search), [])
  const lab = useNewLab({ autoplay, trackUrl: !embed })
  useEffect(() => installTestApi(lab), [lab])
  return (
    <LabContext.Provider value={lab}>
      <Page lab={lab} embed={embed} />
    </LabContext.Provider>
  )
}

function Page({ lab, embed }: { lab: Lab; embed: boolean }) {
  const layout = useRun((r) => r.layout)
  const running = useRun((r) => r.status === 'running' && r.speed === null)
  const progress = useRunFrame((r) => (r.layout ? r.nowMs / r.layout.until_ms : null))
  const runError = useRun((r) => r.error)
  const notice = useLab((l) => l.notice)
  const edited = useLab((l) => l.edited)
  const info = useLab((l) => l.info)
  const currentId = useLab((l) => (l.origin?.kind === 'library' ? l.origin.id : null))
  const present = usePresentation()
  const actions = useActions(embed)
  const [libraryOpen, setLibraryOpen] = useState(false)
  const [shareOpen, setShareOpen] = useState(false)
  // A slower pace for a lecture hall: entering presentation mode caps it (only then, not on every change of pace).
  useEffect(() => {
    const speed = lab.run.get().speed
    if (present.on && (speed === null || speed > PRESENTATION_PACE))
      lab.run.setSpeed(PRESENTATION_PACE)
  }, [present.on, lab])

  const pageError = runError ?? (notice ? { ...notice, offerDefault: false } : null)
  useTask(!layout && !pageError, 'Building the scenario…')
  useTask(running, 'Running as fast as the engine goes…', progress)
  const title = layout
    ? editedTitle(layout.scenario.title, edited)
    : pageError
      ? 'No scenario running'
      : 'Loading…'

  return (
    <div className={`app${embed ? ' embed' : ''}${present.on && !embed ? ' present' : ''}`}>
      <Header
        embed={embed}
        title={title}
        actions={actions}
        onLibrary={() => setLibraryOpen(true)}
        onShare={() => setShareOpen(true)}
      />
      {pageError && (
        <ErrorPanel error={pageError} onDismiss={runError ? undefined : lab.dismissNotice} />
      )}
      <ProgressIndicator />
      {layout && <Workspace embed={embed} title={title} />}
      {!embed && info && (
        <LibraryDialog
          open={libraryOpen}
          info={info}
          currentId={currentId}
          onClose={() => setLibraryOpen(false)}
          onOpen={async (next, origin) => {
            const label =
              origin.kind === 'file'
                ? `Load ${origin.name}`
                : `Open “${typeof next.title === 'string' ? next.title : 'a scenario'}”`
            const refused = await lab.replace(next, label, {
              origin,
              differs: origin.kind !== 'library' || origin.variant !== undefined,
            })
            if (refused !== null) return refused
            setLibraryOpen(false)
            const hash = origin.kind === 'library' ? `#scenario=${origin.id}` : ''
            // A history entry per scenario opened, so Back returns to the previous one.
            window.history.pushState(
              null,
              '',
              hash || window.location.pathname + window.location.search,
            )
            lab.dismissNotice()
            return null
          }}
        />
      )}
      {!embed && (
        <ShareDialog
          open={shareOpen}
          title={title}
          makeHash={() => labHash(lab)}
          onClose={() => setShareOpen(false)}
        />
      )}
    </div>
  )
}

/** The drawing and its panels beside the views; on a phone, one pane at a time. */
function Workspace({ embed, title }: { embed: boolean; title: string }) {
  const layout = useRun((r) => r.layout)
  const editing = useLab((l) => l.scenario !== null && l.info !== null)
  const live = useLiveState()
  /** On a phone the drawing and the charts are two panes, one at a time (styles.css). */
  const [pane, setPane] = useState<'network' | 'charts'>('network')
  if (!layout) return null
  return (
    <LiveContext.Provider value={live}>
      <main className="workspace" data-pane={pane}>
        {!embed && (
          <div className="phone-panes" role="group" aria-label="Show">
            {(
              [
                ['network', 'Network'],
                ['charts', 'Charts'],
              ] as const
            ).map(([id, label]) => (
              <button key={id} type="button" aria-pressed={pane === id} onClick={() => setPane(id)}>
                {label}
              </button>
            ))}
          </div>
        )}
        <aside className="side">
          <LecturePanel editable={!embed && editing} />
          {embed || !editing ? (
            <WatchedDrawing layout={layout} embed={embed} />
          ) : (
            <EditingSide layout={layout} />
          )}
        </aside>
        <Views layout={layout} embed={embed} title={title} />
      </main>
    </LiveContext.Provider>
  )
}
