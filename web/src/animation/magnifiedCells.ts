/**
 * The magnified port's cells as the engine sends them (`Engine.port_cells` rows): each waiting in
 * the queue or on the wire, and what each one is, in words.
 */
import { advance, CELL_KIND, CELL_ROW } from './scene'

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

/** A cell kind's name, for captions and class names. */
export const KIND_NAME: Record<number, string> = {
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
