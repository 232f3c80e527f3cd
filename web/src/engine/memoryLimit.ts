/** The engine worker's watch on the wasm memory a run holds (engine/engineHost.ts). */

/**
 * The most wasm memory a run may reach. The engine's own limits refuse what they can
 * foresee before anything is built; this catches the rest: past it the run stops with a message
 * and the page starts a fresh worker, well before the tab itself runs short (wasm32 caps at 4 GB).
 */
export const WASM_MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024

/** What to tell the page when a run holds more than the limit, or null while it fits. */
export function overMemory(bytes: number): string | null {
  if (bytes <= WASM_MEMORY_LIMIT_BYTES) return null
  const mb = (n: number) => Math.round(n / (1024 * 1024))
  return `the run stopped before the tab ran short of memory: the engine holds ${mb(bytes)} MB, over its limit of ${mb(WASM_MEMORY_LIMIT_BYTES)} MB (shorten the run, slow the sources or sample less often)`
}
