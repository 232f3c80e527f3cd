import { describe, expect, it } from 'vitest'
import {
  along,
  centroid,
  commonLinkCaption,
  fitNodes,
  formatDelay,
  formatRate,
  leftNormal,
  linkCaption,
  linkLabelPlacement,
  stepFrom,
} from './geometry'

describe('fitNodes', () => {
  it('scales uniformly into the padded box, centred', () => {
    const fit = fitNodes(
      [
        { x: 0, y: 0 },
        { x: 100, y: 50 },
      ],
      300,
      200,
      20,
    )
    // Width limits: (300 - 40) / 100 = 2.6; height would allow (200 - 40) / 50 = 3.2.
    expect(fit.place({ x: 0, y: 0 })).toEqual({ x: 20, y: 35 })
    expect(fit.place({ x: 100, y: 50 })).toEqual({ x: 280, y: 165 })
  })

  it('centres nodes on one horizontal line', () => {
    const fit = fitNodes(
      [
        { x: 10, y: 5 },
        { x: 20, y: 5 },
      ],
      100,
      60,
      10,
    )
    expect(fit.place({ x: 10, y: 5 })).toEqual({ x: 10, y: 30 })
    expect(fit.place({ x: 20, y: 5 })).toEqual({ x: 90, y: 30 })
  })

  it('centres a single node', () => {
    expect(fitNodes([{ x: 7, y: 7 }], 100, 60, 10).place({ x: 7, y: 7 })).toEqual({ x: 50, y: 30 })
  })
})

describe('vector helpers', () => {
  it('left of rightward travel is up on screen', () => {
    const n = leftNormal({ x: 0, y: 0 }, { x: 10, y: 0 })
    expect(n.x).toBeCloseTo(0)
    expect(n.y).toBeCloseTo(-1)
    expect(along({ x: 0, y: 0 }, { x: 10, y: 0 }, 0.5, 4)).toEqual({ x: 5, y: -4 })
    expect(stepFrom({ x: 0, y: 0 }, { x: 0, y: 100 }, 30, 2)).toEqual({ x: 2, y: 30 })
  })
})

describe('link labels', () => {
  it('go on the side away from the middle, along the link, never upside down', () => {
    const middle = { x: 0, y: 0 }
    // A link below the middle, drawn right to left: label below it, text reading left to right.
    const below = linkLabelPlacement({ x: 10, y: 50 }, { x: -10, y: 50 }, middle, 8)
    expect(below.at).toEqual({ x: 0, y: 58 })
    expect(Math.abs(below.angle)).toBeCloseTo(0)
    // A vertical link to the right of the middle: label to its right, turned a quarter.
    const right = linkLabelPlacement({ x: 40, y: -10 }, { x: 40, y: 10 }, middle, 8)
    expect(right.at.x).toBeCloseTo(48)
    expect(right.at.y).toBeCloseTo(0)
    expect(right.angle).toBeCloseTo(90)
  })

  it('go above a link through the middle', () => {
    const through = linkLabelPlacement({ x: -10, y: 0 }, { x: 10, y: 0 }, { x: 0, y: 0 }, 8)
    expect(through.at.x).toBeCloseTo(0)
    expect(through.at.y).toBeCloseTo(-8)
  })

  it('centroid is the mean', () => {
    expect(
      centroid([
        { x: 0, y: 0 },
        { x: 4, y: 2 },
      ]),
    ).toEqual({ x: 2, y: 1 })
  })
})

describe('formatting', () => {
  it('formats rates and delays', () => {
    expect(formatRate(155.52)).toBe('155.52 Mbit/s')
    expect(formatRate(150)).toBe('150 Mbit/s')
    expect(formatDelay(5)).toBe('5 ms')
    expect(formatDelay(0.01)).toBe('10 µs')
    expect(linkCaption({ rate_mbps: 155.52, delay_ms: 5 })).toBe('155.52 Mbit/s · 5 ms')
  })

  it('finds the caption most links share', () => {
    const wan = { rate_mbps: 155.52, delay_ms: 5 }
    const lan = { rate_mbps: 155.52, delay_ms: 0.005 }
    expect(commonLinkCaption([wan, lan, wan])).toBe('155.52 Mbit/s · 5 ms')
    expect(commonLinkCaption([lan, wan])).toBe('155.52 Mbit/s · 5 µs')
    expect(commonLinkCaption([])).toBeUndefined()
  })
})
