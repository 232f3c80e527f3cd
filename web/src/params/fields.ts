/**
 * The parameter panel's contents for a selection, built from the engine's registry: one field per
 * registry entry of the selection's scope, with the value in force (set on the element, inherited
 * from `defaults`, or the registry default) and how to write a new one into the scenario. Nothing
 * here names a parameter or its range: a knob added to the registry appears in the panel.
 *
 * Where values live follows scenarios/README.md: VC parameters on the VC or in `defaults.vc`;
 * port settings on `links[i].a_to_b` / `b_to_a` over `defaults.switch_port` / `host_port`, an
 * `algorithm` object replacing the inherited one as a whole.
 */
import type { EngineInfo } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'
import type { Selection } from '../scenario/doc'
import type { Section } from './field'
import { linkSection, portSection } from './portFields'
import { orderedPorts } from './ports'
import { backgroundSections, runSection } from './runFields'
import { vcFields } from './vcFields'

/** Buffer sizes of ports as the engine built them, by port id (`l3`, `l3:rev`), for built-in defaults. */
export type PortBuffers = ReadonlyMap<string, number>

/** The panel's sections for a selection (null: the run and background sources). */
export function sectionsFor(
  scenario: JsonObject,
  info: EngineInfo,
  selection: Selection | null,
  buffers: PortBuffers = new Map(),
): Section[] {
  if (selection === null) return [runSection(scenario, info), ...backgroundSections(scenario, info)]
  switch (selection.kind) {
    case 'vc':
      return vcFields(scenario, info, selection.id)
    case 'link':
    case 'node': {
      // A link's two ports, or a node's output ports: bottleneck-first.
      const link = selection.kind === 'link' ? linkSection(scenario, info, selection.id) : null
      const ports = orderedPorts(
        scenario,
        selection.kind === 'link' ? [selection.id] : null,
        selection.kind === 'node' ? selection.id : undefined,
      ).map(({ linkId, dir }) =>
        portSection(
          scenario,
          info,
          linkId,
          dir,
          buffers.get(dir === 'a_to_b' ? linkId : `${linkId}:rev`),
        ),
      )
      return [link, ...ports].filter((s): s is Section => s !== null)
    }
  }
}
