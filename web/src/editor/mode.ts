/**
 * What a click on the drawing does: select, pick the ends of a new link, or pick a new VC's path
 * node by node; the hint each mode shows, and the step a picked node makes in a VC's path.
 */
import type { DocLink, DocNode } from '../scenario/doc'
import type { JsonObject } from '../scenario/paths'
import { shortestSwitchPath } from './ops'

/** The editor's mode. */
export type Mode =
  | { kind: 'select' }
  | { kind: 'link'; from: string | null }
  | { kind: 'vc'; path: string[] }

/** What to do in a mode, in a sentence. */
export function modeHint(mode: Mode): string {
  switch (mode.kind) {
    case 'select':
      return 'Drag a node to move it; click a node, a link or a VC button to see its parameters.'
    case 'link':
      return mode.from === null
        ? 'New link: pick the first node.'
        : `New link from ${mode.from}: pick the node to join it to (Esc cancels).`
    case 'vc':
      return mode.path.length === 0
        ? 'New VC: pick the source host.'
        : `New VC ${mode.path.join('→')}: pick the next switch, or the destination host (the shortest way there is filled in). Backspace takes a step back, Esc cancels.`
  }
}

/** A picked node's step in a VC's path: refused (why), a longer path, or the whole path done. */
export type VcStep = { refuse: string } | { path: string[] } | { done: string[] }

/**
 * A VC's path `path` with `node` picked next: a path starts at a host, never loops, goes on by a
 * link to a switch, and ends at a host by the shortest way through switches.
 */
export function vcStep(
  scenario: JsonObject,
  links: readonly DocLink[],
  path: readonly string[],
  node: DocNode,
): VcStep {
  if (path.length === 0) {
    if (node.kind !== 'host') return { refuse: `${node.id} is a switch: a VC starts at a host.` }
    return { path: [node.id] }
  }
  if (path.includes(node.id))
    return { refuse: `${node.id} is already on the path: a path may not loop.` }
  const last = path[path.length - 1]
  if (node.kind === 'switch') {
    if (
      links.every((l) => !((l.a === last && l.b === node.id) || (l.b === last && l.a === node.id)))
    ) {
      return { refuse: `No link joins ${last} and ${node.id}.` }
    }
    return { path: [...path, node.id] }
  }
  // A host ends the path; fill in the shortest way through switches if it is not adjacent.
  const way = shortestSwitchPath(scenario, last, node.id, path.slice(0, -1))
  if (way === null)
    return { refuse: `No way through switches leads from ${last} to ${node.id}: add links first.` }
  return { done: [...path, ...way.slice(1)] }
}
