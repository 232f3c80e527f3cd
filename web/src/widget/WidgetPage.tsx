/**
 * The lab in a notebook cell: the page's embed view (title, transport, the narrated stops, the
 * network with its cell animation, the linked charts and the status line), from the page's own
 * components and store.
 * The scenario comes from Python (widget/model.ts), not from the address.
 */
import { ErrorPanel } from '../app/ErrorPanel'
import { Header } from '../app/Header'
import { LiveContext } from '../app/live'
import { LabCharts } from '../app/LabCharts'
import { useLiveState } from '../app/liveHooks'
import { StatusLine, WatchedDrawing } from '../app/SidePanel'
import { useActions } from '../app/useActions'
import { useLab, useRun } from '../lab/hooks'
import { LecturePanel } from '../lecture/LecturePanel'
import { editedTitle } from '../scenario/edited'

const nothing = () => undefined

export function WidgetPage({ keys }: { keys: EventTarget }) {
  const layout = useRun((r) => r.layout)
  const runError = useRun((r) => r.error)
  const notice = useLab((l) => l.notice)
  const edited = useLab((l) => l.edited)
  // Shortcuts (Space, S, R, −, +) only while the focus is in the lab, not in the notebook.
  const actions = useActions(true, keys)
  const error = runError ?? (notice ? { ...notice, offerDefault: false } : null)
  const title = layout
    ? editedTitle(layout.scenario.title, edited)
    : error
      ? 'No scenario running'
      : 'Loading…'
  return (
    <div className="app embed widget">
      <Header
        embed
        fullPageLink={false}
        title={title}
        actions={actions}
        onLibrary={nothing}
        onShare={nothing}
      />
      {error && <ErrorPanel error={{ ...error, offerDefault: false }} />}
      {layout && <Workspace />}
      <StatusLine />
    </div>
  )
}

function Workspace() {
  const layout = useRun((r) => r.layout)
  const live = useLiveState()
  if (!layout) return null
  return (
    <LiveContext.Provider value={live}>
      <main className="workspace">
        <aside className="side">
          {/* A narrated stop's text while the run waits there, as in the page's embed. */}
          <LecturePanel editable={false} />
          <WatchedDrawing layout={layout} embed />
        </aside>
        <div className="charts">
          <div className="view-panel">
            <LabCharts layout={layout} />
          </div>
        </div>
      </main>
    </LiveContext.Provider>
  )
}
