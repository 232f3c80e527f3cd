import { describe, expect, it } from 'vitest'
import {
  documentDigest,
  formatScenarioError,
  isClientRequest,
  isWorkerEvent,
  isWorkerReply,
  parseEngineErrors,
  parseEngineWarnings,
} from './protocol'

describe('message guards', () => {
  it.each([
    [{ type: 'load', id: 1, scenarioJson: '{}' }, true],
    [{ type: 'load', id: 1 }, false],
    [{ type: 'play', id: 2 }, true],
    [{ type: 'pause', id: 3 }, true],
    [{ type: 'reset', id: 4 }, true],
    [{ type: 'speed', id: 5, speed: 50 }, true],
    [{ type: 'speed', id: 5, speed: null }, true],
    [{ type: 'speed', id: 5, speed: 0 }, false],
    [{ type: 'speed', id: 5, speed: '50' }, false],
    [{ type: 'play' }, false],
    [{ type: 'edit', id: 6, op: { op: 'remove', selection: { kind: 'vc', id: 'vc2' } } }, true],
    [{ type: 'keep', id: 6, scenarioJson: '{}' }, true],
    // Another scenario travels whole (`swap`), never as an edit.
    [{ type: 'edit', id: 6, op: { op: 'replace', scenario: {}, label: 'x' } }, false],
    [{ type: 'edit', id: 6, op: 'remove' }, false],
    [{ type: 'edit', id: 6 }, false],
    [{ type: 'explode', id: 6 }, false],
    [null, false],
    ['play', false],
  ])('isClientRequest(%j) is %s', (msg, expected) => {
    expect(isClientRequest(msg)).toBe(expected)
  })

  it('tells replies from events', () => {
    const reply = { type: 'loaded', id: 7, layoutJson: '{}', warnings: [] }
    const event = {
      type: 'samples',
      rows: new Float64Array(0),
      frame: new Float64Array(1),
      nowMs: 0,
      events: 0,
    }
    expect(isWorkerReply(reply)).toBe(true)
    expect(isWorkerEvent(reply)).toBe(false)
    expect(isWorkerEvent(event)).toBe(true)
    expect(isWorkerReply(event)).toBe(false)
    expect(isWorkerReply({ type: 'ok' })).toBe(false)
    expect(isWorkerEvent({ type: 'fatal', message: 'x' })).toBe(true)
  })
})

describe('documentDigest', () => {
  it('tells documents apart by length and content, and is the same for the same text', () => {
    const doc = JSON.stringify({ vcs: [{ id: 'vc1', rif: 0.0625 }] })
    expect(documentDigest(doc)).toBe(documentDigest(`${doc}`))
    expect(documentDigest(doc)).toMatch(/^\d+:[0-9a-f]+$/)
    expect(documentDigest(doc)).not.toBe(documentDigest(doc.replace('0.0625', '0.0626')))
    expect(documentDigest(doc)).not.toBe(documentDigest(`${doc} `))
    // FNV-1a of the empty text is its offset basis.
    expect(documentDigest('')).toBe('0:811c9dc5')
  })
})

describe('parseEngineErrors', () => {
  it('reads an accepted scenario as no errors', () => {
    expect(parseEngineErrors('{"ok":true}')).toEqual([])
  })

  it('keeps every path and message', () => {
    const text = JSON.stringify({
      ok: false,
      errors: [
        { path: 'vcs.vc2.rif', message: '0.3 is not a power of two between 1/32768 and 1' },
        { path: 'links.l9', message: 'unknown node SW9' },
      ],
    })
    expect(parseEngineErrors(text)).toEqual([
      { path: 'vcs.vc2.rif', message: '0.3 is not a power of two between 1/32768 and 1' },
      { path: 'links.l9', message: 'unknown node SW9' },
    ])
  })

  it('keeps text that is not the error JSON as one message', () => {
    expect(parseEngineErrors('RuntimeError: unreachable')).toEqual([
      { path: '', message: 'RuntimeError: unreachable' },
    ])
  })

  it('reads the warnings of an accepted scenario', () => {
    const text = '{"ok":true,"warnings":[{"path":"vcs.vc1.icr_mbps","message":"above TBE/FRTT"}]}'
    expect(parseEngineErrors(text)).toEqual([])
    expect(parseEngineWarnings(text)).toEqual([
      { path: 'vcs.vc1.icr_mbps', message: 'above TBE/FRTT' },
    ])
    expect(parseEngineWarnings('{"ok":true}')).toEqual([])
    expect(parseEngineWarnings('{"ok":false,"errors":[]}')).toEqual([])
  })

  it('formats path first', () => {
    expect(formatScenarioError({ path: 'a.b', message: 'bad' })).toBe('a.b: bad')
    expect(formatScenarioError({ path: '', message: 'bad' })).toBe('bad')
  })
})
