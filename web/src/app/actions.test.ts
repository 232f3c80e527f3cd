import { describe, expect, it, vi } from 'vitest'
import { actionForKey, type Action } from './actions'

function actions(): Action[] {
  return [
    {
      name: 'togglePlay',
      label: 'Play',
      keys: [' '],
      shortcut: 'Space',
      enabled: true,
      perform: vi.fn(),
    },
    { name: 'reset', label: 'Reset', keys: ['r'], shortcut: 'R', enabled: false, perform: vi.fn() },
  ]
}

const key = (k: string, tagName = 'BODY', mods: Partial<KeyboardEvent> = {}, type?: string) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
  target: {
    tagName,
    getAttribute: (name: string) => (name === 'type' ? (type ?? null) : null),
  } as unknown as EventTarget,
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
    expect(actionForKey(list, key('r', 'BODY', { ctrlKey: true }))).toBeUndefined()
    expect(actionForKey(list, key('r', 'BODY', { altKey: true }))).toBeUndefined()
  })

  it('matches Ctrl/Cmd combinations written as mod+', () => {
    const list: Action[] = [
      {
        name: 'undo',
        label: 'Undo',
        keys: ['mod+z'],
        shortcut: 'Ctrl+Z',
        enabled: true,
        perform: vi.fn(),
      },
      {
        name: 'redo',
        label: 'Redo',
        keys: ['mod+shift+z', 'mod+y'],
        shortcut: 'Ctrl+Shift+Z',
        enabled: true,
        perform: vi.fn(),
      },
    ]
    expect(actionForKey(list, key('z', 'BODY', { ctrlKey: true }))?.name).toBe('undo')
    expect(actionForKey(list, key('z', 'BODY', { metaKey: true }))?.name).toBe('undo')
    expect(actionForKey(list, key('Z', 'BODY', { ctrlKey: true, shiftKey: true }))?.name).toBe(
      'redo',
    )
    expect(actionForKey(list, key('y', 'BODY', { ctrlKey: true }))?.name).toBe('redo')
    expect(actionForKey(list, key('z'))).toBeUndefined()
    // Text fields keep their own undo.
    expect(actionForKey(list, key('z', 'INPUT', { ctrlKey: true }))).toBeUndefined()
  })

  it('works on a focused slider or checkbox except for the keys the control needs', () => {
    const list = actions()
    list[1].enabled = true
    expect(actionForKey(list, key(' ', 'INPUT', {}, 'range'))?.name).toBe('togglePlay')
    expect(actionForKey(list, key('r', 'INPUT', {}, 'range'))?.name).toBe('reset')
    expect(actionForKey(list, key('ArrowLeft', 'INPUT', {}, 'range'))).toBeUndefined()
    expect(actionForKey(list, key(' ', 'INPUT', {}, 'checkbox'))).toBeUndefined()
    expect(actionForKey(list, key('r', 'INPUT', {}, 'checkbox'))?.name).toBe('reset')
    // A text field keeps every key.
    expect(actionForKey(list, key('r', 'INPUT', {}, 'text'))).toBeUndefined()
    expect(actionForKey(list, key('r', 'INPUT'))).toBeUndefined()
  })
})
