/** Small questions the Lab asks of a scenario document. */
import { docLinks, docNodes, docVcs } from '../scenario/doc'
import { isObject, type Json, type JsonObject, type LeafChange } from '../scenario/paths'
import type { Selection } from '../scenario/shareLink'

/** The document without what the engine does not use (positions, view state, the lecture). */
export function forEngine(scenario: JsonObject): JsonObject {
  // The view and the lecture (narrated stops, questions) never change the run.
  const { view: _view, stops: _stops, questions: _questions, ...rest } = scenario
  void [_view, _stops, _questions]
  const nodes = Array.isArray(rest.nodes)
    ? rest.nodes.map((n): Json => (isObject(n) ? { ...n, x: 0, y: 0 } : n))
    : rest.nodes
  return { ...rest, nodes }
}

/** True when the engine would build the same run from both documents. */
export function sameForEngine(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(forEngine(a)) === JSON.stringify(forEngine(b))
}

/** A value the engine reads (not the view, not a node's position, not the lecture). */
export function engineReads(change: LeafChange): boolean {
  return !/^(view|nodes|stops|questions)(\.|$)/.test(change.path)
}

/** A selection that still names something in the scenario, else null. */
export function validSelection(
  scenario: JsonObject,
  selection: Selection | null | undefined,
): Selection | null {
  if (!selection) return null
  const ids =
    selection.kind === 'node'
      ? docNodes(scenario).map((n) => n.id)
      : selection.kind === 'link'
        ? docLinks(scenario).map((l) => l.id)
        : docVcs(scenario).map((v) => v.id)
  return ids.includes(selection.id) ? selection : null
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}
