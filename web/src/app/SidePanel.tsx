/**
 * The side of the workspace: the editable drawing with the cell animation over it, the magnifier,
 * the Parameters and About tabs and the status line; in embed mode, the drawing alone.
 */
import { memo, useCallback, useMemo, useState, useSyncExternalStore } from 'react'
import { AnimatedTopology, AnimationLayer } from '../animation/AnimatedTopology'
import { AnimationLegend, type AnimationMode } from '../animation/AnimationLegend'
import { Magnifier, stopAtOrBelow, useMagnifier } from '../animation/Magnifier'
import { EditorCanvas } from '../editor/EditorCanvas'
import { EmbedLegend } from '../embed/EmbedLegend'
import type { Layout } from '../engine/layout'
import { useStopView } from '../lecture/useLecture'
import { ClaimsTable } from '../library/ClaimsTable'
import { ScenarioAbout } from '../library/ScenarioAbout'
import { useLab, useLabStore, useRun, useRunFrame } from '../lab/hooks'
import { ParamsPanel } from '../params/ParamsPanel'
import { placedLayout } from '../topology/autoLayout'
import { BundleToggles } from '../topology/bundles'
import type { Fit } from '../topology/geometry'
import { nodeDetails } from '../topology/nodeDetails'
import { TOPOLOGY_BOX, TopologyView } from '../topology/TopologyView'
import { useColors, useStarted } from './liveHooks'
import { SPEEDS } from './Transport'

/**
 * The editor's drawing and the parameter panel, re-rendered only when what they show changes:
 * with hundreds of VCs, re-rendering them on every frame of a run was most of the page's work
 * and garbage. The live values reach the drawing through LiveContext (live.ts).
 */
const StillEditorCanvas = memo(EditorCanvas)
const StillParamsPanel = memo(ParamsPanel)
/** The editor's own `frame` and `started`: the drawing reads the live ones from LiveContext. */
const NO_VCS: ReadonlySet<string> = new Set()

/** The drawing of a run that is watched, not edited (embed mode). */
export function WatchedDrawing({ layout, embed }: { layout: Layout; embed: boolean }) {
  const lab = useLabStore()
  const { run, cursor } = lab
  const view = useRunFrame((r) => r)
  const colors = useColors()
  const started = useStarted()
  /** The node whose details the drawing shows (picked by keyboard or click). */
  const [pickedNode, setPickedNode] = useState<string | null>(null)
  const placed = useMemo(() => placedLayout(layout, TOPOLOGY_BOX), [layout])
  return (
    <>
      <AnimatedTopology
        layout={placed}
        store={view.store}
        frame={view.frame}
        colors={colors}
        cells={run.cells}
        speed={view.speed}
        status={view.status}
        revision={view.revision}
        cursor={cursor}
        onCellsWanted={run.setAnimationCells}
      >
        <TopologyView
          layout={placed}
          colors={colors}
          frame={view.frame}
          started={started}
          cursor={cursor}
          store={view.store}
          onPick={setPickedNode}
          picked={pickedNode}
        />
        <p className="node-details" role="status" data-testid="node-details">
          {pickedNode && nodeDetails(layout, view.frame, pickedNode)}
        </p>
      </AnimatedTopology>
      {embed && <EmbedLegend layout={layout} colors={colors} />}
      <BundleToggles vcs={layout.vcs} />
    </>
  )
}

/** The editable drawing, the magnifier, the Parameters and About tabs and the status line. */
export function EditingSide({ layout }: { layout: Layout }) {
  const lab = useLabStore()
  const { run, cursor } = lab
  const { scenario, info, selection, tab, edited } = useLab((l) => l)
  const store = useRun((r) => r.store)
  const speed = useRun((r) => r.speed)
  const status = useRun((r) => r.status)
  const revision = useRunFrame((r) => r.revision)
  const nowMs = useRunFrame((r) => r.nowMs)
  const warnings = useRun((r) => r.warnings)
  const colors = useColors()
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
    run.setMagnified,
  )
  // A narrated stop's view: its element selected, its port magnified.
  useStopView(setMagnified)
  // Stable while a run plays: the frame, status, pace and revision come from LiveContext.
  const overlay = useCallback(
    (viewLayout: Layout, fit: Fit) => (
      <AnimationLayer
        layout={viewLayout}
        fit={fit}
        store={store}
        colors={colors}
        cells={run.cells}
        cursor={cursor}
        onCellsWanted={run.setAnimationCells}
        onMode={onAnimationMode}
      />
    ),
    [store, colors, run, cursor, onAnimationMode],
  )
  if (!scenario || !info) return null
  return (
    <>
      <StillEditorCanvas
        layout={layout}
        scenario={scenario}
        info={info}
        colors={colors}
        frame={null}
        started={NO_VCS}
        selection={selection}
        onSelect={lab.select}
        onApply={lab.apply}
        overlay={overlay}
        cursor={cursor}
        store={store}
      />
      <AnimationLegend
        mode={animation.mode}
        fastestCellPace={animation.fastest}
        packets={layout.model === 'ip'}
        onSlowDown={(pace) => run.setSpeed(stopAtOrBelow(SPEEDS, pace))}
      />
      <BundleToggles vcs={layout.vcs} />
      <Magnifier
        layout={layout}
        colors={colors}
        cells={run.cells}
        speed={speed}
        status={status}
        revision={revision}
        port={magnified}
        onPort={setMagnified}
        onSpeed={(next) => run.setSpeed(next)}
        speeds={SPEEDS}
      />
      <div className="tabs" role="tablist" aria-label="Side panel">
        {(
          [
            ['params', 'Parameters'],
            ['about', 'About this scenario'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-controls={`panel-${id}`}
            aria-selected={tab === id}
            onClick={() => lab.setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
        {tab === 'params' ? (
          <StillParamsPanel
            scenario={scenario}
            info={info}
            layout={layout}
            selection={selection}
            colors={colors}
            onSelect={lab.select}
            onApply={lab.apply}
          />
        ) : (
          <ScenarioAbout
            scenario={scenario}
            warnings={warnings}
            onApply={lab.apply}
            edited={edited}
            onTry={lab.tryThing}
            claims={
              <ClaimsTable scenario={scenario} store={store} nowMs={nowMs} revision={revision} />
            }
          />
        )}
      </div>
      <StatusLine />
    </>
  )
}

/** What the last change did to the run; re-rendered alone when it changes. */
export function StatusLine() {
  const lab = useLabStore()
  const announcement = useSyncExternalStore(lab.subscribe, () => lab.get().announcement)
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
