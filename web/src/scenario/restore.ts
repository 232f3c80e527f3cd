/**
 * What the page opens, from its URL hash. Restore never throws (excalidraw `data/restore.ts`):
 * a link that cannot be read, or holds a scenario the engine rejects, opens the default scenario
 * with a notice that says what was wrong, so the page is never blank.
 *
 *   (no hash)                     the default scenario
 *   #scenario=<id>                a scenario of the library by file name
 *   #scenario-json=<base64url>    a whole scenario file (plain base64url UTF-8 JSON)
 *   #lab=<version>.<payload>      a share link: scenario and view state, compressed (shareLink.ts)
 */
import type { ScenarioError } from '../engine/protocol'
import { DEFAULT_MAX_INPUT_BYTES, inputTooLarge, type Validation } from './engineInfo'
import { DEFAULT_SCENARIO_ID, library, scenarioFromHash } from './library'
import { isObject, type JsonObject } from './paths'
import { decodeShare, SHARE_PARAM, ShareLinkError, type ViewState } from './shareLink'

/** Something the reader of the page should know about what was opened. */
export interface Notice {
  title: string
  message: string
  errors: ScenarioError[]
}

export type Origin =
  | { kind: 'library'; id: string; variant?: string }
  | { kind: 'link' }
  | { kind: 'file'; name: string }

export interface Restored {
  scenario: JsonObject
  origin: Origin
  view: ViewState
  /** Set when the hash could not be honoured and the default scenario opened instead. */
  notice: Notice | null
  /**
   * The same notice without "the default scenario is open instead": for a page that already has
   * a scenario open (a link followed later, on hashchange) and keeps it rather than the default.
   */
  rejected?: Notice
}

type Validate = (json: string) => Validation

/**
 * Parses scenario text and has the engine check it: the object, or the problems found. Text
 * longer than the engine's `limits.max_input_bytes` is refused before anything parses it.
 */
export function readScenario(
  json: string,
  validate: Validate,
  maxBytes: number = DEFAULT_MAX_INPUT_BYTES,
): { ok: true; scenario: JsonObject } | { ok: false; errors: ScenarioError[] } {
  const tooLarge = inputTooLarge(json, maxBytes)
  if (tooLarge) return { ok: false, errors: [tooLarge] }
  const verdict = validate(json)
  if (!verdict.ok) return { ok: false, errors: verdict.errors }
  const value: unknown = JSON.parse(json)
  if (!isObject(value))
    return { ok: false, errors: [{ path: '', message: 'the scenario is not a JSON object' }] }
  return { ok: true, scenario: value }
}

/** The default scenario of the library, parsed. */
export function defaultScenario(scenarios: ReadonlyMap<string, string> = library): JsonObject {
  const text = scenarios.get(DEFAULT_SCENARIO_ID)
  if (text === undefined)
    throw new Error(`the library has no default scenario "${DEFAULT_SCENARIO_ID}"`)
  return JSON.parse(text) as JsonObject
}

/** The default scenario, with the notice of why what was asked for is not open. */
export function fallback(
  notice: Notice,
  scenarios: ReadonlyMap<string, string> = library,
): Restored {
  return {
    scenario: defaultScenario(scenarios),
    origin: { kind: 'library', id: DEFAULT_SCENARIO_ID },
    view: {},
    notice: { ...notice, message: `${notice.message} The default scenario is open instead.` },
    rejected: notice,
  }
}

/**
 * The longest hash a link to a scenario within `maxBytes` can need: base64 of the whole text (the
 * `#scenario-json=` form; a share link's compressed form is shorter) and room for the names.
 */
export function maxHashLength(maxBytes: number): number {
  return Math.ceil((maxBytes * 4) / 3) + 256
}

/** Reads a URL hash into a scenario to open; never throws (apart from a missing default). */
export async function restoreFromHash(
  hash: string,
  validate: Validate,
  scenarios: ReadonlyMap<string, string> = library,
  maxBytes: number = DEFAULT_MAX_INPUT_BYTES,
): Promise<Restored> {
  // A hash too long to hold any scenario within the input limit is refused before it is decoded.
  if (hash.length > maxHashLength(maxBytes)) {
    return fallback(
      {
        title: 'This link could not be opened',
        message: `The link is ${hash.length.toLocaleString('en')} characters long, more than a scenario within the limit of ${maxBytes.toLocaleString('en')} bytes (limits.max_input_bytes) can need.`,
        errors: [],
      },
      scenarios,
    )
  }
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const shared = params.get(SHARE_PARAM)
  if (shared !== null) {
    let decoded: Awaited<ReturnType<typeof decodeShare>>
    try {
      decoded = await decodeShare(shared, maxBytes)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      const newer = error instanceof ShareLinkError && error.kind === 'newer'
      return fallback(
        newer
          ? {
              title: 'This share link is from a newer ABR Lab',
              message: `${capitalise(reason)}; nothing is wrong with the link, but this page cannot read it.`,
              errors: [],
            }
          : {
              title: 'This share link could not be opened',
              message: `The link is damaged: ${reason}.`,
              errors: [],
            },
        scenarios,
      )
    }
    const checked = readScenario(JSON.stringify(decoded.scenario), validate, maxBytes)
    if (!checked.ok) {
      return fallback(
        {
          title: 'The engine rejected this scenario',
          message: `The share link holds a scenario with ${problems(checked.errors)}, each named by its path:`,
          errors: checked.errors,
        },
        scenarios,
      )
    }
    return {
      scenario: checked.scenario,
      origin: { kind: 'link' },
      view: decoded.view,
      notice: null,
    }
  }

  const source = scenarioFromHash(hash, scenarios)
  if (!source.ok)
    return fallback(
      {
        title: 'Could not open the scenario',
        message: `${capitalise(source.message)}.`,
        errors: [],
      },
      scenarios,
    )
  const checked = readScenario(source.json, validate, maxBytes)
  if (!checked.ok) {
    const where =
      source.origin === 'library'
        ? `The library file ${source.id}.json has`
        : 'The link holds a scenario with'
    return fallback(
      {
        title: 'The engine rejected this scenario',
        message: `${where} ${problems(checked.errors)}, each named by its path in the scenario file:`,
        errors: checked.errors,
      },
      scenarios,
    )
  }
  const origin: Origin =
    source.origin === 'library' ? { kind: 'library', id: source.id } : { kind: 'link' }
  return { scenario: checked.scenario, origin, view: {}, notice: null }
}

function problems(errors: readonly ScenarioError[]): string {
  return errors.length === 1 ? 'one problem' : `${errors.length} problems`
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
