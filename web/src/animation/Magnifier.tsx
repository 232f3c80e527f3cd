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
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { MAGNIFIED_CELLS } from '../engine/engineHost'
import type { Layout } from '../engine/layout'
import type { RunStatus, Speed } from '../engine/protocol'
import { BACKGROUND_COLOR, TCP_COLOR, UDP_COLOR } from './draw'
import { advance, CELL_KIND, CELL_ROW } from './scene'
import type { CellsSnapshot } from './AnimatedTopology'

/** At most this many cell slots of wire shown at once; a longer link is shown a section at a time. */
export const SLOTS = 48
/** At most this many waiting cells drawn one by one; the rest are counted. */
export const QUEUE_SHOWN = 24
const SLOT = 14
const HEIGHT = 50
const LANE_Y = 26
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
const INK = '#1b1f24'

export interface MagnifiedCell {
  /** 0..1 along the wire, or -(k + 1) for the k-th waiting cell. */
  progress: number
  kind: number
  vc: number
  er: number
  ci: number
  ccr: number
}

/** The magnified port's rows (`samples.portCells`), moved on by `ageMs` of simulated time. */
export function magnifiedCells(
  rows: Float64Array | null,
  port: number,
  ageMs: number,
  spanMs: number,
): MagnifiedCell[] {
  const out: MagnifiedCell[] = []
  if (!rows) return out
  for (let r = 0; r + CELL_ROW <= rows.length; r += CELL_ROW) {
    if (rows[r] !== port) continue
    const waiting = rows[r + 1] < 0
    const progress = waiting ? rows[r + 1] : advance(rows[r + 1], ageMs, spanMs)
    if (!waiting && progress > 1) continue
    out.push({
      progress,
      kind: rows[r + 2],
      vc: rows[r + 3],
      er: rows[r + 4],
      ci: rows[r + 5],
      ccr: rows[r + 6],
    })
  }
  return out
}

const KIND_NAME: Record<number, string> = {
  [CELL_KIND.data]: 'data',
  [CELL_KIND.frm]: 'FRM',
  [CELL_KIND.brm]: 'BRM',
  [CELL_KIND.background]: 'CBR/VBR',
  [CELL_KIND.tcpSegment]: 'TCP segment',
  [CELL_KIND.tcpAck]: 'TCP ACK',
  [CELL_KIND.udpDatagram]: 'UDP datagram',
}

/** "12 data, 2 FRM, 1 BRM" for some cells, kinds in a fixed order; "none" for no cells. */
export function countByKind(cells: readonly MagnifiedCell[]): string {
  const counts = new Map<number, number>()
  for (const c of cells) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1)
  const parts = [...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, n]) => `${n} ${KIND_NAME[k] ?? 'other'}`)
  return parts.length ? parts.join(', ') : 'none'
}

function mbps(v: number): string {
  return Number.isFinite(v) ? `${v.toFixed(1)} Mbit/s` : '—'
}

/** What a cell is, in words (an RM cell's fields included). */
export function describeCell(
  cell: MagnifiedCell,
  vcName: (i: number) => string,
  flowName: (i: number) => string,
): string {
  const where =
    cell.progress < 0
      ? `waiting, ${-cell.progress} in the queue`
      : `on the wire, ${(cell.progress * 100).toFixed(0)} % across`
  switch (cell.kind) {
    case CELL_KIND.frm:
    case CELL_KIND.brm:
      return `${KIND_NAME[cell.kind]} of ${vcName(cell.vc)} · ER ${mbps(cell.er)} · CI ${cell.ci ? 1 : 0} · CCR ${mbps(cell.ccr)} · ${where}`
    case CELL_KIND.data:
      return `data cell of ${vcName(cell.vc)} · ${where}`
    case CELL_KIND.background:
      return `CBR/VBR cell · ${where}`
    default:
      return `${KIND_NAME[cell.kind] ?? 'packet'} of ${flowName(cell.vc)} · ${Math.round(cell.er)} bytes · ${where}`
  }
}

function CellMark({
  cell,
  x,
  color,
  label,
  focusable,
  onShow,
}: {
  cell: MagnifiedCell
  x: number
  color: string
  label: string
  focusable: boolean
  onShow(text: string | null): void
}) {
  const y = LANE_Y
  const s = 5
  let shape: ReactNode
  switch (cell.kind) {
    case CELL_KIND.frm:
      shape = (
        <polygon
          points={`${x + s + 1},${y} ${x - s},${y - s} ${x - s},${y + s}`}
          fill={color}
          stroke={INK}
          strokeWidth={0.8}
        />
      )
      break
    case CELL_KIND.brm:
      shape = (
        <polygon
          points={`${x},${y - s - 1} ${x + s + 1},${y} ${x},${y + s + 1} ${x - s - 1},${y}`}
          fill="#fff"
          stroke={color}
          strokeWidth={2}
        />
      )
      break
    case CELL_KIND.background:
      shape = (
        <>
          <rect x={x - s} y={y - s} width={2 * s} height={2 * s} fill={BACKGROUND_COLOR} />
          <line x1={x - s} y1={y} x2={x + s} y2={y} stroke="#fff" strokeWidth={1.5} />
        </>
      )
      break
    case CELL_KIND.tcpAck:
      shape = <rect x={x - 2.5} y={y - 2.5} width={5} height={5} fill={TCP_COLOR} />
      break
    case CELL_KIND.tcpSegment:
    case CELL_KIND.udpDatagram:
      shape = (
        <rect
          x={x - s}
          y={y - s}
          width={2 * s}
          height={2 * s}
          fill={cell.kind === CELL_KIND.udpDatagram ? UDP_COLOR : TCP_COLOR}
        />
      )
      break
    default:
      shape = (
        <rect x={x - s + 0.5} y={y - s + 0.5} width={2 * s - 1} height={2 * s - 1} fill={color} />
      )
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: an RM cell is a labelled, focusable image (role=img); hover and focus show its fields
    <g
      className={`mag-cell mag-${(KIND_NAME[cell.kind] ?? 'other').replace(/[^A-Za-z]/g, '').toLowerCase()}`}
      tabIndex={focusable ? 0 : undefined}
      role={focusable ? 'img' : undefined}
      aria-label={focusable ? label : undefined}
      data-kind={cell.kind}
      onFocus={() => onShow(label)}
      onBlur={() => onShow(null)}
      onPointerEnter={() => onShow(label)}
      onPointerLeave={() => onShow(null)}
    >
      <title>{label}</title>
      {shape}
    </g>
  )
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
