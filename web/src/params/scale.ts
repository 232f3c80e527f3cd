/**
 * Sliders over registry parameters: how a slider position maps to a value, how values are written
 * and read back, and power-of-two snapping.
 *
 * - `pow2` and `zero_or_pow2` parameters (Nrm, RIF, RDF, CDF — Fahmy et al. Table 1) move in whole
 *   powers of two; `zero_or_pow2` has one more stop, 0, at the bottom.
 * - A range spanning more than three decades moves logarithmically (PCR from 1 kbit/s to
 *   7 Gbit/s), starting at 0 through log(1 + x) when the minimum is zero (TBE, start times).
 * - Anything else moves linearly.
 */
import type { ParamSpec } from '../scenario/engineInfo'

/** Positions of a continuous slider. */
const STEPS = 1000

export interface SliderScale {
  /** The slider's position range is 0..max, in whole steps. */
  max: number
  toPosition(value: number): number
  toValue(position: number): number
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x))
}

/** The exponents of the powers of two within [min, max]. */
function exponentRange(min: number, max: number): [number, number] {
  return [
    Math.ceil(Math.log2(Math.max(min, Number.MIN_VALUE)) - 1e-9),
    Math.floor(Math.log2(max) + 1e-9),
  ]
}

/** The slider for one parameter; `softMax` lowers the slider's top (the number field keeps the full range). */
export function scaleFor(
  spec: Pick<ParamSpec, 'kind' | 'min' | 'max'>,
  softMax?: number,
): SliderScale {
  const max = softMax !== undefined ? Math.max(spec.min, Math.min(spec.max, softMax)) : spec.max
  const { min, kind } = spec
  if (kind === 'pow2' || kind === 'zero_or_pow2') {
    const [lo, hi] = exponentRange(min, max)
    const zero = kind === 'zero_or_pow2' ? 1 : 0
    return {
      max: hi - lo + zero,
      toPosition: (value) =>
        zero && value <= 0 ? 0 : clamp(Math.round(Math.log2(value)), lo, hi) - lo + zero,
      toValue: (position) => (zero && position <= 0 ? 0 : 2 ** (lo + position - zero)),
    }
  }
  const round = kind === 'integer' ? Math.round : (x: number) => x
  if (kind === 'bool') {
    return { max: 1, toPosition: (v) => (v ? 1 : 0), toValue: (p) => (p >= 1 ? 1 : 0) }
  }
  if (min > 0 && max / min > 1000) {
    const span = Math.log(max / min)
    return {
      max: STEPS,
      toPosition: (value) =>
        Math.round(clamp(Math.log(Math.max(value, min) / min) / span, 0, 1) * STEPS),
      toValue: (position) => round(clamp(min * Math.exp((span * position) / STEPS), min, max)),
    }
  }
  if (min === 0 && max > 1000) {
    const span = Math.log1p(max)
    return {
      max: STEPS,
      toPosition: (value) => Math.round(clamp(Math.log1p(Math.max(value, 0)) / span, 0, 1) * STEPS),
      toValue: (position) => round(clamp(Math.expm1((span * position) / STEPS), 0, max)),
    }
  }
  if (kind === 'integer' && max - min <= STEPS) {
    return {
      max: max - min,
      toPosition: (v) => clamp(Math.round(v - min), 0, max - min),
      toValue: (p) => min + p,
    }
  }
  return {
    max: STEPS,
    toPosition: (value) => Math.round(clamp((value - min) / (max - min), 0, 1) * STEPS),
    toValue: (position) => round(min + ((max - min) * position) / STEPS),
  }
}

/** The power of two nearest `value` (in ratio), or 0 for 0 when zero is allowed. */
export function snapPow2(value: number, allowZero: boolean): number {
  if (allowZero && value === 0) return 0
  if (!(value > 0)) return value
  return 2 ** Math.round(Math.log2(value))
}

/**
 * A value as a person reads it: powers of two below one as fractions ("1/16"), other numbers with
 * up to six significant digits and no trailing zeros.
 */
export function formatValue(value: number, kind: ParamSpec['kind']): string {
  if ((kind === 'pow2' || kind === 'zero_or_pow2') && value > 0 && value < 1) {
    const denominator = Math.round(1 / value)
    if (2 ** Math.round(Math.log2(denominator)) === denominator) return `1/${denominator}`
  }
  if (Number.isInteger(value)) return String(value)
  return String(Number(value.toPrecision(6)))
}

/**
 * Typed text with its commas read: a decimal comma ("1,5", "0,125", "1.000,5") becomes a decimal
 * point and thousands separators ("1,000,000", "1,000.5") go; a comma that could be either
 * ("1,000": one thousand, or one to three places?) is refused with a message, never guessed.
 */
