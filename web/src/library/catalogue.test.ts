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
    expect(
      splitPaper(
        'Fahmy, Jain, Goyal & Vandalore, “ABR Engineering: Roles and Guidelines for Setting ABR Parameters”, §4.2.1, Figure 4',
      ),
    ).toEqual({
      paper:
        'Fahmy, Jain, Goyal & Vandalore, “ABR Engineering: Roles and Guidelines for Setting ABR Parameters”',
      section: '§4.2.1, Figure 4',
    })
    expect(
      splitPaper(
        "Jain et al., “ABR Switch Algorithm Testing: A Case Study with ERICA”, ATM Forum contribution 96-1267, slide 'Transient'",
      ),
    ).toEqual({
      paper:
        'Jain et al., “ABR Switch Algorithm Testing: A Case Study with ERICA”, ATM Forum contribution 96-1267',
      section: "slide 'Transient'",
    })
    expect(splitPaper('')).toEqual({ paper: 'Other scenarios', section: '' })
  })

  it('reads topics from the files’ tags, never from their keys', () => {
    const entries = buildCatalogue(info)
    const nrm = entries.find((e) => e.id === 'fahmy-nrm')
    expect(nrm?.topics).toContain('Nrm')
    expect(nrm?.topics).toContain('ERICA')
    const topics = byTopic(entries).map((g) => g.title)
    for (const key of ['d', 'enabled', 'r_ref', 'f_min_mbps', 'Other'])
      expect(topics).not.toContain(key)
    // Every paper is cited by title, never as a "seed".
    for (const e of entries) expect(e.paper).not.toMatch(/seed/i)
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
