/**
 * The About tab's table of the scenario's paper claims (scenarios/README.md, "Paper claims"), judged on the run that is
 * playing: paper | this run | holds?, each claim ✓ or ✗ once its windows have passed and "pending"
 * before. The engine judges (see claims.ts); this only shows its answer.
 */
import { memo, useEffect, useMemo, useState } from 'react'
import type { SampleStore } from '../engine/samples'
import type { JsonObject } from '../scenario/paths'
import {
  ClaimJudge,
  claimTotals,
  loadClaimCheck,
  verdict,
  type ClaimCheckCtor,
  type ClaimRow,
} from './claims'

interface ClaimsTableProps {
  scenario: JsonObject
  store: SampleStore | null
  nowMs: number
  /** Bumped when new samples arrived. */
  revision: number
}

export const ClaimsTable = memo(function ClaimsTable({
  scenario,
  store,
  nowMs,
  revision,
}: ClaimsTableProps) {
  const [Check, setCheck] = useState<ClaimCheckCtor | null>(null)
  useEffect(() => {
    let live = true
    void loadClaimCheck().then((ctor) => live && setCheck(() => ctor))
    return () => {
      live = false
    }
  }, [])
  const hasClaims = Array.isArray(scenario.claims) && scenario.claims.length > 0
  const judge = useMemo((): ClaimJudge | string | null => {
    if (!Check || !store || !hasClaims) return null
    try {
      return new ClaimJudge(Check, JSON.stringify(scenario), store.columns)
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }, [Check, store, scenario, hasClaims])
  useEffect(() => () => (judge instanceof ClaimJudge ? judge.dispose() : undefined), [judge])
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutated in place; a new revision means new rows
  const rows = useMemo(
    () => (judge instanceof ClaimJudge && store ? judge.judge(store, nowMs) : []),
    [judge, store, nowMs, revision],
  )
  if (!hasClaims) return null
  const totals = claimTotals(rows)
  return (
    <section className="claims" aria-label="Paper claims">
      <h2>What the paper says, and this run</h2>
      {typeof judge === 'string' && (
        <p className="claims-error">The claims cannot be checked: {judge}</p>
      )}
      {rows.length > 0 && (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Claim</th>
                <th scope="col">Paper</th>
                <th scope="col">This run</th>
                <th scope="col">Holds?</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <ClaimLine key={row.id} row={row} />
              ))}
            </tbody>
          </table>
          <p className="claims-totals" data-testid="claims-totals">
            {totals.held + totals.now_holds} held, {totals.expected_fail} expected to fail,{' '}
            {totals.failing} failing
            {totals.pending > 0 && `, ${totals.pending} pending`}
            {totals.other_variant > 0 && `, ${totals.other_variant} about other variants`}
          </p>
        </>
      )}
    </section>
  )
})

function ClaimLine({ row }: { row: ClaimRow }) {
  const shown = row.status === 'pending' || row.status === 'other_variant' ? '—' : row.value_text
  return (
    <tr data-testid={`claim-${row.id}`} data-status={row.status} className={`claim ${row.status}`}>
      <td>
        <p className="claim-quote">
          {row.quote}
          {row.variant && <span className="claim-variant"> · {row.variant}</span>}
        </p>
        {row.reason && <p className="claim-reason">Why not: {row.reason}</p>}
      </td>
      <td>{row.paper_text}</td>
      <td>{shown}</td>
      <td title={row.status === 'pending' ? `due at ${row.due_ms} ms` : undefined}>
        {verdict(row)}
      </td>
    </tr>
  )
}
