/**
 * One cell in the magnifier, drawn by kind: data a square in the VC's colour, forward RM a
 * triangle, backward RM a hollow diamond, CBR/VBR a grey square with a bar, packets by class. RM
 * cells are focusable images whose label gives their fields.
 */
import type { ReactNode } from 'react'
import { BACKGROUND_COLOR, TCP_COLOR, UDP_COLOR } from './draw'
import { KIND_NAME, type MagnifiedCell } from './magnifiedCells'
import { CELL_KIND } from './scene'

/** The y of the cells' lane in the magnifier's drawing units. */
export const LANE_Y = 26
/** Outline and caption ink. */
export const INK = '#1b1f24'

/** A cell mark at `x` on the lane; hover or focus shows its label through `onShow`. */
export function CellMark({
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
