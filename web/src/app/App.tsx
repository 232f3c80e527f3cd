/** ABR Lab's page: scenario text, the animated topology, transport, and the linked charts, sweeps and guide. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { AnimatedTopology } from '../animation/AnimatedTopology'
import { ChartsWorkspace } from '../charts/ChartsWorkspace'
import { TimeCursor } from '../charts/cursor'
import type { PinnedRun } from '../charts/models'
import { colorMap } from '../charts/palette'
import { ComparePanel } from '../compare/ComparePanel'
import { column } from '../engine/layout'
import { formatScenarioError } from '../engine/protocol'
import { RunExports } from '../export/RunExports'
import { ParameterGuide } from '../guide/ParameterGuide'
import { ProgressIndicator, useTask } from '../progress/ProgressIndicator'
import { encodeScenarioParam, scenarioFromHash } from '../scenario/library'
import { SweepPanel } from '../sweep/SweepPanel'
import { TopologyView } from '../topology/TopologyView'
import { actionForKey, type Action } from './actions'
import { ErrorPanel, errorText } from './ErrorPanel'
import { installTestApi, type TestApiSource } from './testApi'
import { Transport } from './Transport'
import { useSimulation } from './useSimulation'

/** The scenario named by the URL hash, re-read when the hash changes. */
function useScenarioSource() {
  const [hash, setHash] = useState(() => window.location.hash)
  useEffect(() => {
    const onHash = () => setHash(window.location.hash)
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  return useMemo(() => scenarioFromHash(hash), [hash])
}

export function App() {
  const source = useScenarioSource()
  const sim = useSimulation(source)
  const { layout, store, status } = sim

  const actions: Action[] = useMemo(() => {
    const running = status === 'running'
    return [
      {
        name: 'togglePlay',
        label: running ? 'Pause' : 'Play',
        keys: [' '],
        shortcut: 'Space',
        enabled: running || status === 'paused',
        perform: running ? sim.pause : sim.play,
      },
      {
        name: 'reset',
        label: 'Reset',
        keys: ['r'],
        shortcut: 'R',
        enabled: status !== 'idle' || sim.error?.title === 'The engine crashed',
        perform: sim.reset,
      },
    ]
  }, [status, sim.pause, sim.play, sim.reset, sim.error])

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

  const testSource = useRef<TestApiSource>({ store: null, layout: null, status: 'idle', nowMs: 0, error: null })
  testSource.current = { store, layout, status, nowMs: sim.nowMs, error: errorText(sim.error) }
  useEffect(() => installTestApi(() => testSource.current), [])

  const colors = useMemo(() => colorMap(layout?.vcs.map((v) => v.id) ?? []), [layout])
  const cursor = useMemo(() => new TimeCursor(), [])
  const scenarioJson = source.ok ? source.json : null
  const [tab, setTab] = useState<'charts' | 'sweep' | 'guide'>('charts')
  const [pinned, setPinned] = useState<PinnedRun | null>(null)
  // Names of runs opened from the compare and sweep panels, by their scenario text.
  const runLabels = useRef(new Map<string, string>())
  // The run to play once it is built: its scenario text, and the layout it replaces.
  const autoPlay = useRef<{ json: string; replaces: unknown } | null>(null)
  const layoutRef = useRef(layout)
  layoutRef.current = layout
  const runLabel = (scenarioJson && runLabels.current.get(scenarioJson)) ?? layout?.scenario.title ?? ''
  const openRun = useCallback((json: string, label: string) => {
    runLabels.current.set(json, label)
    autoPlay.current = { json, replaces: layoutRef.current }
    setTab('charts')
    window.location.hash = `scenario-json=${encodeScenarioParam(json)}`
  }, [])
  // A run opened to compare or from a sweep starts playing as soon as it is built.
  useEffect(() => {
    const pending = autoPlay.current
    if (layout && layout !== pending?.replaces && status === 'paused' && sim.nowMs === 0 && scenarioJson !== null && pending?.json === scenarioJson) {
      autoPlay.current = null
      sim.play()
    }
  }, [layout, status, sim.nowMs, scenarioJson, sim.play])
  useTask(source.ok && !layout && !sim.error, 'Building the scenario…')
  useTask(status === 'running' && sim.speed === null, 'Running as fast as the engine goes…', layout ? sim.nowMs / layout.until_ms : null)
  const started = useMemo(
    () => new Set(layout && store ? layout.vcs.filter((vc) => (store.last(column.sent(vc.id)) ?? 0) > 0).map((vc) => vc.id) : []),
    [layout, store, sim.revision],
  )

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="logo">ABR Lab</span>
          <h1>{layout?.scenario.title ?? (sim.error ? 'No scenario running' : 'Loading…')}</h1>
        </div>
        <Transport
          actions={actions}
          status={status}
          nowMs={sim.nowMs}
          untilMs={layout?.until_ms ?? 0}
          events={sim.events}
          speed={sim.speed}
          onSpeed={sim.setSpeed}
        />
      </header>
      {sim.error && <ErrorPanel error={sim.error} />}
      <ProgressIndicator />
      {layout && (
        <main className="workspace">
          <aside className="side">
            <AnimatedTopology
              layout={layout}
              store={store}
              frame={sim.frame}
              colors={colors}
              cells={sim.cells}
              speed={sim.speed}
              status={status}
              revision={sim.revision}
              cursor={cursor}
              onCellsWanted={sim.setAnimationCells}
            >
              <TopologyView layout={layout} colors={colors} frame={sim.frame} started={started} />
            </AnimatedTopology>
            <p className="explanation">{layout.scenario.explanation}</p>
            {sim.warnings.length > 0 && (
              <section className="warnings" aria-label="Scenario warnings">
                <h2>The engine notes</h2>
                <ul>
                  {sim.warnings.map((w, i) => (
                    <li key={i}>{formatScenarioError(w)}</li>
                  ))}
                </ul>
              </section>
            )}
            {layout.scenario.things_to_try.length > 0 && (
              <section className="things-to-try">
                <h2>Things to try</h2>
                <ul>
                  {layout.scenario.things_to_try.map((thing) => (
                    <li key={thing}>{thing}</li>
                  ))}
                </ul>
              </section>
            )}
          </aside>
          <div className="charts">
            <div className="main-tabs" role="tablist" aria-label="Views">
              {(
                [
                  ['charts', 'Charts'],
                  ['sweep', 'Sweep'],
                  ['guide', 'Parameter guide'],
                ] as const
              ).map(([id, label]) => (
                <button key={id} type="button" role="tab" id={`tab-${id}`} aria-selected={tab === id} aria-controls={`panel-${id}`} onClick={() => setTab(id)}>
                  {label}
                </button>
              ))}
              <RunExports scenarioJson={scenarioJson} scenarioId={layout.scenario.id} store={store} />
            </div>
            <div className="tab-panel" role="tabpanel" id="panel-charts" aria-labelledby="tab-charts" hidden={tab !== 'charts'}>
              {store && (
                <ChartsWorkspace
                  layout={layout}
                  store={store}
                  colors={colors}
                  cursor={cursor}
                  pinned={pinned}
                  runLabel={runLabel}
                  toolbar={
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
            <div className="tab-panel" role="tabpanel" id="panel-sweep" aria-labelledby="tab-sweep" hidden={tab !== 'sweep'}>
              {scenarioJson && <SweepPanel layout={layout} scenarioJson={scenarioJson} onOpenRun={openRun} />}
            </div>
            <div className="tab-panel" role="tabpanel" id="panel-guide" aria-labelledby="tab-guide" hidden={tab !== 'guide'}>
              {scenarioJson && tab === 'guide' && <ParameterGuide layout={layout} scenarioJson={scenarioJson} />}
            </div>
          </div>
        </main>
      )}
    </div>
  )
}
