/**
 * The parameter guide of Fahmy, Jain, Goyal & Vandalore, "ABR Engineering: Roles and
 * Guidelines for Setting ABR Parameters", computed for the current topology, VC by VC:
 *
 * - inter-RM cell time Nrm/PCR for each allowed Nrm (§4.2.1, Table 2);
 * - Trm ≈ c/PCR with c = 10⁶/27, i.e. 100 ms at OC-3's 2.7 µs per cell (§4.2.2);
 * - CRM ≥ FRTT·PCR/Nrm, so that rule 6 does not cut a source whose path is simply long (§6.2.1);
 * - ICR ≤ TBE/FRTT: a source starts at min(ICR, TBE/FRTT) (§6.1.2, rule 2);
 * - ADTF larger than the round-trip time, or rule 5 cuts the rate for nothing (§6.2.3);
 * - TBE ≈ PCR·FRTT + the buffers on the path (§6.2.1), for reference.
 *
 * FRTT is the fixed round-trip time the engine accumulates at set-up: twice the propagation
 * delay of every link on the VC's path (sim-core sim.rs).
 */
import type { Layout, LayoutVc } from '../engine/layout'

/** 424 bits per cell. */
const CELL_BITS = 424
/** Fahmy et al. §4.2.2: c = 1,000,000/27, chosen so that Trm = 100 ms at OC-3. */
export const TRM_C = 1_000_000 / 27
/** TM 4.0's ceiling on Trm (Table 1: 100 × 2^k ms, k = −7..0). */
export const TRM_MAX_MS = 100
/** Nrm values TM 4.0 allows (powers of two 2..256). */
export const NRM_VALUES = [2, 4, 8, 16, 32, 64, 128, 256] as const
/** A Trm this many times off the guideline is flagged. */
export const TRM_TOLERANCE = 2

export interface RegistryDefault {
  key: string
  scope: string
  default: number | null
}

/** The ABR parameters a VC runs with, resolved as the engine does: VC, then defaults.vc, then the registry. */
export interface VcParams {
  pcrMbps: number
  icrMbps: number
  nrm: number
  trmMs: number
  adtfS: number
  tbeCells: number
  cdf: number
  /** Rule 6's count when set directly; null means ⌈TBE/Nrm⌉. */
  crm: number | null
}

export type Verdict = 'ok' | 'warn' | 'info'

export interface GuideCheck {
  id: 'crm' | 'icr' | 'trm' | 'adtf' | 'tbe'
  title: string
  formula: string
  /** What the guideline asks for, with numbers. */
  guideline: string
  /** What the scenario sets. */
  current: string
  verdict: Verdict
  /** Why it matters when it is broken, or what happens. */
  note: string
}

export interface VcGuide {
  vcs: string[]
  params: VcParams
  frttMs: number
  pcrCellsPerS: number
  /** Nrm/PCR for each allowed Nrm, in ms. */
  interRm: { nrm: number; ms: number; current: boolean }[]
  checks: GuideCheck[]
}

type JsonObject = Record<string, unknown>

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

/** Resolves each forward VC's parameters from the scenario file and the registry's defaults. */
export function resolveParams(
  scenarioJson: string,
  layout: Layout,
  registry: readonly RegistryDefault[],
): Map<string, VcParams> {
  const scenario = JSON.parse(scenarioJson) as JsonObject
  const defaults =
    ((scenario.defaults as JsonObject | undefined)?.vc as JsonObject | undefined) ?? {}
  const items = Array.isArray(scenario.vcs) ? (scenario.vcs as JsonObject[]) : []
  const builtin = (key: string) =>
    registry.find((p) => p.scope === 'vc' && p.key === key)?.default ?? undefined
  const out = new Map<string, VcParams>()
  for (const vc of layout.vcs.filter((v) => !v.reverse_of)) {
    const own = items.find((i) => i.id === vc.id) ?? {}
    const pick = (key: string) => num(own[key]) ?? num(defaults[key]) ?? builtin(key) ?? undefined
    const pcr = vc.pcr_mbps ?? pick('pcr_mbps') ?? Math.min(...layout.links.map((l) => l.rate_mbps))
    out.set(vc.id, {
      pcrMbps: pcr,
      // Table 1: ICR defaults to PCR; the engine negotiates PCR down, and ICR never exceeds it.
      icrMbps: Math.min(pcr, pick('icr_mbps') ?? pcr),
      nrm: pick('nrm') ?? 32,
      trmMs: pick('trm_ms') ?? TRM_MAX_MS,
      adtfS: pick('adtf_s') ?? 0.5,
      tbeCells: pick('tbe_cells') ?? 16_777_215,
      cdf: pick('cdf') ?? 1 / 16,
      crm: num(own.crm) ?? num(defaults.crm) ?? null,
    })
  }
  return out
}

