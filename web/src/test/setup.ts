/**
 * Vitest setup: the engine's wasm module initialised once per test file, so code that asks the
 * engine synchronously (engine/grammar.ts: the path grammar, the sweep figures) works under Node
 * as on the page.
 */
import { realEngine } from './realEngine'

realEngine()
