/**
 * The scenario library (`scenarios/*.json`, bundled as text) and the choice of which scenario the
 * page opens, from the URL hash:
 *
 *   (no hash)                       the default scenario
 *   #scenario=<id>                  a library scenario by file name, e.g. #scenario=two-source-wan
 *   #scenario-json=<base64url>      a whole scenario file, base64url-encoded UTF-8 JSON
 *
 * The engine validates whatever arrives; this module only decodes.
 */

/** The scenario the page opens by default. */
export const DEFAULT_SCENARIO_ID = 'two-source-wan'

const files = import.meta.glob<string>('../../../scenarios/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
})

/** Library scenarios by id (the file name without `.json`). */
export const library: ReadonlyMap<string, string> = new Map(
  Object.entries(files).map(([path, text]) => [
    path.replace(/^.*\//, '').replace(/\.json$/, ''),
    text,
  ]),
)

export type ScenarioSource =
  | { ok: true; origin: 'library'; id: string; json: string }
  | { ok: true; origin: 'link'; json: string }
  | { ok: false; message: string }

/** Encodes scenario JSON for `#scenario-json=`: base64url of its UTF-8 bytes, no padding. */
export function encodeScenarioParam(json: string): string {
  const bytes = new TextEncoder().encode(json)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** Decodes `encodeScenarioParam`; throws with a readable message on bad input. */
export function decodeScenarioParam(param: string): string {
  const base64 = param.replace(/-/g, '+').replace(/_/g, '/')
  let binary: string
  try {
    binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  } catch {
    throw new Error('the scenario in the link is not valid base64url')
  }
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0))
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new Error('the scenario in the link is not UTF-8 text')
  }
}

/** Picks the scenario named by a URL hash (with or without the leading '#'). Never throws. */
export function scenarioFromHash(
  hash: string,
  scenarios: ReadonlyMap<string, string> = library,
): ScenarioSource {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const encoded = params.get('scenario-json')
  if (encoded !== null) {
    try {
      return { ok: true, origin: 'link', json: decodeScenarioParam(encoded) }
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) }
    }
  }
  const id = params.get('scenario') ?? DEFAULT_SCENARIO_ID
  const json = scenarios.get(id)
  if (json === undefined) {
    const known = [...scenarios.keys()].sort().join(', ') || 'none'
    return { ok: false, message: `there is no scenario "${id}" in the library (known: ${known})` }
  }
  return { ok: true, origin: 'library', id, json }
}