/** Twice the propagation delay of every link along the path, in ms. */
export function frttMs(layout: Pick<Layout, 'links'>, vc: Pick<LayoutVc, 'path'>): number {
  let oneWay = 0
  for (let i = 1; i < vc.path.length; i++) {
    const [a, b] = [vc.path[i - 1], vc.path[i]]
    const link = layout.links.find((l) => (l.a === a && l.b === b) || (l.a === b && l.b === a))
    if (link) oneWay += link.delay_ms
  }
  return 2 * oneWay
}

/** Buffers of the switch ports a VC's cells queue at, in cells. */
function pathBuffers(layout: Layout, vc: LayoutVc): number {
  let sum = 0
  for (let i = 1; i < vc.path.length; i++) {
    const port = layout.ports.find((p) => p.from === vc.path[i - 1] && p.to === vc.path[i])
    if (port && port.from_kind === 'switch' && port.buffer_cells !== undefined)
      sum += port.buffer_cells
  }
  return sum
}

export function mbpsToCellsPerS(mbps: number): number {
  return (mbps * 1e6) / CELL_BITS
}

export function cellsPerSToMbps(cps: number): number {
  return (cps * CELL_BITS) / 1e6
}

/** "86.4 µs", "8.6 ms", "2.3 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '∞'
  if (ms < 1) return `${Number((ms * 1000).toPrecision(3))} µs`
  if (ms < 1000) return `${Number(ms.toPrecision(3))} ms`
  return `${Number((ms / 1000).toPrecision(3))} s`
}

/** "150 Mbit/s", "0.1 Mbit/s", "237,100 Mbit/s": four significant digits, thousands grouped. */
function formatMbps(mbps: number): string {
  return `${Number(mbps.toPrecision(4)).toLocaleString('en', { maximumFractionDigits: 20 })} Mbit/s`
}

function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en')
}

