import { describe, expect, it } from 'vitest'
import { createEngineInfo } from '../scenario/engineInfo'
import { library } from '../scenario/library'
import { realEngine } from '../test/realEngine'
import { buildCatalogue, byPaper, byTopic, filterEntries, splitPaper } from './catalogue'

const info = createEngineInfo(realEngine())

describe('scenario catalogue', () => {
  it('lists every file of scenarios/', () => {
    const entries = buildCatalogue(info)
    expect(entries.map((e) => e.id).sort()).toEqual([...library.keys()].sort())
    for (const e of entries) {
      expect(e.title).not.toBe('')
      expect(e.paper).not.toBe('')
    }
  })

  it('splits a paper reference at its section', () => {
    expect(splitPaper('Fahmy, Jain, Goyal & Vandalore, ABR Engineering (seed 001) §4.2.1, Figure 4')).toEqual({
      paper: 'Fahmy, Jain, Goyal & Vandalore, ABR Engineering (seed 001)',
      section: '§4.2.1, Figure 4',
    })
    expect(splitPaper("Jain et al., Switch Algorithm Testing (seed 004), slide 'Transient'")).toEqual({
      paper: 'Jain et al., Switch Algorithm Testing (seed 004)',
      section: "slide 'Transient'",
    })
    expect(splitPaper('')).toEqual({ paper: 'Other scenarios', section: '' })
  })

  it('reads topics from what a file does', () => {
    const entries = buildCatalogue(info)
    const nrm = entries.find((e) => e.id === 'fahmy-nrm')
    expect(nrm?.topics).toContain('Nrm')
    expect(nrm?.topics).toContain('ERICA switches')
    const trm = entries.find((e) => e.id === 'fahmy-trm')
    expect(trm?.topics).toContain('Background CBR/VBR')
  })

  it('groups by paper and by topic, and filters', () => {
    const entries = buildCatalogue(info)
    const papers = byPaper(entries)
    expect(papers.flatMap((g) => g.entries)).toHaveLength(entries.length)
    const topics = byTopic(entries)
    expect(topics.find((g) => g.title === 'RIF')?.entries.map((e) => e.id)).toContain('fahmy-rif')
    expect(filterEntries(entries, 'satellite').map((e) => e.id)).toEqual(['fahmy-satellite-crm'])
    expect(filterEntries(entries, '')).toHaveLength(entries.length)
  })
})
