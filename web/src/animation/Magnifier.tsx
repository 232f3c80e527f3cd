/**
 * The magnifier: one port (a link in one direction) drawn at a scale where every cell is distinct —
 * its queue at the transmitter as a row of cells, next to be sent nearest the link, and a stretch of
 * its wire as cell slots, each cell where the engine has it. Data cells are squares in the VC's
 * colour, forward RM cells triangles, backward RM cells hollow diamonds, CBR/VBR cells grey squares
 * with a bar (packets: TCP blue, ACK small, UDP vermillion). RM cells can be focused or hovered for
 * their fields. The rest of the drawing keeps showing flow rates; the engine sends this port's
 * cells whole (`Engine.port_cells`), not the sampled cells the drawing uses.
 *
 * It is SVG rather than canvas so that each RM cell is an element a keyboard can reach and a
 * screen reader can name; it holds at most SLOTS + QUEUE_SHOWN cells, so redrawing it is cheap.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { MAGNIFIED_CELLS } from '../engine/samplePosts'
import type { Layout } from '../engine/layout'
import type { RunStatus, Speed } from '../engine/protocol'
import type { CellsSnapshot } from './AnimatedTopology'
import { CellMark, INK, LANE_Y } from './CellMark'
import { countByKind, describeCell, magnifiedCells } from './magnifiedCells'
import { CELL_KIND } from './scene'

/** At most this many cell slots of wire shown at once; a longer link is shown a section at a time. */
export const SLOTS = 48
/** At most this many waiting cells drawn one by one; the rest are counted. */
export const QUEUE_SHOWN = 24
const SLOT = 14
const HEIGHT = 50
/**
 * CSS px per drawing unit wanted: a slot 18 px wide, a cell 13 px, captions 13 px. A narrow panel
 * shows fewer slots at that size rather than all of them too small to see (at 1280 px
 * the 72 slots were 7 px each and the captions 4 px).
 */
const PX_PER_UNIT = 1.3

/** Wire slots and queue places that fit a magnifier `px` wide at PX_PER_UNIT. */
export function magnifierSlots(px: number): { slots: number; queue: number } {
  if (!(px > 0)) return { slots: SLOTS, queue: QUEUE_SHOWN }
  const units = px / PX_PER_UNIT - 24
  return {
    slots: Math.max(8, Math.min(SLOTS, Math.floor((units * 2) / 3 / SLOT))),
    queue: Math.max(8, Math.min(QUEUE_SHOWN, Math.floor(units / 3 / SLOT))),
  }
}

export interface MagnifierProps {
  layout: Layout
  colors: ReadonlyMap<string, string>
  cells: { readonly current: CellsSnapshot | null }
  speed: Speed
  status: RunStatus
  revision: number
  /** The magnified port's index in `layout.ports`, or null. */
  port: number | null
  onPort(port: number | null): void
  onSpeed(speed: Speed): void
  /** Pacing stops offered (the transport's). */
  speeds: readonly Speed[]
}

/** The slowest-first stop at or below `pace` (sim ms per wall s), else the slowest stop. */
export function stopAtOrBelow(speeds: readonly Speed[], pace: number): number {
  const stops = speeds.filter((s): s is number => s !== null).sort((a, b) => a - b)
  let best = stops[0] ?? pace
  for (const s of stops) if (s <= pace) best = s
  return best
}

