/** The engine's description of a built scenario (`Engine.layout()`), as the UI reads it. */

import type { Layout, LayoutPort } from './generated/engine-types'

// The layout types are generated from the engine's Rust structs (sim-core `session/layout.rs`).
export type {
  Layout,
  LayoutBackground,
  LayoutFlow,
  LayoutLink,
  LayoutNode,
  LayoutPort,
  LayoutVc,
  NodeKind,
  ScenarioInfo,
} from './generated/engine-types'

/** Column names of the per-VC and per-port series; use these, never fixed indices. */
export const column = {
  time: 't_ms',
  acr: (vc: string) => `vc.${vc}.acr`,
  acrMean: (vc: string) => `vc.${vc}.acr_mean`,
  maxmin: (vc: string) => `vc.${vc}.maxmin`,
  received: (vc: string) => `vc.${vc}.received`,
  sent: (vc: string) => `vc.${vc}.sent`,
  queue: (port: string) => `port.${port}.queue`,
  queueMean: (port: string) => `port.${port}.queue_mean`,
  queueMax: (port: string) => `port.${port}.queue_max`,
  util: (port: string) => `port.${port}.util`,
  lost: (port: string) => `port.${port}.lost`,
  /** 1 while the VC's source has data to send, else 0. */
  active: (vc: string) => `vc.${vc}.active`,
  /** Jain's index of the active VCs' mean ACR over their max-min shares, 0..1 (packet model: Pletka et al.'s weighted index). */
  fairness: 'fairness',
  /** Packet model: a traffic class's throughput, Mbit/s. */
  classThroughput: (c: string) => `class.${c}.throughput_mbps`,
  /** Packet model: the BAT's reference rate for a class, Mbit/s. */
  classReference: (c: string) => `aqm.${c}.reference_mbps`,
  /** Packet model: UDP over TCP serviced rate, and CLCC's D_UDP. */
  ratio: 'ratio',
  dUdp: 'd_udp',
} as const

/** True for a packet-level (IP) layout. */
export function isPacketModel(layout: Pick<Layout, 'model'>): boolean {
  return layout.model === 'ip'
}

/** A short human name for a port: the direction of traffic it queues, e.g. "SW1→SW2". */
/** Whether a node (or a port's node) forwards traffic: a switch, or the packet model's router. */
export function forwards(kind: string): boolean {
  return kind === 'switch' || kind === 'router'
}

export function portLabel(port: LayoutPort): string {
  return `${port.from}→${port.to}`
}

/**
 * Parses `Engine.layout()` output, checking the fields the UI depends on so that an engine/UI
 * mismatch shows up as a readable message rather than as a blank chart.
 */
export function parseLayout(json: string): Layout {
  const value: unknown = JSON.parse(json)
  const problems: string[] = []
  const obj = value as Record<string, unknown>
  if (typeof value !== 'object' || value === null)
    throw new Error('engine layout is not a JSON object')
  for (const key of ['nodes', 'links', 'vcs', 'ports', 'columns'] as const) {
    if (!Array.isArray(obj[key])) problems.push(`layout.${key} is not an array`)
  }
  if (typeof obj.until_ms !== 'number') problems.push('layout.until_ms is not a number')
  if (typeof obj.scenario !== 'object' || obj.scenario === null)
    problems.push('layout.scenario is missing')
  if (Array.isArray(obj.columns) && obj.columns[0] !== column.time) {
    problems.push(
      `layout.columns[0] is ${JSON.stringify(obj.columns[0])}, expected "${column.time}"`,
    )
  }
  if (problems.length > 0) throw new Error(`unexpected engine layout: ${problems.join('; ')}`)
  const layout = value as Layout
  layout.scenario.things_to_try ??= []
  layout.background ??= []
  return layout
}
