/** ABR Lab's page: scenario text, topology, transport, and the ACR and queue charts. */
import { useEffect, useMemo, useRef, useState } from 'react'
import { acrChartModel } from '../charts/acrChart'
import { ChartPanel } from '../charts/ChartPanel'
import { colorMap } from '../charts/palette'
import { queueChartModel } from '../charts/queueChart'
import { column } from '../engine/layout'
import { formatScenarioError } from '../engine/protocol'
import { scenarioFromHash } from '../scenario/library'
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
  // Recomputed when new samples have been drawn in (sim.revision), at most once per frame.
  const acrModel = useMemo(
    () => (layout && store ? acrChartModel(layout, store, colors) : null),
    [layout, store, colors, sim.revision],
  )
  const started = useMemo(
    () => new Set(layout && store ? layout.vcs.filter((vc) => (store.last(column.sent(vc.id)) ?? 0) > 0).map((vc) => vc.id) : []),
    [layout, store, sim.revision],
  )
  const queueModel = useMemo(
    () => (layout && store ? queueChartModel(layout, store) : null),
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
      {layout && (
        <main className="workspace">
          <aside className="side">
            <TopologyView layout={layout} colors={colors} frame={sim.frame} started={started} />
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
            <ChartPanel id="acr-chart" title="Allowed cell rate per VC" model={acrModel} />
            <ChartPanel id="queue-chart" title="Bottleneck queue" model={queueModel} />
          </div>
        </main>
      )}
    </div>
  )
}
