/**
 * A node's output ports in the order a person looks for them: bottleneck-first, the port most of
 * the node's VCs leave by (toward the network) before the ports that only carry their backward RM
 * cells to the hosts; each named by where it leads and its link ("SW1 → SW2 (l3)").
 */
import { docLinks, docNodes, docVcs } from '../scenario/doc'
import type { JsonObject } from '../scenario/paths'

export type Direction = 'a_to_b' | 'b_to_a'

export interface NodePort {
  linkId: string
  dir: Direction
  from: string
  to: string
  /** How many VCs send their data through this port (their path goes from `from` to `to`). */
  vcs: number
}

/** "SW1 → SW2 (l3)": where a port leads and on which link. */
export function portName(from: string, to: string, linkId: string): string {
  return `${from} → ${to} (${linkId})`
}

/** Forward VC count of every hop `from→to` of the scenario's VC paths. */
function hopCounts(scenario: JsonObject): Map<string, number> {
  const counts = new Map<string, number>()
  for (const vc of docVcs(scenario))
    for (let i = 0; i + 1 < vc.path.length; i++) {
      const hop = `${vc.path[i]}\u0000${vc.path[i + 1]}`
      counts.set(hop, (counts.get(hop) ?? 0) + 1)
    }
  return counts
}

/**
 * The output ports of the links given (every link's port away from `nodeId` when it is given,
 * both ports of each link when not), bottleneck-first: most VCs first, then ports toward a switch
 * before ports toward a host, then the scenario's order.
 */
export function orderedPorts(
  scenario: JsonObject,
  linkIds: readonly string[] | null,
  nodeId?: string,
): NodePort[] {
  const counts = hopCounts(scenario)
  const switches = new Set(
    docNodes(scenario)
      .filter((n) => n.kind === 'switch')
      .map((n) => n.id),
  )
  const ports: NodePort[] = []
  for (const link of docLinks(scenario)) {
    if (linkIds !== null && !linkIds.includes(link.id)) continue
    for (const [dir, from, to] of [
      ['a_to_b', link.a, link.b],
      ['b_to_a', link.b, link.a],
    ] as const) {
      if (nodeId !== undefined && from !== nodeId) continue
      const vcs = counts.get(`${from}\u0000${to}`) ?? 0
      ports.push({ linkId: link.id, dir, from, to, vcs })
    }
  }
  const rank = (p: NodePort) => (switches.has(p.to) ? 0 : 1)
  return ports
    .map((port, index) => ({ port, index }))
    .sort((x, y) => y.port.vcs - x.port.vcs || rank(x.port) - rank(y.port) || x.index - y.index)
    .map(({ port }) => port)
}
