/**
 * A small window API for the end-to-end tests (and for poking at a run from the console):
 * `window.__abrlab.series('vc.vc1.acr')` and friends. Read-only; it never drives the page.
 */
import type { Layout } from '../engine/layout'
import type { RunStatus } from '../engine/protocol'
import type { Lab } from '../lab/lab'
import { errorText } from './ErrorPanel'

export interface AbrLabTestApi {
  /** Rows of samples received in the current run. */
  sampleCount(): number
  /** Sample column names, in engine order. */
  columns(): string[]
  /** One column's values so far, as a plain array; throws for an unknown column. */
  series(name: string): number[]
  status(): RunStatus
  /** Simulated time of the last message from the engine, in ms. */
  nowMs(): number
  layout(): Layout | null
  /** The error the page shows, as text, or null. */
  error(): string | null
  /** The scenario document as edited, or null before one is open. */
  scenario(): unknown
}

declare global {
  interface Window {
    __abrlab?: AbrLabTestApi
  }
}

/** Installs the API, reading the Lab's state on every call. */
export function installTestApi(lab: Lab): () => void {
  const run = () => lab.run.get()
  window.__abrlab = {
    sampleCount: () => run().store?.rowCount ?? 0,
    columns: () => [...(run().store?.columns ?? [])],
    series: (name) => {
      const store = run().store
      return store ? Array.from(store.series(name)) : []
    },
    status: () => run().status,
    nowMs: () => run().nowMs,
    layout: () => run().layout,
    error: () => {
      const notice = lab.get().notice
      return errorText(run().error ?? (notice ? { ...notice, offerDefault: false } : null))
    },
    scenario: () => structuredClone(lab.get().scenario ?? null),
  }
  return () => {
    delete window.__abrlab
  }
}