export function Magnifier({
  layout,
  colors,
  cells,
  speed,
  status,
  revision,
  port,
  onPort,
  onSpeed,
  speeds,
}: MagnifierProps) {
  const [section, setSection] = useState(0)
  const [shown, setShown] = useState<string | null>(null)
  const [, setTick] = useState(0)
  const p = port !== null ? layout.ports[port] : undefined
  const link = p ? layout.links.find((l) => l.id === p.link) : undefined
  const packets = layout.model === 'ip'
  // A slot is one cell time (53 bytes); in the packet model one full-size packet's (1,500 bytes).
  const cellMs = link && link.rate_mbps > 0 ? (packets ? 12 : 0.424) / link.rate_mbps : 0
  const spanMs = link ? link.delay_ms + cellMs : 0
  const totalSlots = cellMs > 0 ? Math.max(1, Math.ceil(spanMs / cellMs)) : 1
  const boxRef = useRef<HTMLElement>(null)
  const [boxPx, setBoxPx] = useState(0)
  useEffect(() => {
    const el = boxRef.current
    if (!el) return
    setBoxPx(el.clientWidth)
    const observer = new ResizeObserver(() => setBoxPx(el.clientWidth))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  const { slots: slotsShown, queue: queueShown } = magnifierSlots(boxPx)
  const queueW = queueShown * SLOT
  const sections = Math.max(1, Math.ceil(totalSlots / slotsShown))
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new port starts at its first section
  useEffect(() => setSection(0), [port])
  // While running, cells move between snapshots: redraw every display frame.
  useEffect(() => {
    if (status !== 'running' || port === null) return
    let raf = requestAnimationFrame(function tick() {
      setTick((t) => t + 1)
      raf = requestAnimationFrame(tick)
    })
    return () => cancelAnimationFrame(raf)
  }, [status, port])

  const snapshot = cells.current
  const ageMs =
    snapshot && status === 'running' && speed !== null
      ? (Math.min(250, performance.now() - snapshot.wallMs) * speed) / 1000
      : 0
  const all = port !== null ? magnifiedCells(snapshot?.port ?? null, port, ageMs, spanMs) : []
  const waiting = all.filter((c) => c.progress < 0)
  const wire = all.filter((c) => c.progress >= 0)
  const first = Math.min(section, sections - 1) * slotsShown
  const vcName = (i: number) => layout.vcs[i]?.id ?? `VC #${i}`
  const flowName = (i: number) => layout.flows?.[i]?.id ?? `flow #${i}`
  const colorOf = (i: number) => colors.get(layout.vcs[i]?.id ?? '') ?? INK
  // A cell takes one slot; at this pace a cell time lasts this long on the wall clock.
  const cellWallMs = speed !== null && speed > 0 ? (cellMs / speed) * 1000 : 0
  const want = cellMs > 0 ? stopAtOrBelow(speeds, (cellMs * 1000) / 250) : null
  const ports = useMemo(
    () => layout.ports.map((q, i) => ({ i, label: `${q.from}→${q.to}` })),
    [layout],
  )
  void revision

  const width = queueW + 16 + slotsShown * SLOT + 8
  return (
    <section className="magnifier" aria-label="Magnifier" data-testid="magnifier" ref={boxRef}>
      <div className="magnifier-bar">
        <label>
          Magnify{' '}
          <select
            value={port ?? ''}
            onChange={(e) => onPort(e.target.value === '' ? null : Number(e.target.value))}
            data-testid="magnifier-port"
          >
            <option value="">no link</option>
            {ports.map((q) => (
              <option key={q.i} value={q.i}>
                {q.label}
              </option>
            ))}
          </select>
        </label>
        {p && want !== null && (speed === null || speed > want) && (
          <button
            type="button"
            className="slow-to-cells"
            onClick={() => onSpeed(want)}
            data-testid="magnifier-slow"
          >
            Slow to {want < 0.1 ? `${Number((want * 1000).toPrecision(3))} µs/s` : `${want} ms/s`}{' '}
            to follow each {packets ? 'packet' : 'cell'}
          </button>
        )}
        {p && sections > 1 && (
          <label className="magnifier-section">
            Section
            <input
              type="range"
              min={0}
              max={sections - 1}
              value={Math.min(section, sections - 1)}
              onChange={(e) => setSection(Number(e.target.value))}
              aria-valuetext={`cell slots ${first + 1} to ${Math.min(totalSlots, first + slotsShown)} of ${totalSlots}`}
            />
          </label>
        )}
      </div>
      {p && (
        <>
          <svg
            className="magnifier-view"
            viewBox={`0 0 ${width} ${HEIGHT}`}
            role="group"
            aria-label={`Cells at ${p.from}→${p.to}`}
            data-testid="magnifier-view"
            data-wire={wire.length}
            data-waiting={waiting.length}
          >
            <text x={queueW} y={12} textAnchor="end" className="mag-caption">
              queue at {p.from} →
            </text>
            <text x={queueW + 16} y={12} className="mag-caption">
              wire to {p.to}, cell slots {first + 1}–{Math.min(totalSlots, first + slotsShown)} of{' '}
              {totalSlots}
            </text>
            <line
              x1={queueW + 12}
              y1={LANE_Y + 9}
              x2={queueW + 16 + slotsShown * SLOT}
              y2={LANE_Y + 9}
              stroke="#c9d1d9"
            />
            {Array.from({ length: slotsShown + 1 }, (_, k) => (
              <line
                key={k}
                x1={queueW + 16 + k * SLOT}
                y1={LANE_Y + 7}
                x2={queueW + 16 + k * SLOT}
                y2={LANE_Y + 11}
                stroke="#c9d1d9"
              />
            ))}
            <rect x={queueW + 4} y={LANE_Y - 10} width={6} height={20} fill="#59636e" rx={1} />
            {waiting.slice(0, queueShown).map((c, k) => (
              <CellMark
                key={`q${k}`}
                cell={c}
                x={queueW - SLOT / 2 - k * SLOT}
                color={colorOf(c.vc)}
                label={describeCell(c, vcName, flowName)}
                focusable={c.kind === CELL_KIND.frm || c.kind === CELL_KIND.brm}
                onShow={setShown}
              />
            ))}
            {wire.map((c, k) => {
              const slot = c.progress * totalSlots - first
              if (slot < 0 || slot > slotsShown) return null
              return (
                <CellMark
                  key={`w${k}`}
                  cell={c}
                  x={queueW + 16 + slot * SLOT}
                  color={colorOf(c.vc)}
                  label={describeCell(c, vcName, flowName)}
                  focusable={c.kind === CELL_KIND.frm || c.kind === CELL_KIND.brm}
                  onShow={setShown}
                />
              )
            })}
            {waiting.length > queueShown && (
              <text x={2} y={HEIGHT - 2} className="mag-caption">
                +{waiting.length - queueShown} more waiting
              </text>
            )}
          </svg>
          <p className="magnifier-readout" data-testid="magnifier-readout" aria-live="polite">
            {shown ?? 'Hover or focus (Tab) an RM cell for its ER, CI and CCR.'}
          </p>
          <p className="magnifier-summary" data-testid="magnifier-summary">
            Queue: {waiting.length >= MAGNIFIED_CELLS ? 'at least ' : ''}
            {waiting.length.toLocaleString('en')} {packets ? 'packets' : 'cells'} (
            {waiting.length >= MAGNIFIED_CELLS ? 'the first: ' : ''}
            {countByKind(waiting)}). On the wire: {wire.length} ({countByKind(wire)}).
            {cellWallMs > 0 &&
              ` One ${packets ? 'packet' : 'cell'} time lasts ${cellWallMs >= 1000 ? `${(cellWallMs / 1000).toFixed(1)} s` : `${cellWallMs.toFixed(cellWallMs < 10 ? 2 : 0)} ms`} at this pace.`}
          </p>
        </>
      )}
    </section>
  )
}

/**
 * The magnified port, kept valid across scenarios and sent to the engine: picking a link in the
 * editor magnifies its first direction.
 */
export function useMagnifier(
  layout: Layout | null,
  selectedLink: string | null,
  send: (port: number | null) => void,
): [number | null, (port: number | null) => void] {
  const [port, setPort] = useState<number | null>(null)
  const valid = port !== null && layout !== null && port < layout.ports.length ? port : null
  useEffect(() => send(valid), [valid, send])
  useEffect(() => {
    if (!layout || selectedLink === null) return
    const i = layout.ports.findIndex((q) => q.link === selectedLink)
    if (i >= 0) setPort(i)
  }, [layout, selectedLink])
  return [valid, useCallback((p: number | null) => setPort(p), [])]
}
