import { describe, expect, it } from 'vitest'
import { formatValue, parseValue, scaleFor, snapPow2, valueFromText } from './scale'

const rif = { kind: 'pow2' as const, min: 1 / 32768, max: 1, label: 'RIF' }
const cdf = { kind: 'zero_or_pow2' as const, min: 1 / 64, max: 1, label: 'CDF' }

describe('slider scales', () => {
  it('moves a power-of-two parameter in whole powers of two', () => {
    const s = scaleFor(rif)
    expect(s.max).toBe(15)
    expect(s.toValue(0)).toBe(1 / 32768)
    expect(s.toValue(15)).toBe(1)
    expect(s.toValue(s.toPosition(1 / 16))).toBe(1 / 16)
    for (let p = 0; p <= s.max; p++) expect(Number.isInteger(Math.log2(s.toValue(p)))).toBe(true)
  })

  it('gives zero_or_pow2 a zero stop', () => {
    const s = scaleFor(cdf)
    expect(s.max).toBe(7)
    expect(s.toValue(0)).toBe(0)
    expect(s.toValue(1)).toBe(1 / 64)
    expect(s.toPosition(0)).toBe(0)
    expect(s.toPosition(1 / 16)).toBe(3)
  })

  it('is logarithmic over wide ranges and linear over narrow ones', () => {
    const pcr = scaleFor({ kind: 'real', min: 0.001, max: 7113.53916 })
    expect(pcr.toValue(0)).toBeCloseTo(0.001)
    expect(pcr.toValue(pcr.max)).toBeCloseTo(7113.53916)
    // 1000 steps over seven decades: each step is under 2 %.
    expect(Math.abs(pcr.toValue(pcr.toPosition(155.52)) / 155.52 - 1)).toBeLessThan(0.01)
    const tbe = scaleFor({ kind: 'integer', min: 0, max: 16777215 })
    expect(tbe.toValue(0)).toBe(0)
    expect(tbe.toValue(tbe.max)).toBe(16777215)
    expect(Number.isInteger(tbe.toValue(500))).toBe(true)
    const target = scaleFor({ kind: 'real', min: 0.05, max: 1 })
    expect(target.toValue(target.toPosition(0.9))).toBeCloseTo(0.9, 3)
    const mrm = scaleFor({ kind: 'integer', min: 1, max: 256 })
    expect(mrm.max).toBe(255)
    expect(mrm.toValue(1)).toBe(2)
  })

  it('honours a soft maximum for the slider', () => {
    const start = scaleFor({ kind: 'real', min: 0, max: 36_000_000 }, 300)
    expect(start.toValue(start.max)).toBe(300)
  })
})

describe('typed values', () => {
  it('parses decimals, fractions and powers', () => {
    expect(parseValue('0.25')).toBe(0.25)
    expect(parseValue(' 1/16 ')).toBe(0.0625)
    expect(parseValue('2^-4')).toBe(0.0625)
    expect(parseValue('1e3')).toBe(1000)
    expect(parseValue('1,000,000')).toBe(1_000_000)
    expect(parseValue('1,000.5')).toBe(1000.5)
    expect(parseValue('abc')).toBeNaN()
    expect(parseValue('1/0')).toBeNaN()
    expect(parseValue('')).toBeNaN()
  })

  it('reads a decimal comma as a decimal point, never as a thousands separator it cannot be', () => {
    expect(parseValue('1,5')).toBe(1.5)
    expect(parseValue('0,125')).toBe(0.125)
    expect(parseValue('-2,75')).toBe(-2.75)
    expect(parseValue('1.000,5')).toBe(1000.5)
    expect(parseValue(',5')).toBe(0.5)
    expect(valueFromText('1,5', { kind: 'real', label: 'PCR', min: 0, max: 1000 })).toEqual({
      value: 1.5,
    })
    // ICR 1,5 used to become 15.
    expect(valueFromText('1,5', { kind: 'real', label: 'ICR' })).toEqual({ value: 1.5 })
    // Nrm 1,5 used to become 15 and then "snapped to 16".
    const nrm = { kind: 'pow2' as const, label: 'Nrm', min: 2, max: 256 }
    expect(valueFromText('1,5', nrm)).toHaveProperty('error')
  })

  it('refuses a comma that could be read two ways, saying both', () => {
    expect(parseValue('1,000')).toBeNaN()
    const read = valueFromText('1,000', { kind: 'real', label: 'PCR' })
    expect(read).toEqual({
      error:
        '"1,000" could be 1000 or 1: type 1000 or 1.000 (a decimal point, no thousands separator)',
    })
    expect(valueFromText('1,2,3', { kind: 'real', label: 'PCR' })).toHaveProperty('error')
    expect(parseValue('1,2.5')).toBeNaN()
  })

  it('snaps powers of two and says so', () => {
    expect(snapPow2(0.3, false)).toBe(0.25)
    expect(snapPow2(0, true)).toBe(0)
    expect(valueFromText('0.3', rif)).toEqual({
      value: 0.25,
      note: 'RIF is a power of two: 0.3 snapped to 1/4',
    })
    expect(valueFromText('1/8', rif)).toEqual({ value: 0.125 })
    expect(valueFromText('0', cdf)).toEqual({ value: 0 })
    expect(valueFromText('x', rif)).toHaveProperty('error')
    expect(valueFromText('2.6', { kind: 'integer', label: 'Mrm' })).toEqual({
      value: 3,
      note: 'Mrm is a whole number: rounded to 3',
    })
  })

  it('writes powers of two below one as fractions', () => {
    expect(formatValue(0.0625, 'pow2')).toBe('1/16')
    expect(formatValue(1, 'pow2')).toBe('1')
    expect(formatValue(155.52, 'real')).toBe('155.52')
    expect(formatValue(0.1 + 0.2, 'real')).toBe('0.3')
    expect(formatValue(0.0625, 'real')).toBe('0.0625')
  })
})
