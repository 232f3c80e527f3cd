import { describe, expect, it, vi } from 'vitest'
import { actionForKey, type Action } from './actions'

function actions(): Action[] {
  return [
    { name: 'togglePlay', label: 'Play', keys: [' '], shortcut: 'Space', enabled: true, perform: vi.fn() },
    { name: 'reset', label: 'Reset', keys: ['r'], shortcut: 'R', enabled: false, perform: vi.fn() },
  ]
}

const key = (k: string, tagName = 'BODY', mods: Partial<KeyboardEvent> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
  target: { tagName } as unknown as EventTarget,
})

describe('actionForKey', () => {
  it('maps space to play/pause', () => {
    expect(actionForKey(actions(), key(' '))?.name).toBe('togglePlay')
  })

  it('ignores disabled actions', () => {
    expect(actionForKey(actions(), key('r'))).toBeUndefined()
  })

  it('matches letters regardless of case', () => {
    const list = actions()
    list[1].enabled = true
    expect(actionForKey(list, key('R'))?.name).toBe('reset')
  })

  it('leaves keys to focused controls and to browser shortcuts', () => {
    const list = actions()
    list[1].enabled = true
    expect(actionForKey(list, key(' ', 'BUTTON'))).toBeUndefined()
    expect(actionForKey(list, key('r', 'BUTTON'))?.name).toBe('reset')
    expect(actionForKey(list, key('r', 'SELECT'))).toBeUndefined()
    expect(actionForKey(actions(), key(' ', 'INPUT'))).toBeUndefined()
    expect(actionForKey(actions(), key(' ', 'BODY', { ctrlKey: true }))).toBeUndefined()
  })
})
