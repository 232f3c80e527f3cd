/**
 * Share links: the whole scenario, as edited, and the view state, in the URL hash:
 *
 *   #lab=<version>.<payload>
 *
 * where the payload is the JSON `{"scenario": …, "view": …}`, compressed with raw DEFLATE
 * (`CompressionStream('deflate-raw')`) and written in base64url without padding. The version
 * comes first and in clear, so a page can tell a link from a newer ABR Lab from a damaged one
 * (excalidraw keeps its share data versioned and compressed the same way).
 *
 * Decoding throws a ShareLinkError with a sentence a person can act on; restore.ts turns that
 * into "opened the default scenario instead", so a bad link never leaves a blank page.
 */
import type { Selection } from './doc'
import { DEFAULT_MAX_INPUT_BYTES } from './engineInfo'
import { isObject, type JsonObject } from './paths'

/** The hash parameter of a share link. */
export const SHARE_PARAM = 'lab'
/** The share format this page writes; it reads this one only. */
export const SHARE_VERSION = 1
/** Decompressed links larger than this are refused (a scenario is a few kB) when the caller does
 * not pass the engine's own `limits.max_input_bytes`. */
const MAX_JSON_BYTES = DEFAULT_MAX_INPUT_BYTES

/** The page's view state carried by a share link; every field optional. */
export interface ViewState {
  selection?: Selection | null
  /** Simulated ms per wall second; null = as fast as the engine goes. */
  speed?: number | null
  /** Which tab the side panel shows. */
  tab?: 'params' | 'about'
  /** Presentation mode (large text, the drawing and two charts). */
  present?: boolean
}

export interface SharedLab {
  scenario: JsonObject
  view: ViewState
}

/**
 * Why a share link cannot be read: `newer` when it was written by a newer ABR Lab (nothing is
 * wrong with it; this page is older), `damaged` for everything else.
 */
export class ShareLinkError extends Error {
  constructor(
    message: string,
    readonly kind: 'damaged' | 'newer' = 'damaged',
  ) {
    super(message)
    this.name = 'ShareLinkError'
  }
}

/** Keeps the fields of a view state that make sense and drops the rest; never throws. */
export function sanitizeView(value: unknown): ViewState {
  if (!isObject(value)) return {}
  const view: ViewState = {}
  const sel = value.selection
  if (
    isObject(sel) &&
    (sel.kind === 'node' || sel.kind === 'link' || sel.kind === 'vc') &&
    typeof sel.id === 'string'
  ) {
    view.selection = { kind: sel.kind, id: sel.id }
  }
  if (
    value.speed === null ||
    (typeof value.speed === 'number' && Number.isFinite(value.speed) && value.speed > 0)
  ) {
    view.speed = value.speed
  }
  if (value.tab === 'params' || value.tab === 'about') view.tab = value.tab
  if (value.present === true) view.present = true
  return view
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text))
    throw new ShareLinkError('it contains characters a share link never has')
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  if (base64.length % 4 === 1)
    throw new ShareLinkError('it is incomplete: it was probably cut short when it was copied')
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0))
}

async function pipeBytes(
  bytes: Uint8Array,
  transform: CompressionStream | DecompressionStream,
  limit: number,
): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(transform)
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel()
      throw new ShareLinkError(
        `it unpacks to more than the limit of ${limit.toLocaleString('en')} bytes (limits.max_input_bytes), far more data than any scenario`,
      )
    }
    chunks.push(value)
  }
  const out = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

/** The hash parameter's value (`1.…`) for a scenario and view. */
export async function encodeShare(lab: SharedLab): Promise<string> {
  const json = JSON.stringify({ scenario: lab.scenario, view: lab.view })
  const compressed = await pipeBytes(
    new TextEncoder().encode(json),
    new CompressionStream('deflate-raw'),
    Infinity,
  )
  return `${SHARE_VERSION}.${toBase64Url(compressed)}`
}

/** Reads a share link's parameter; throws ShareLinkError saying what is wrong with it. */
export async function decodeShare(
  param: string,
  maxBytes: number = MAX_JSON_BYTES,
): Promise<SharedLab> {
  const match = /^(\d+)\.(.*)$/s.exec(param)
  if (!match) throw new ShareLinkError('it does not begin with its format version (#lab=1.…)')
  const version = Number(match[1])
  if (version > SHARE_VERSION) {
    throw new ShareLinkError(
      `it was made by a newer ABR Lab (share format ${version}; this page reads format ${SHARE_VERSION})`,
      'newer',
    )
  }
  if (version !== SHARE_VERSION)
    throw new ShareLinkError(
      `share format ${version} does not exist (this page reads format ${SHARE_VERSION})`,
    )
  if (match[2] === '') throw new ShareLinkError('it is empty after the version')
  const compressed = fromBase64Url(match[2])
  let bytes: Uint8Array
  try {
    bytes = await pipeBytes(compressed, new DecompressionStream('deflate-raw'), maxBytes)
  } catch (error) {
    if (error instanceof ShareLinkError) throw error
    throw new ShareLinkError(
      'it is incomplete or altered: the compressed data does not unpack (was it cut short when copied?)',
    )
  }
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new ShareLinkError('it unpacks, but not to JSON text')
  }
  if (!isObject(value) || !isObject(value.scenario))
    throw new ShareLinkError('it does not hold a scenario')
  return { scenario: value.scenario, view: sanitizeView(value.view) }
}

/** The full hash of a share link: `#lab=1.…`. */
export async function shareHash(lab: SharedLab): Promise<string> {
  return `#${SHARE_PARAM}=${await encodeShare(lab)}`
}