/** The guide for one VC's parameters on its path. */
export function guideFor(params: VcParams, frtt: number, buffers: number): Omit<VcGuide, 'vcs'> {
  const pcrCps = mbpsToCellsPerS(params.pcrMbps)
  const frttS = frtt / 1000
  const interRm = NRM_VALUES.map((nrm) => ({
    nrm,
    ms: (nrm / pcrCps) * 1000,
    current: nrm === params.nrm,
  }))
  const checks: GuideCheck[] = []

  // §6.2.1: CRM ≥ FRTT·PCR/Nrm.
  const crmNeeded = Math.ceil((frttS * pcrCps) / params.nrm)
  const crm = params.crm ?? Math.max(1, Math.ceil(params.tbeCells / params.nrm))
  const crmSource =
    params.crm === null
      ? `⌈TBE/Nrm⌉ = ⌈${formatCount(params.tbeCells)}/${params.nrm}⌉`
      : 'set directly'
  checks.push({
    id: 'crm',
    title: 'Missing-RM count',
    formula: 'CRM ≥ FRTT·PCR/Nrm',
    guideline: `CRM ≥ ${formatDuration(frtt)} × ${formatCount(pcrCps)} cells/s ÷ ${params.nrm} = ${formatCount(crmNeeded)}`,
    current: `CRM = ${formatCount(crm)} (${crmSource})`,
    verdict: params.cdf === 0 ? 'info' : crm >= crmNeeded ? 'ok' : 'warn',
    note:
      params.cdf === 0
        ? 'CDF is 0, so rule 6 is off and CRM does not matter.'
        : crm >= crmNeeded
          ? 'Enough RM cells may be out for the whole round trip: rule 6 only cuts when feedback really stops.'
          : `Fewer RM cells than a round trip holds: rule 6 will cut ACR by CDF while the feedback is merely on its way (Fahmy et al. Figure 10). Raise CRM (or TBE) to ${formatCount(crmNeeded)}.`,
  })

  // §6.1.2: ICR ≤ TBE/FRTT.
  const icrBoundMbps = frttS > 0 ? cellsPerSToMbps(params.tbeCells / frttS) : Infinity
  checks.push({
    id: 'icr',
    title: 'Initial cell rate',
    formula: 'ICR ≤ TBE/FRTT',
    guideline: `ICR ≤ ${formatCount(params.tbeCells)} cells ÷ ${formatDuration(frtt)} = ${Number.isFinite(icrBoundMbps) ? formatMbps(icrBoundMbps) : 'no bound'}`,
    current: `ICR = ${formatMbps(params.icrMbps)}`,
    verdict: params.icrMbps <= icrBoundMbps ? 'ok' : 'warn',
    note:
      params.icrMbps <= icrBoundMbps
        ? 'The first round trip puts at most TBE cells into the network.'
        : `ICR is above TBE/FRTT: by rule 2 the source starts at ${formatMbps(icrBoundMbps)} instead of ${formatMbps(params.icrMbps)}.`,
  })

  // §4.2.2: Trm ≈ c/PCR.
  const trmGuideMs = Math.min(TRM_MAX_MS, (TRM_C / pcrCps) * 1000)
  const ratio = params.trmMs / trmGuideMs
  const trmOk = ratio <= TRM_TOLERANCE && ratio >= 1 / TRM_TOLERANCE
  checks.push({
    id: 'trm',
    title: 'Upper bound on inter-FRM time',
    formula: 'Trm ≈ c/PCR, c = 10⁶/27',
    guideline: `Trm ≈ ${formatCount(TRM_C)} ÷ ${formatCount(pcrCps)} cells/s = ${formatDuration((TRM_C / pcrCps) * 1000)}${(TRM_C / pcrCps) * 1000 > TRM_MAX_MS ? ` (TM 4.0 allows at most ${TRM_MAX_MS} ms)` : ''}`,
    current: `Trm = ${formatDuration(params.trmMs)}`,
    verdict: trmOk ? 'ok' : 'warn',
    note: trmOk
      ? 'A low-rate source still senses the network often enough, without needless RM cells.'
      : ratio > 1
        ? `Trm is ${ratio.toFixed(1)}× the guideline: a source held at a low rate waits long for its next FRM and reacts late when capacity frees up (Fahmy et al. Figure 6).`
        : `Trm is ${(1 / ratio).toFixed(1)}× below the guideline: low-rate sources spend much of their rate on RM cells.`,
  })

  // §6.2.3: ADTF > RTT.
  const adtfMs = params.adtfS * 1000
  checks.push({
    id: 'adtf',
    title: 'ACR decrease time factor',
    formula: 'ADTF > RTT',
    guideline: `ADTF > FRTT = ${formatDuration(frtt)}`,
    current: `ADTF = ${formatDuration(adtfMs)}`,
    verdict: adtfMs > frtt ? 'ok' : 'warn',
    note:
      adtfMs > frtt
        ? 'A source that keeps sending never has its rate reset by rule 5.'
        : 'ADTF is not longer than the round trip: rule 5 resets ACR to ICR between RM cells that are merely in flight.',
  })

  // §6.2.1: TBE ≈ PCR·FRTT + Σ buffers (for reference).
  const tbeGuide = pcrCps * frttS + buffers
  checks.push({
    id: 'tbe',
    title: 'Transient buffer exposure',
    formula: 'TBE ≈ PCR·FRTT + Σ buffers on the path',
    guideline: `${formatCount(pcrCps * frttS)} cells in flight + ${formatCount(buffers)} buffered = ${formatCount(tbeGuide)} cells`,
    current: `TBE = ${formatCount(params.tbeCells)} cells`,
    verdict: 'info',
    note: 'TBE bounds what a new or idle source may send before feedback; it does not bound the queue once the loop is closed (§6.2.1).',
  })

  return { params, frttMs: frtt, pcrCellsPerS: pcrCps, interRm, checks }
}

/** The guide for every forward VC, VCs with identical figures grouped. */
export function parameterGuide(
  scenarioJson: string,
  layout: Layout,
  registry: readonly RegistryDefault[],
): VcGuide[] {
  const params = resolveParams(scenarioJson, layout, registry)
  const groups = new Map<string, VcGuide>()
  for (const vc of layout.vcs.filter((v) => !v.reverse_of)) {
    const p = params.get(vc.id)
    if (!p) continue
    const frtt = frttMs(layout, vc)
    const buffers = pathBuffers(layout, vc)
    const key = JSON.stringify([p, frtt, buffers])
    const existing = groups.get(key)
    if (existing) existing.vcs.push(vc.id)
    else groups.set(key, { vcs: [vc.id], ...guideFor(p, frtt, buffers) })
  }
  return [...groups.values()]
}
