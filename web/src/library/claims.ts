/**
 * A scenario's paper claims judged on the run that is playing (scenarios/README.md, "Paper claims"). The judging is the
 * engine's (`ClaimCheck` in the wasm module: the same evaluator as `abrsim check` and the cargo
 * test); this file only hands it the sample columns it asks for and reads its answer.
 */
import type { SampleStore } from '../engine/samples'

/** One claim and how it stands, as `ClaimCheck.evaluate` reports it. */
export interface ClaimRow {
  scenario: string
  id: string
  quote: string
  metric: string
  variant: string | null
  paper_text: string
  value: number | null
  value_text: string
  /** Null while pending or when the claim is about another variant. */
  holds: boolean | null
  expected: boolean
  reason: string | null
  status: 'pending' | 'held' | 'failing' | 'expected_fail' | 'now_holds' | 'other_variant'
  /** Simulated time after which the claim's windows have all passed. */
  due_ms: number
}

/** What the wasm module offers for this (sim-wasm `ClaimCheck`). */
export interface ClaimCheckHandle {
  columns(): string
  evaluate(rows: Float64Array, nowMs: number): string
  free(): void
}
export type ClaimCheckCtor = new (scenarioJson: string, columnsJson: string) => ClaimCheckHandle

/** Judges one scenario's claims against one run's samples; keeps the engine handle between calls. */
export class ClaimJudge {
  private readonly handle: ClaimCheckHandle
  /** Columns the engine reads, `t_ms` first. */
  readonly columns: readonly string[]

  /** Throws the engine's message when the scenario's claims cannot be read against these columns. */
  constructor(Check: ClaimCheckCtor, scenarioJson: string, runColumns: readonly string[]) {
    try {
      this.handle = new Check(scenarioJson, JSON.stringify(runColumns))
    } catch (error) {
      throw new Error(readEngineError(error))
    }
    this.columns = JSON.parse(this.handle.columns()) as string[]
  }

  /** Every claim at simulated time `nowMs`, from the store's rows so far. */
  judge(store: SampleStore, nowMs: number): ClaimRow[] {
    const series = this.columns.map((c) => store.series(c))
    const n = series.length > 0 ? Math.min(...series.map((s) => s.length)) : 0
    const width = this.columns.length
    const rows = new Float64Array(n * width)
    for (let r = 0; r < n; r++) for (let c = 0; c < width; c++) rows[r * width + c] = series[c][r]
    return JSON.parse(this.handle.evaluate(rows, nowMs)) as ClaimRow[]
  }

  dispose(): void {
    this.handle.free()
  }
}

/** The engine's error JSON (`{ok:false, errors:[{path, message}]}`) as one line of text. */
function readEngineError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  try {
    const parsed = JSON.parse(text) as { errors?: { path: string; message: string }[] }
    if (parsed.errors)
      return parsed.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')
  } catch {
    // not JSON: the text as it is
  }
  return text
}

/** Counts for the table's foot line. */
export function claimTotals(rows: readonly ClaimRow[]): Record<ClaimRow['status'], number> {
  const totals = {
    pending: 0,
    held: 0,
    failing: 0,
    expected_fail: 0,
    now_holds: 0,
    other_variant: 0,
  }
  for (const r of rows) totals[r.status]++
  return totals
}

/** The verdict column: ✓ / ✗ once a claim's windows have passed, "pending" before. */
export function verdict(row: ClaimRow): string {
  switch (row.status) {
    case 'held':
      return '✓'
    case 'now_holds':
      return '✓ (marked expected to fail)'
    case 'failing':
      return '✗'
    case 'expected_fail':
      return '✗ (expected)'
    case 'pending':
      return 'pending'
    case 'other_variant':
      return `variant ${row.variant ?? ''}`
  }
}

const loading = new Map<string, Promise<ClaimCheckCtor>>()

/**
 * A judge class of the wasm module on the page's thread (the module scenario/engineInfo.ts also
 * uses): `ClaimCheck` for the paper claims, `QuestionCheck` for a lecture's questions.
 */
export function loadCheck(name: 'ClaimCheck' | 'QuestionCheck'): Promise<ClaimCheckCtor> {
  let ctor = loading.get(name)
  if (!ctor) {
    ctor = import('../engine/pkg/sim_wasm.js').then(async (mod) => {
      await mod.default()
      return mod[name] as unknown as ClaimCheckCtor
    })
    loading.set(name, ctor)
  }
  return ctor
}

/** The wasm module's `ClaimCheck` on the page's thread. */
export function loadClaimCheck(): Promise<ClaimCheckCtor> {
  return loadCheck('ClaimCheck')
}
