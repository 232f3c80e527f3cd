/** The parameter panel's sections for a VC: its ABR parameters and start-up, then its traffic. */
import { findById } from '../scenario/doc'
import type { EngineInfo } from '../scenario/engineInfo'
import { getPath, isObject, type JsonObject } from '../scenario/paths'
import {
  type ChoiceField,
  jsonValue,
  type NumberField,
  numberOf,
  type Section,
  safeId,
  UNSET_TEXT,
} from './field'

/** A VC's sections: its ABR parameters and start-up option, then its traffic model and knobs. */
export function vcFields(scenario: JsonObject, info: EngineInfo, vcId: string): Section[] {
  const vc = findById(scenario, 'vcs', vcId)
  if (!vc) return []
  const defaults = getPath(scenario, 'defaults.vc')
  const vcIds = (Array.isArray(scenario.vcs) ? scenario.vcs : [])
    .filter(isObject)
    .map((v) => String(v.id))
  const untilMs =
    numberOf(getPath(scenario, 'run.until_ms')) ??
    info.param('run', 'until_ms')?.default ??
    undefined

  const at = `vcs.${vcId}`
  const abr: NumberField[] = info.params('vc').map((spec) => {
    const own = numberOf(vc[spec.key])
    const inherited = isObject(defaults) ? numberOf(defaults[spec.key]) : undefined
    let value: number | null = own ?? inherited ?? spec.default
    let originText =
      own !== undefined
        ? `set on ${vcId}`
        : inherited !== undefined
          ? 'from the scenario’s VC defaults'
          : 'default'
    if (value === null && spec.key === 'icr_mbps') {
      // Table 1: ICR defaults to PCR.
      value =
        numberOf(vc.pcr_mbps) ??
        (isObject(defaults) ? numberOf(defaults.pcr_mbps) : undefined) ??
        info.param('vc', 'pcr_mbps')?.default ??
        null
      originText = 'default: PCR'
    }
    return {
      type: 'number',
      id: `vc-${safeId(vcId)}-${spec.key}`,
      spec,
      value,
      origin: own !== undefined ? 'set' : inherited !== undefined ? 'inherited' : 'default',
      originText,
      unsetText: UNSET_TEXT[spec.key],
      assign: (v) => [{ path: `${at}.${spec.key}`, value: jsonValue(spec, v) }],
      clear: own !== undefined ? [{ path: `${at}.${spec.key}`, value: undefined }] : undefined,
      applyAll:
        vcIds.length > 1
          ? (v) => vcIds.map((id) => ({ path: `vcs.${id}.${spec.key}`, value: jsonValue(spec, v) }))
          : undefined,
    }
  })

  const startupOptions = info.choices.startup
  const startup: ChoiceField = {
    type: 'choice',
    id: `vc-${safeId(vcId)}-startup`,
    label: 'Start-up option',
    doc: 'How the source picks its initial rate (Ma & Ramakrishnan §3): ATM Forum uses the static ICR; RATE takes the max-min share computed as set-up crosses the switches; RM also has the switches allocate at set-up.',
    options: startupOptions,
    value:
      typeof vc.startup === 'string'
        ? vc.startup
        : startupOptions.includes('atm_forum')
          ? 'atm_forum'
          : startupOptions[0],
    live: false,
    assign: (v) => [{ path: `${at}.startup`, value: v }],
  }

  const traffic = isObject(vc.traffic) ? vc.traffic : {}
  const kind = typeof traffic.kind === 'string' ? traffic.kind : 'persistent'
  const trafficKind: ChoiceField = {
    type: 'choice',
    id: `vc-${safeId(vcId)}-traffic-kind`,
    label: 'Traffic model',
    doc: 'What the application offers the source: always data, a start/stop window, a rate cap, bursts, or request–response.',
    options: info.choices.traffic,
    value: kind,
    live: false,
    assign: (v) => {
      // A new model keeps the source's start and stop times; its own knobs start at their defaults.
      const next: JsonObject = { kind: v }
      if (traffic.start_ms !== undefined) next.start_ms = traffic.start_ms
      if (traffic.stop_ms !== undefined) next.stop_ms = traffic.stop_ms
      return [{ path: `${at}.traffic`, value: next }]
    },
  }
  const trafficKeys = info.choices.trafficKeys[kind] ?? []
  const trafficFields: NumberField[] = info
    .params('traffic')
    .filter((spec) => trafficKeys.includes(spec.key))
    .map((spec) => {
      const own = numberOf(traffic[spec.key])
      const path = `traffic.${spec.key}`
      return {
        type: 'number',
        id: `vc-${safeId(vcId)}-traffic-${spec.key}`,
        spec,
        value: own ?? spec.default,
        origin: own !== undefined ? 'set' : 'default',
        originText: own !== undefined ? `set on ${vcId}` : 'default',
        unsetText: UNSET_TEXT[spec.key],
        softMax: spec.unit === 'ms' && untilMs !== undefined ? untilMs : undefined,
        assign: (v) => [{ path: `${at}.${path}`, value: v }],
        clear:
          own !== undefined && (spec.default === null || spec.key === 'stop_ms')
            ? [{ path: `${at}.${path}`, value: undefined }]
            : undefined,
      }
    })

  return [
    { id: 'abr', title: `ABR parameters of ${vcId}`, fields: [...abr, startup] },
    { id: 'traffic', title: `Traffic of ${vcId}`, fields: [trafficKind, ...trafficFields] },
  ]
}
