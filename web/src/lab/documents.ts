/** Small questions the Lab asks of a scenario document. */
import { docLinks, docNodes, docVcs, type Selection } from '../scenario/doc'
import type { JsonObject } from '../scenario/paths'

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
