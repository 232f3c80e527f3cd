/**
 * The parts of the generated wasm module (`pkg/sim_wasm.js`) that run the engine off the page's
 * thread: the engine worker's host and the sweep workers. Tests pass the real module under Node.
 */

/** The part of the wasm-bindgen `Engine` class the host uses. */
export interface EngineHandle {
  layout(): string
  run_until(t_ms: number, max_events: number): boolean
  now_ms(): number
  events(): number
  take_samples(): Float64Array
  /**
   * Takes the completed rows as `take_samples` does, keeping them for `copy_samples`; returns how
   * many values they are.
   */
  stash_samples(): number
  /** Copies the stashed rows into the start of `out`. */
  copy_samples(out: Float64Array): void
  frame(): Float64Array
  /** Cells on the links, rows of 7. */
  cells_in_flight(max: number): Float64Array
  /** One port's cells on its wire and in its queue. */
  port_cells(port: number, max: number): Float64Array
  set_param(path: string, value_json: string): string
  free(): void
}

/** The part of the generated `sim_wasm.js` module the host uses. */
export interface EngineModule {
  Engine: new (scenarioJson: string) => EngineHandle
  validate_scenario(scenarioJson: string): string
  /** Validates a scenario that differs from a valid one only at `path`, as `set_param` checks it. */
  validate_edit(scenarioJson: string, path: string): string
  /** Bytes of the engine's wasm memory (it only grows), for the memory watch; absent in tests. */
  memoryBytes?(): number
}

/** A wasm trap (a Rust panic compiles to `unreachable`) leaves the instance unusable. */
export function isTrap(error: unknown): boolean {
  return typeof WebAssembly !== 'undefined' && error instanceof WebAssembly.RuntimeError
}

/** What an error thrown by the engine (or anything else) says. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
