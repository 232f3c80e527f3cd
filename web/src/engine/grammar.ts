/**
 * The scenario path grammar and the sweep figures, answered by the engine itself so the page and
 * `abrsim` cannot drift apart: `--set` paths and values (sim-core `scenario/set.rs`), `*`
 * expansion, and the four figures of a sweep point (sim-core `sweep.rs`), through `sim-wasm`.
 *
 * The calls are synchronous: they use the page thread's instance of the wasm module, which is
 * initialised before any scenario opens (`loadEngineInfo`), in a sweep worker before it runs, and
 * in Vitest by the setup file.
 */
import type { ScenarioError, SweepSummary } from './generated/engine-types'
import * as simWasm from './pkg/sim_wasm.js'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

type Answer<T> = T | { error: ScenarioError }

function call<T>(f: () => string): T {
  try {
    return JSON.parse(f()) as T
  } catch (cause) {
    if (cause instanceof SyntaxError) throw cause
    throw new Error(`the engine module is not loaded yet (${String(cause)})`)
  }
}

/** Parses a typed value as `--set` does: a fraction such as `1/16`, else JSON, else a bare string. */
export function parseSetValue(raw: string): Json {
  return call<Json>(() => simWasm.parse_set_value(raw))
}

/** Expands `*` into one path per array element (by id when it has one); others unchanged. */
export function expandPath(scenarioJson: string, path: string): Answer<{ paths: string[] }> {
  return call(() => simWasm.expand_path(scenarioJson, path))
}

/** The scenario text with the overrides applied (paths maybe with `*`, values as typed). */
export function applyOverridesText(
  scenarioJson: string,
  overrides: readonly { path: string; raw: string }[],
): Answer<{ json: string }> {
  return call(() => simWasm.apply_overrides(scenarioJson, JSON.stringify(overrides)))
}

/** The scenario text with one path (no `*`) set to a value, or the engine's error for the path. */
export function setPathText(
  scenarioJson: string,
  path: string,
  value: Json,
): Answer<{ json: string }> {
  return call(() => simWasm.set_path(scenarioJson, path, JSON.stringify(value)))
}

/** The sweep figures of one run over a window, fed its sample rows as they come. */
export class SweepWindow {
  private readonly inner: simWasm.SweepWindow

  constructor(layoutJson: string, window: readonly [number, number]) {
    this.inner = new simWasm.SweepWindow(layoutJson, window[0], window[1])
  }

  add(rows: Float64Array): void {
    this.inner.add(rows)
  }

  summary(): SweepSummary {
    return JSON.parse(this.inner.summary()) as SweepSummary
  }

  free(): void {
    this.inner.free()
  }
}
