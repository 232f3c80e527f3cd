import { describe, expect, it } from 'vitest'
import { embedSnippet, embedUrl, fullPageUrl, readEmbedOptions } from './embed'

describe('embed mode', () => {
  it('reads the flags', () => {
    expect(readEmbedOptions('')).toEqual({ embed: false, autoplay: false })
    expect(readEmbedOptions('?embed')).toEqual({ embed: true, autoplay: false })
    expect(readEmbedOptions('?embed&autoplay')).toEqual({ embed: true, autoplay: true })
    expect(readEmbedOptions('?embed=1&autoplay=0')).toEqual({ embed: true, autoplay: false })
  })

  it('builds the iframe address and snippet', () => {
    const src = embedUrl('https://lab.example/abr/?x=1#old', '#scenario=fahmy-rif', true)
    expect(src).toBe('https://lab.example/abr/?embed&autoplay#scenario=fahmy-rif')
    expect(embedUrl('https://lab.example/', '#lab=1.abc', false)).toBe(
      'https://lab.example/?embed#lab=1.abc',
    )
    const html = embedSnippet(src, 'RIF "1/16"')
    expect(html).toContain('src="https://lab.example/abr/?embed&amp;autoplay#scenario=fahmy-rif"')
    expect(html).toContain('title="ABR Lab: RIF &quot;1/16&quot;"')
    expect(fullPageUrl('https://lab.example/abr/?embed', '#scenario=a')).toBe(
      'https://lab.example/abr/#scenario=a',
    )
  })
})
