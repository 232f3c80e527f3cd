import { describe, expect, it } from 'vitest'
import { FONT, HOST_R, nodeNameFont, SWITCH_HALF } from './drawing'

describe('nodeNameFont', () => {
  it('keeps the drawing’s own size, and a larger one where the name fits its shape', () => {
    expect(nodeNameFont('S1', false, FONT.node)).toBe(FONT.node)
    // Presentation mode on a large screen: 15 units fit "SW1" in its 44-unit box.
    expect(nodeNameFont('SW1', true, 14.5)).toBe(14.5)
  })

  it('shrinks a name that would overrun its shape, down to the drawing’s own size', () => {
    // Presentation mode on a 1280-pixel projector asks for 22.5 units: "SW1" would be 57 wide.
    const sw = nodeNameFont('SW1', true, 22.5)
    expect(sw).toBeLessThan(22.5)
    expect(sw * 2.54).toBeLessThanOrEqual(2 * SWITCH_HALF)
    // "S1" (1.45 em measured) fits a host at that size.
    expect(nodeNameFont('S1', false, 22.5) * 1.45).toBeLessThanOrEqual(2 * HOST_R)
    // A long name is never drawn under the drawing's own size.
    expect(nodeNameFont('Frankfurt-core', true, 22.5)).toBe(FONT.node)
  })
})
