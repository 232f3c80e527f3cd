/**
 * Colours. Series use the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008), which
 * stays distinguishable under the common forms of colour blindness; yellow is left out because it
 * is unreadable as a thin line on white.
 */
export const OKABE_ITO = [
  '#0072B2', // blue
  '#D55E00', // vermillion
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#E69F00', // orange
  '#56B4E9', // sky blue
  '#000000', // black
] as const

/** The colour of the i-th series; cycles when there are more series than colours. */
export function seriesColor(i: number): string {
  return OKABE_ITO[((i % OKABE_ITO.length) + OKABE_ITO.length) % OKABE_ITO.length]
}

/** The colour of a VC not picked for one of the palette's colours. */
export const UNPICKED = '#a3acb5'

/**
 * Gives each id a colour, so a VC has the same colour in every view: the picked ids (by default
 * all), in order, take the palette's seven colours; the rest are grey until picked. Seven hues and
 * grey make the eight a reader can tell apart (no two VCs share a hue).
 */
export function colorMap(
  ids: readonly string[],
  picked?: ReadonlySet<string>,
): ReadonlyMap<string, string> {
  let k = 0
  return new Map(
    ids.map((id) => [
      id,
      (picked ? picked.has(id) : true) && k < OKABE_ITO.length ? seriesColor(k++) : UNPICKED,
    ]),
  )
}
