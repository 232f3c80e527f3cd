/**
 * A small window API for the end-to-end tests (and for poking at a run from the console):
 * `window.__abrlab.series('vc.vc1.acr')` and friends. Read-only; it never drives the page.
 */
import type { Layout } from '../engine/layout'
import type { RunStatus } from '../engine/protocol'
import type { SampleStore } from '../engine/samples'

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

export interface TestApiSource {
  store: SampleStore | null
  layout: Layout | null
  status: RunStatus
  nowMs: number
  error: string | null
  scenario?: unknown
}

/** Installs the API, reading the latest page state through `current` on every call. */
export function installTestApi(current: () => TestApiSource): () => void {
  window.__abrlab = {
    sampleCount: () => current().store?.rowCount ?? 0,
    columns: () => [...(current().store?.columns ?? [])],
    series: (name) => {
      const store = current().store
      return store ? Array.from(store.series(name)) : []
    },
    status: () => current().status,
    nowMs: () => current().nowMs,
    layout: () => current().layout,
    error: () => current().error,
    scenario: () => structuredClone(current().scenario ?? null),
  }
  return () => {
    delete window.__abrlab
  }
}
