/**
 * A node's details in words, for the drawing's keyboard and screen-reader readout: what
 * a host sends and receives, with each VC's allowed cell rate, and what a switch (or router) has
 * queued at each of its ports, from the live frame or the frame at a held time.
 */
import type { LiveFrame } from '../engine/frame'
import { forwards, portLabel, type Layout } from '../engine/layout'

/** At most this many VCs or ports are named; the rest are counted. */
const LISTED = 4

function listed(parts: string[]): string {
  if (parts.length <= LISTED) return parts.join(', ')
  return `${parts.slice(0, LISTED).join(', ')} and ${parts.length - LISTED} more`
}

function mbps(v: number | undefined): string {
  return v !== undefined && Number.isFinite(v) ? `${v.toFixed(1)} Mbit/s` : 'not started'
}

export function nodeDetails(layout: Layout, frame: LiveFrame | null, id: string): string {
  const node = layout.nodes.find((n) => n.id === id)
  if (!node) return ''
  const packets = layout.model === 'ip'
  const kind = forwards(node.kind) ? (packets ? 'Router' : 'Switch') : 'Host'
  const parts: string[] = []
  if (forwards(node.kind)) {
    // The longest queue first: it is the one to look at.
    const queueOf = (portId: string) => frame?.queueCells.get(portId) ?? 0
    const ports = layout.ports
      .filter((p) => p.from === id)
      .sort((a, b) => queueOf(b.id) - queueOf(a.id))
    const unit = packets ? 'packets' : 'cells'
    const queues = ports.map((p) => {
      const q = frame?.queueCells.get(p.id)
      return `${portLabel(p)} ${q !== undefined && Number.isFinite(q) ? Math.round(q).toLocaleString('en') : '—'} ${unit}`
    })
    parts.push(queues.length ? `queues: ${listed(queues)}` : 'no ports')
  } else {
    const sends = layout.vcs.filter((vc) => vc.source === id)
    const gets = layout.vcs.filter((vc) => vc.destination === id)
    if (sends.length)
      parts.push(
        `sends ${listed(sends.map((vc) => `${vc.id} at ACR ${mbps(frame?.acrMbps.get(vc.id))}`))}`,
      )
    if (gets.length) parts.push(`receives ${listed(gets.map((vc) => vc.id))}`)
    const from = (layout.flows ?? []).filter((f) => f.source === id)
    const to = (layout.flows ?? []).filter((f) => f.destination === id)
    if (from.length) parts.push(`sends ${listed(from.map((f) => `${f.id} (${f.kind})`))}`)
    if (to.length) parts.push(`receives ${listed(to.map((f) => f.id))}`)
    if (parts.length === 0) parts.push(packets ? 'no flows' : 'no VCs')
  }
  const at = frame ? ` at t = ${frame.nowMs.toFixed(1)} ms` : ''
  return `${kind} ${id}${at}: ${parts.join('; ')}.`
}
