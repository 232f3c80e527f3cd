/**
 * ABR Lab's page: the lab bench (editor with the cell animation over it, parameters, library,
 * sharing) beside the linked charts, the sweep and the parameter guide.
 */
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import './bench.css'
import {
  AnimatedTopology,
  AnimationLayer,
  AnimationLegend,
  type AnimationMode,
} from '../animation/AnimatedTopology'
import { Magnifier, stopAtOrBelow, useMagnifier } from '../animation/Magnifier'
import { ChartsWorkspace } from '../charts/ChartsWorkspace'
import { TimeCursor } from '../charts/cursor'
import type { PinnedRun } from '../charts/models'
import { colorMap } from '../charts/palette'
import { ComparePanel } from '../compare/ComparePanel'
import { snapshotStore } from '../compare/snapshot'
import { EditorCanvas } from '../editor/EditorCanvas'
import { removeSelected } from '../editor/ops'
import { fullPageUrl, readEmbedOptions } from '../embed/embed'
import { ShareDialog } from '../embed/ShareDialog'
import { column, type Layout } from '../engine/layout'
import { RunExports } from '../export/RunExports'
import { ParameterGuide } from '../guide/ParameterGuide'
import { saveScenario } from '../library/files'
import { LibraryDialog } from '../library/LibraryDialog'
import { ClaimsTable } from '../library/ClaimsTable'
import { ScenarioAbout } from '../library/ScenarioAbout'
import { GlossaryPanel } from '../glossary/GlossaryPanel'
import { LecturePanel, StopMarks } from '../lecture/LecturePanel'
import { useLecture, useStopView } from '../lecture/useLecture'
import { ParamsPanel } from '../params/ParamsPanel'
import { ProgressIndicator, useTask } from '../progress/ProgressIndicator'
import { editedTitle } from '../scenario/edited'
import type { JsonObject } from '../scenario/paths'
import { applyThing, type ThingToTry } from '../scenario/things'
import { SweepPanel } from '../sweep/SweepPanel'
import type { Fit } from '../topology/geometry'
import { placedLayout } from '../topology/autoLayout'
import { BundleToggles } from '../topology/bundles'
import { nodeDetails } from '../topology/nodeDetails'
import { TOPOLOGY_BOX, TopologyView } from '../topology/TopologyView'
import { actionForKey, type Action } from './actions'
import { PRESENTATION_PACE, setPresentation, usePresentation } from './presentation'
import { ErrorPanel, errorText } from './ErrorPanel'
import { LiveContext, type LiveState } from './live'
import { installTestApi, type TestApiSource } from './testApi'
import { Timeline } from './Timeline'
import { nextSpeed, SPEEDS, Transport } from './Transport'
import { type Announcements, useBench } from './useBench'

/**
 * The editor's drawing and the parameter panel, re-rendered only when what they show changes:
 * with hundreds of VCs, re-rendering them on every frame of a run was most of the page's work
 * and garbage (issue 18). The live values reach the drawing through LiveContext (live.ts).
 */
const StillEditorCanvas = memo(EditorCanvas)
const StillParamsPanel = memo(ParamsPanel)
/** The editor's own `frame` and `started`: the drawing reads the live ones from LiveContext. */
const NO_VCS: ReadonlySet<string> = new Set()

