/**
 * Scenario files on the reader's disk: loading one (read, then parsed and validated by the engine
 * off the page's thread, every problem reported with its path) and saving the scenario as edited.
 */
import type { ScenarioError } from '../engine/protocol'
import type { ReadResult } from '../scenario/check'
import { DEFAULT_MAX_INPUT_BYTES } from '../scenario/engineInfo'
import type { JsonObject } from '../scenario/paths'

export type FileVerdict =
  | { ok: true; scenario: JsonObject; name: string }
  | { ok: false; name: string; errors: ScenarioError[] }

/** Reads a File chosen by the reader. */
export async function readScenarioFile(
  file: File,
  check: (text: string) => Promise<ReadResult>,
  maxBytes: number = DEFAULT_MAX_INPUT_BYTES,
): Promise<FileVerdict> {
  // Refused from its size alone, before a byte is read (the engine's limits.max_input_bytes).
  if (file.size > maxBytes) {
    return {
      ok: false,
      name: file.name,
      errors: [
        {
          path: '',
          message: `the file is ${file.size.toLocaleString('en')} bytes, more than the limit of ${maxBytes.toLocaleString('en')} (limits.max_input_bytes); a scenario file is a few kB`,
        },
      ],
    }
  }
  let text: string
  try {
    text = await file.text()
  } catch (error) {
    return {
      ok: false,
      name: file.name,
      errors: [
        {
          path: '',
          message: `the file could not be read: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
    }
  }
  const result = await check(text)
  return result.ok
    ? { ok: true, scenario: result.scenario, name: file.name }
    : { ok: false, name: file.name, errors: result.errors }
}

/** The file name to save a scenario under: its id, else "scenario". */
export function fileNameFor(scenario: JsonObject): string {
  const id =
    typeof scenario.id === 'string' && /^[A-Za-z0-9_-]+$/.test(scenario.id)
      ? scenario.id
      : 'scenario'
  return `${id}.json`
}

/** Offers the scenario as a JSON file download. */
export function saveScenario(scenario: JsonObject): void {
  const blob = new Blob([`${JSON.stringify(scenario, null, 2)}\n`], { type: 'application/json' })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = fileNameFor(scenario)
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
