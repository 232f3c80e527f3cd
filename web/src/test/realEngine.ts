/**
 * Test helpers that load the real wasm engine under Node (no browser, no fetch): the generated
 * module is initialised synchronously from the .wasm bytes that scripts/build-wasm.sh wrote.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as simWasm from '../engine/pkg/sim_wasm.js'
import type { EngineModule } from '../engine/engineModule'

const wasmPath = fileURLToPath(new URL('../engine/pkg/sim_wasm_bg.wasm', import.meta.url))
const scenariosDir = fileURLToPath(new URL('../../../scenarios/', import.meta.url))

let initialised = false

/** The generated bindings, initialised once per test file. */
export function realEngine(): typeof simWasm & EngineModule {
  if (!initialised) {
    simWasm.initSync({ module: readFileSync(wasmPath) })
    initialised = true
  }
  return simWasm
}

/** A scenario file from scenarios/, as text. */
export function scenarioText(id: string): string {
  return readFileSync(`${scenariosDir}${id}.json`, 'utf8')
}
