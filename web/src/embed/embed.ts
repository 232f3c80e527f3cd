/**
 * Embed mode, for a course page that shows one configured scenario in an iframe:
 *
 *   /?embed              minimal chrome (title, transport, network, charts), sized to the frame
 *   /?embed&autoplay     …and the run starts by itself
 *
 * The scenario comes from the hash as on the full page (`#scenario=<id>`, `#lab=…`).
 */

export interface EmbedOptions {
  embed: boolean
  autoplay: boolean
}

/** Reads the query string (`?embed&autoplay`); a flag counts unless it is "0" or "false". */
export function readEmbedOptions(search: string): EmbedOptions {
  const params = new URLSearchParams(search)
  const flag = (name: string) =>
    params.has(name) && !['0', 'false', 'no'].includes((params.get(name) ?? '').toLowerCase())
  return { embed: flag('embed'), autoplay: flag('autoplay') }
}

/** The page's address in embed mode, for an iframe: same page and hash, `?embed` (and `&autoplay`). */
export function embedUrl(base: string, hash: string, autoplay: boolean): string {
  const url = new URL(base)
  url.search = autoplay ? '?embed&autoplay' : '?embed'
  url.hash = hash.replace(/^#/, '')
  // URLSearchParams would write "embed=": keep the bare flags.
  return url
    .toString()
    .replace(/embed=&autoplay=/, 'embed&autoplay')
    .replace(/embed=(#|$)/, 'embed$1')
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

/** The HTML to paste into a page: an iframe of the scenario in embed mode. */
export function embedSnippet(
  src: string,
  title: string,
  size: { width: number; height: number } = { width: 800, height: 450 },
): string {
  return `<iframe src="${escapeAttribute(src)}" width="${size.width}" height="${size.height}" style="border:0;max-width:100%" title="${escapeAttribute(`ABR Lab: ${title}`)}" loading="lazy"></iframe>`
}

/** The full page's address for what an embedded page shows (for "open in ABR Lab"). */
export function fullPageUrl(base: string, hash: string): string {
  const url = new URL(base)
  url.search = ''
  url.hash = hash.replace(/^#/, '')
  return url.toString()
}