export function readCommas(text: string): { text: string } | { error: string } {
  const t = text.trim().replace(/\s+/g, '')
  if (!t.includes(',')) return { text: t }
  const typed = text.trim()
  const thousands = (digits: string, sep: string) =>
    new RegExp(`^[-+]?[1-9]\\d{0,2}(\\${sep}\\d{3})+$`).test(digits)
  const lastComma = t.lastIndexOf(',')
  const lastDot = t.lastIndexOf('.')
  if (lastDot > lastComma) {
    // "1,000.5": commas group thousands before a decimal point.
    const whole = t.slice(0, lastDot)
    if (thousands(whole, ',')) return { text: whole.replace(/,/g, '') + t.slice(lastDot) }
  } else if (lastDot >= 0) {
    // "1.000,5": dots group thousands before a decimal comma.
    const whole = t.slice(0, lastComma)
    if (thousands(whole, '.'))
      return { text: `${whole.replace(/\./g, '')}.${t.slice(lastComma + 1)}` }
  } else if (/^[-+]?\d*,\d+(e[-+]?\d+)?$/i.test(t) && !/^[-+]?[1-9]\d{0,2},\d{3}$/.test(t)) {
    // One comma that cannot group thousands (not 1–3 digits from 1–999, then three): decimal.
    return { text: t.replace(',', '.') }
  } else if (/^[-+]?[1-9]\d{0,2}(,\d{3}){2,}$/.test(t)) {
    // Several commas three digits apart: thousands.
    return { text: t.replace(/,/g, '') }
  } else if (/^[-+]?[1-9]\d{0,2},\d{3}$/.test(t)) {
    const n = t.replace(',', '')
    const d = t.replace(',', '.')
    return {
      error: `"${typed}" could be ${Number(n)} or ${Number(d)}: type ${n} or ${d} (a decimal point, no thousands separator)`,
    }
  }
  return { error: `"${typed}" is not a number: write a decimal with a point or a comma, e.g. 1.5` }
}

/** What a person typed, as a number: "0.25", "1/16", "2^-4", "1e3", "1,5"; NaN when it is none of these or when a comma could be read two ways (see `readCommas`). */
export function parseValue(text: string): number {
  const read = readCommas(text)
  if ('error' in read) return Number.NaN
  const t = read.text
  if (t === '') return Number.NaN
  const fraction = /^([-+]?[\d.]+(?:e[-+]?\d+)?)\/([\d.]+(?:e[-+]?\d+)?)$/i.exec(t)
  if (fraction) {
    const d = Number(fraction[2])
    return d === 0 ? Number.NaN : Number(fraction[1]) / d
  }
  const power = /^2\^([-+]?\d+)$/.exec(t)
  if (power) return 2 ** Number(power[1])
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : Number.NaN
}

/**
 * Turns typed text into the value to set: parsed, rounded for integers and snapped to a power of
 * two where the spec demands one. `note` says when the value was changed on the way.
 */
export function valueFromText(
  text: string,
  spec: Pick<ParamSpec, 'kind' | 'label'> & Partial<Pick<ParamSpec, 'min' | 'max' | 'unit'>>,
): { value: number; note?: string } | { error: string } {
  const commas = readCommas(text)
  if ('error' in commas) return commas
  const value = parseValue(text)
  const typed = text.trim()
  if (Number.isNaN(value))
    return { error: `"${typed}" is not a number (fractions such as 1/16 are fine)` }
  // Out of range is said about what was typed, before any snapping changes it.
  const zeroOk = spec.kind === 'zero_or_pow2' && value === 0
  if (
    !zeroOk &&
    spec.min !== undefined &&
    spec.max !== undefined &&
    (value < spec.min || value > spec.max)
  ) {
    const pow2 = spec.kind === 'pow2' || spec.kind === 'zero_or_pow2'
    const range = `${formatValue(spec.min, spec.kind)} to ${formatValue(spec.max, spec.kind)}${spec.unit ? ` ${spec.unit}` : ''}`
    const rule = pow2
      ? `${spec.label} is ${spec.kind === 'zero_or_pow2' ? '0 or ' : ''}a power of two from ${range}`
      : `${spec.label} goes from ${range}`
    return { error: `${typed} is out of range: ${rule}` }
  }
  if (spec.kind === 'pow2' || spec.kind === 'zero_or_pow2') {
    const snapped = snapPow2(value, spec.kind === 'zero_or_pow2')
    if (snapped !== value && value > 0) {
      return {
        value: snapped,
        note: `${spec.label} is a power of two: ${text.trim()} snapped to ${formatValue(snapped, spec.kind)}`,
      }
    }
    return { value: snapped }
  }
  if (spec.kind === 'integer' && !Number.isInteger(value)) {
    const rounded = Math.round(value)
    return { value: rounded, note: `${spec.label} is a whole number: rounded to ${rounded}` }
  }
  return { value }
}
