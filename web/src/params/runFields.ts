/** The parameter panel's sections when nothing is selected: the run, and each background source. */
import type { EngineInfo } from '../scenario/engineInfo'
import { getPath, isObject, type JsonObject } from '../scenario/paths'
import { type NumberField, numberOf, type Section, safeId, UNSET_TEXT } from './field'

/** The run's own settings (stop time, seed, …). */
export function runSection(scenario: JsonObject, info: EngineInfo): Section {
  const run = getPath(scenario, 'run')
  const fields = info.params('run').map((spec): NumberField => {
    const own = isObject(run) ? numberOf(run[spec.key]) : undefined
    return {
      type: 'number',
      id: `run-${spec.key}`,
      spec,
      value: own ?? spec.default,
      origin: own !== undefined ? 'set' : 'default',
      originText: own !== undefined ? 'set in this scenario' : 'default',
      softMax: spec.key === 'seed' ? 1000 : spec.key === 'until_ms' ? 10_000 : undefined,
      assign: (v) => [{ path: `run.${spec.key}`, value: v }],
    }
  })
  return {
    id: 'run',
    title: 'Run',
    note: 'Select a node, link or VC to see its parameters.',
    fields,
  }
}

/** One section per background source, titled with its kind and route. */
export function backgroundSections(scenario: JsonObject, info: EngineInfo): Section[] {
  const sources = Array.isArray(scenario.background) ? scenario.background.filter(isObject) : []
  return sources.map((bg) => {
    const id = String(bg.id)
    const fields = info.params('background').map((spec): NumberField => {
      const own = numberOf(bg[spec.key])
      return {
        type: 'number',
        id: `bg-${safeId(id)}-${spec.key}`,
        spec,
        value: own ?? spec.default,
        origin: own !== undefined ? 'set' : 'default',
        originText: own !== undefined ? `set on ${id}` : 'default',
        unsetText: UNSET_TEXT[spec.key],
        assign: (v) => [{ path: `background.${id}.${spec.key}`, value: v }],
        clear:
          own !== undefined && spec.default === null
            ? [{ path: `background.${id}.${spec.key}`, value: undefined }]
            : undefined,
      }
    })
    const route = Array.isArray(bg.path) ? bg.path.join('→') : ''
    return {
      id: `bg-${safeId(id)}`,
      title: `Background ${String(bg.kind ?? 'cbr').toUpperCase()} ${id} (${route})`,
      fields,
    }
  })
}