export function App() {
  const { embed, autoplay } = useMemo(() => readEmbedOptions(window.location.search), [])
  const bench = useBench({ autoplay, trackUrl: !embed })
  const { sim, scenario, info, selection } = bench
  const { layout, store, status } = sim
  const present = usePresentation()
  // A slower pace for a lecture hall: entering presentation mode caps it (only then, not on every change of pace).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the mode is entered
  useEffect(() => {
    if (present.on && (sim.speed === null || sim.speed > PRESENTATION_PACE))
      sim.setSpeed(PRESENTATION_PACE)
  }, [present.on])
  const [libraryOpen, setLibraryOpen] = useState(false)
  const [shareOpen, setShareOpen] = useState(false)
  /** The node whose details the embed's drawing shows (picked by keyboard or click). */
  const [pickedNode, setPickedNode] = useState<string | null>(null)
  /** On a phone the scenario tools fold behind a menu button (styles.css). */
  const [toolsOpen, setToolsOpen] = useState(false)

  /** Simulated time one press of Step advances: one sample interval, one new point on the charts. */
  const stepMs = layout?.sample_interval_ms ?? 0.5
  /** The linked time of every chart and the drawing (hovered, or held on the timeline). */
  const cursor = useMemo(() => new TimeCursor(), [])
  // A new run starts live, nothing held.
  useEffect(() => {
    if (!layout) return
    cursor.setScrub(null)
    cursor.set(null)
  }, [layout, cursor])

  const lecture = useLecture({
    scenario,
    layout,
    store,
    nowMs: sim.nowMs,
    status,
    revision: sim.revision,
    play: sim.play,
  })
  const actions: Action[] = useMemo(() => {
    const running = status === 'running'
    const list: Action[] = [
      {
        name: 'togglePlay',
        label: running ? 'Pause' : 'Play',
        keys: [' '],
        shortcut: 'Space',
        enabled: running || status === 'paused',
        // Playing resumes from the live end, whatever the timeline held.
        perform: running
          ? sim.pause
          : () => {
              cursor.setScrub(null)
              // Plays on to the lecture's next stop, where the engine pauses exactly.
              lecture.playOn()
            },
      },
      {
        name: 'step',
        label: 'Step',
        keys: ['s'],
        shortcut: 'S',
        enabled: running || status === 'paused',
        perform: () => {
          cursor.setScrub(null)
          sim.step(stepMs)
        },
      },
      {
        name: 'reset',
        label: 'Reset',
        keys: ['r'],
        shortcut: 'R',
        enabled: status !== 'idle' || sim.error?.title === 'The engine crashed',
        perform: sim.reset,
      },
      {
        name: 'slower',
        label: 'Slower',
        keys: ['-'],
        shortcut: '−',
        enabled: sim.speed !== SPEEDS[0],
        perform: () => sim.setSpeed(nextSpeed(sim.speed, -1)),
      },
      {
        name: 'faster',
        label: 'Faster',
        keys: ['+', '='],
        shortcut: '+',
        enabled: sim.speed !== null,
        perform: () => sim.setSpeed(nextSpeed(sim.speed, 1)),
      },
    ]
    if (!embed) {
      list.push(
        {
          name: 'undo',
          label: 'Undo',
          keys: ['mod+z'],
          shortcut: 'Ctrl+Z',
          enabled: bench.undoLabel !== null,
          perform: bench.undo,
        },
        {
          name: 'redo',
          label: 'Redo',
          keys: ['mod+shift+z', 'mod+y'],
          shortcut: 'Ctrl+Shift+Z',
          enabled: bench.redoLabel !== null,
          perform: bench.redo,
        },
        {
          name: 'remove',
          label: 'Remove',
          keys: ['Delete', 'Backspace'],
          shortcut: 'Delete',
          enabled: selection !== null && scenario !== null,
          perform: () => {
            if (selection && scenario) bench.apply(removeSelected(scenario, selection))
          },
        },
      )
    }
    return list
  }, [status, sim, stepMs, embed, bench, selection, scenario, cursor, lecture.playOn])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = actionForKey(actions, event)
      if (!action) return
      event.preventDefault()
      action.perform()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [actions])

  const pageError = sim.error ?? (bench.notice ? { ...bench.notice, offerDefault: false } : null)
  const testSource = useRef<TestApiSource>({
    store: null,
    layout: null,
    status: 'idle',
    nowMs: 0,
    error: null,
  })
  testSource.current = {
    store,
    layout,
    status,
    nowMs: sim.nowMs,
    error: errorText(pageError),
    scenario,
  }
  useEffect(() => installTestApi(() => testSource.current), [])

  const placed = useMemo(() => (layout ? placedLayout(layout, TOPOLOGY_BOX) : null), [layout])
  const [picked, setPicked] = useState<ReadonlySet<string>>()
  const colors = useMemo(
    () => colorMap(layout?.vcs.map((v) => v.id) ?? [], picked),
    [layout, picked],
  )
  const scenarioJson = useMemo(() => (scenario ? JSON.stringify(scenario) : null), [scenario])
  const [view, setView] = useState<'charts' | 'sweep' | 'guide' | 'glossary'>('charts')
  // The sweep panel is built when its tab is first shown and kept from then on (a sweep runs on
  // while the charts are looked at). Built at once, its two parameter lists held an option for
  // every parameter of every element: 1,660 elements of 200 sources, unseen (issue 18: memory).
  const sweepShown = useRef(false)
  if (view === 'sweep') sweepShown.current = true
  /** On a phone the drawing and the charts are two panes, one at a time (styles.css). */
  const [pane, setPane] = useState<'network' | 'charts'>('network')
  const { pinned, setPinned } = bench
  // Names of runs opened from the compare and sweep panels, by their scenario document.
  const runLabels = useRef(new WeakMap<JsonObject, string>())
  const runLabel = (scenario && runLabels.current.get(scenario)) ?? layout?.scenario.title ?? ''
  const { replace } = bench
  /** A run opened to compare or from a sweep: validated, one undo step, playing once built. */
  const openRun = useCallback(
    (json: string, label: string, pin?: PinnedRun | null): string | null => {
      const next = JSON.parse(json) as JsonObject
      runLabels.current.set(next, label)
      const refused = replace(next, label, { play: true, pinned: pin })
      if (refused === null) setView('charts')
      return refused
    },
    [replace],
  )
  /** A thing to try: the current run pinned, the suggested change run beside it. */
  const tryThing = (thing: ThingToTry): string | null => {
    if (!scenario || !layout || !store) return 'the scenario is still loading'
    let next: JsonObject
    try {
      next = applyThing(scenario, thing)
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
    const sentence = thing.text.replace(/[.:]\s*$/, '')
    const short = sentence.length > 48 ? `${sentence.slice(0, 47)}…` : sentence
    const pin: PinnedRun | null =
      store.rowCount > 0
        ? {
            label: status === 'finished' ? runLabel : `${runLabel} (to ${sim.nowMs.toFixed(1)} ms)`,
            layout,
            store: snapshotStore(store),
          }
        : pinned
    return openRun(JSON.stringify(next), short, pin)
  }
  useTask(!layout && !pageError, 'Building the scenario…')
  useTask(
    status === 'running' && sim.speed === null,
    'Running as fast as the engine goes…',
    layout ? sim.nowMs / layout.until_ms : null,
  )
  const [animation, setAnimation] = useState<{ mode: AnimationMode; fastest: number }>({
    mode: 'flow',
    fastest: 0,
  })
  const onAnimationMode = useCallback(
    (mode: AnimationMode, fastest: number) => setAnimation({ mode, fastest }),
    [],
  )
  const [magnified, setMagnified] = useMagnifier(
    layout,
    selection?.kind === 'link' ? selection.id : null,
    sim.setMagnified,
  )
  // A stop's view: its selection and the port it magnifies.
  useStopView(lecture.current, layout, bench.select, setMagnified)
  const slowDown = useCallback((pace: number) => sim.setSpeed(stopAtOrBelow(SPEEDS, pace)), [sim])
  const animationProps = {
    store,
    frame: sim.frame,
    colors,
    cells: sim.cells,
    speed: sim.speed,
    status,
    revision: sim.revision,
    cursor,
    onCellsWanted: sim.setAnimationCells,
  }
  const { cells, setAnimationCells } = sim
  // Stable while a run plays: the frame, status, pace and revision come from LiveContext.
  const overlay = useCallback(
    (viewLayout: Layout, fit: Fit) => (
      <AnimationLayer
        layout={viewLayout}
        fit={fit}
        store={store}
        colors={colors}
        cells={cells}
        cursor={cursor}
        onCellsWanted={setAnimationCells}
        onMode={onAnimationMode}
      />
    ),
    [store, colors, cells, cursor, setAnimationCells, onAnimationMode],
  )
  // biome-ignore lint/correctness/useExhaustiveDependencies: sim.revision says the store gained rows
  const started = useMemo(
    () =>
      new Set(
        layout && store
          ? layout.vcs.filter((vc) => (store.last(column.sent(vc.id)) ?? 0) > 0).map((vc) => vc.id)
          : [],
      ),
    [layout, store, sim.revision],
  )
  const live: LiveState = useMemo(
    () => ({
      frame: sim.frame,
      started,
      status,
      speed: sim.speed,
      revision: sim.revision,
    }),
    [sim.frame, started, status, sim.speed, sim.revision],
  )

  const title = layout
    ? editedTitle(layout.scenario.title, bench.edited)
    : pageError
      ? 'No scenario running'
      : 'Loading…'

  return (
    <div className={`app${embed ? ' embed' : ''}${present.on && !embed ? ' present' : ''}`}>
      <header className="topbar">
        <div className="brand">
          {embed ? (
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
              onClick={bench.undo}
              disabled={bench.undoLabel === null}
              title={bench.undoLabel ? `Undo: ${bench.undoLabel} (Ctrl+Z)` : 'Nothing to undo'}
              aria-keyshortcuts="Control+Z"
            >
              Undo
            </button>
            <button
              type="button"
              onClick={bench.redo}
              disabled={bench.redoLabel === null}
              title={
                bench.redoLabel ? `Redo: ${bench.redoLabel} (Ctrl+Shift+Z)` : 'Nothing to redo'
              }
              aria-keyshortcuts="Control+Shift+Z"
            >
              Redo
            </button>
            <button type="button" onClick={() => setLibraryOpen(true)} disabled={!info}>
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
            <button type="button" onClick={() => setShareOpen(true)} disabled={!scenario}>
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
          nowMs={sim.nowMs}
          untilMs={layout?.until_ms ?? 0}
          events={sim.events}
          speed={sim.speed}
          onSpeed={sim.setSpeed}
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
            nowMs={sim.nowMs}
            stepMs={stepMs}
            marks={bench.liveMarks.filter((m) => m.run === layout)}
          />
        )}
        {layout && <StopMarks stops={lecture.stops} untilMs={layout.until_ms} />}
      </header>
      {pageError && (
        <ErrorPanel error={pageError} onDismiss={sim.error ? undefined : bench.dismissNotice} />
      )}
      <ProgressIndicator />
      {layout && (
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
                  <button
                    key={id}
                    type="button"
                    aria-pressed={pane === id}
                    onClick={() => setPane(id)}
                  >
                    {label}
                  </button>
                ))}
              </div>
            )}
            <aside className="side">
              {scenario && (
                <LecturePanel
                  lecture={lecture}
                  scenario={scenario}
                  nowMs={sim.nowMs}
                  status={status}
                  onApply={embed ? undefined : bench.apply}
                />
              )}
              {embed || !scenario || !info ? (
                <>
                  <AnimatedTopology layout={placed ?? layout} {...animationProps}>
                    <TopologyView
                      layout={placed ?? layout}
                      colors={colors}
                      frame={sim.frame}
                      started={started}
                      cursor={cursor}
                      store={store}
                      onPick={setPickedNode}
                      picked={pickedNode}
                    />
                    <p className="node-details" role="status" data-testid="node-details">
                      {pickedNode && nodeDetails(layout, sim.frame, pickedNode)}
                    </p>
                  </AnimatedTopology>
                  <BundleToggles vcs={layout.vcs} />
                </>
              ) : (
                <>
                  <StillEditorCanvas
                    layout={layout}
                    scenario={scenario}
                    info={info}
                    colors={colors}
                    frame={null}
                    started={NO_VCS}
                    selection={selection}
                    onSelect={bench.select}
                    onApply={bench.apply}
                    overlay={overlay}
                    cursor={cursor}
                    store={store}
                  />
                  <AnimationLegend
                    mode={animation.mode}
                    fastestCellPace={animation.fastest}
                    packets={layout.model === 'ip'}
                    onSlowDown={slowDown}
                  />
                  <BundleToggles vcs={layout.vcs} />
                  <Magnifier
                    layout={layout}
                    colors={colors}
                    cells={sim.cells}
                    speed={sim.speed}
                    status={status}
                    revision={sim.revision}
                    port={magnified}
                    onPort={setMagnified}
                    onSpeed={sim.setSpeed}
                    speeds={SPEEDS}
                  />
                  <div className="tabs" role="tablist" aria-label="Side panel">
                    <button
                      type="button"
                      role="tab"
                      id="tab-params"
                      aria-controls="panel-params"
                      aria-selected={bench.tab === 'params'}
                      onClick={() => bench.setTab('params')}
                    >
                      Parameters
                    </button>
                    <button
                      type="button"
                      role="tab"
                      id="tab-about"
                      aria-controls="panel-about"
                      aria-selected={bench.tab === 'about'}
                      onClick={() => bench.setTab('about')}
                    >
                      About this scenario
                    </button>
                  </div>
                  <div
                    role="tabpanel"
                    id={`panel-${bench.tab}`}
                    aria-labelledby={`tab-${bench.tab}`}
                    className="tab-panel"
                  >
                    {bench.tab === 'params' ? (
                      <StillParamsPanel
                        scenario={scenario}
                        info={info}
                        layout={layout}
                        selection={selection}
                        colors={colors}
                        onSelect={bench.select}
                        onApply={bench.apply}
                      />
                    ) : (
                      <ScenarioAbout
                        scenario={scenario}
                        warnings={sim.warnings}
                        onApply={bench.apply}
                        edited={bench.edited}
                        onTry={tryThing}
                        claims={
                          <ClaimsTable
                            scenario={scenario}
                            store={sim.store}
                            nowMs={sim.nowMs}
                            revision={sim.revision}
                          />
                        }
                      />
                    )}
                  </div>
                  <AnnouncementLine announcements={bench.announcements} />
                </>
              )}
            </aside>
            <div className="charts">
              {!embed && (
                <div className="main-tabs" role="tablist" aria-label="Views">
                  {(
                    [
                      ['charts', 'Charts'],
                      ['sweep', 'Sweep'],
                      ['guide', 'Parameter guide'],
                      ['glossary', 'Glossary'],
                    ] as const
                  ).map(([id, label]) => (
                    <button
                      key={id}
                      type="button"
                      role="tab"
                      id={`view-${id}`}
                      aria-selected={view === id}
                      aria-controls={`view-panel-${id}`}
                      onClick={() => setView(id)}
                    >
                      {label}
                    </button>
                  ))}
                </div>
              )}
              {!embed && (
                <div className="main-tools">
                  <RunExports
                    store={store}
                    scenarioId={layout.scenario.id}
                    edited={(bench.edited?.changes.length ?? 0) > 0}
                  />
                </div>
              )}
              <div
                className="view-panel"
                role="tabpanel"
                id="view-panel-charts"
                aria-labelledby="view-charts"
                hidden={view !== 'charts'}
              >
                {store && (
                  <ChartsWorkspace
                    layout={layout}
                    store={store}
                    colors={colors}
                    cursor={cursor}
                    pinned={pinned}
                    runLabel={runLabel}
                    onPick={setPicked}
                    present={
                      present.on && !embed
                        ? {
                            charts: present.charts,
                            onCharts: (charts) => setPresentation({ charts }),
                          }
                        : undefined
                    }
                    toolbar={
                      !embed &&
                      scenarioJson && (
                        <ComparePanel
                          layout={layout}
                          store={store}
                          status={status}
                          nowMs={sim.nowMs}
                          scenarioJson={scenarioJson}
                          runLabel={runLabel}
                          pinned={pinned}
                          onPin={setPinned}
                          onRunChanged={openRun}
                        />
                      )
                    }
                  />
                )}
              </div>
              {!embed && (
                <div
                  className="view-panel"
                  role="tabpanel"
                  id="view-panel-sweep"
                  aria-labelledby="view-sweep"
                  hidden={view !== 'sweep'}
                >
                  {scenarioJson && sweepShown.current && (
                    <SweepPanel layout={layout} scenarioJson={scenarioJson} onOpenRun={openRun} />
                  )}
                </div>
              )}
              {!embed && (
                <div
                  className="view-panel"
                  role="tabpanel"
                  id="view-panel-guide"
                  aria-labelledby="view-guide"
                  hidden={view !== 'guide'}
                >
                  {scenarioJson && view === 'guide' && (
                    <ParameterGuide layout={layout} scenarioJson={scenarioJson} />
                  )}
                </div>
              )}
              {!embed && <GlossaryPanel shown={view === 'glossary'} />}
            </div>
          </main>
        </LiveContext.Provider>
      )}
      {!embed && info && (
        <LibraryDialog
          open={libraryOpen}
          info={info}
          currentId={bench.origin?.kind === 'library' ? bench.origin.id : null}
          onClose={() => setLibraryOpen(false)}
          onOpen={(next, origin) => {
            const label =
              origin.kind === 'file'
                ? `Load ${origin.name}`
                : `Open “${typeof next.title === 'string' ? next.title : 'a scenario'}”`
            const refused = bench.replace(next, label, {
              origin,
              pinned: null,
              edited: origin.kind !== 'library' || origin.variant !== undefined,
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
            bench.dismissNotice()
            return null
          }}
        />
      )}
      {!embed && (
        <ShareDialog
          open={shareOpen}
          title={title}
          makeHash={bench.shareHash}
          onClose={() => setShareOpen(false)}
        />
      )}
    </div>
  )
}

/** What the last change did to the run; re-rendered alone when it changes (useBench.ts). */
function AnnouncementLine({ announcements }: { announcements: Announcements }) {
  const announcement = useSyncExternalStore(announcements.subscribe, announcements.get)
  return (
    <p
      className={`announcement ${announcement?.tone ?? ''}`}
      role="status"
      data-testid="announcement"
      key={announcement?.serial}
    >
      {announcement?.text}
    </p>
  )
}
