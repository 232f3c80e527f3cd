/**
 * User actions as registered objects: a name, a label, the keys that trigger it, and what it does.
 * Buttons and the keyboard both go through this table, so each shortcut is defined in one place
 * (excalidraw `actions/register.ts`).
 */

export type ActionName =
  | 'togglePlay'
  | 'step'
  | 'reset'
  | 'slower'
  | 'faster'
  | 'undo'
  | 'redo'
  | 'remove'

export interface Action {
  name: ActionName
  /** Button text for the current state. */
  label: string
  /**
   * Keys that perform the action: a `KeyboardEvent.key` value ("r", " ", "Delete"), with `mod+`
   * in front for Ctrl (Cmd on a Mac) and `mod+shift+` for Ctrl+Shift: "mod+z", "mod+shift+z".
   */
  keys: readonly string[]
  /** Human form of the shortcut, e.g. "Space". */
  shortcut: string
  enabled: boolean
  perform(): void
}

/** Elements that take typed keys: every shortcut stands aside while one has focus. */
const TEXT_ENTRY = new Set(['INPUT', 'TEXTAREA', 'SELECT'])
/**
 * Inputs that take no text: a slider needs only its arrows and paging keys, a checkbox or radio
 * only Space, so every other shortcut still works while one has focus (after a slider is touched).
 */
const KEYS_OF_INPUT: Record<string, ReadonlySet<string>> = {
  range: new Set([
    'ArrowLeft',
    'ArrowRight',
    'ArrowUp',
    'ArrowDown',
    'Home',
    'End',
    'PageUp',
    'PageDown',
  ]),
  checkbox: new Set([' ']),
  radio: new Set([' ', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']),
  button: new Set([' ', 'Enter']),
  submit: new Set([' ', 'Enter']),
  reset: new Set([' ', 'Enter']),
  file: new Set([' ', 'Enter']),
  color: new Set([' ', 'Enter']),
}
/** Elements that a focused Space or Enter activates: those keys stay theirs. */
const ACTIVATABLE = new Set(['BUTTON', 'A', 'SUMMARY'])

/** Finds the enabled action bound to a key press, or undefined. */
export function actionForKey(
  actions: readonly Action[],
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'> & {
    shiftKey?: boolean
    target: EventTarget | null
  },
): Action | undefined {
  // Alt combinations belong to the browser and the system.
  if (event.altKey) return undefined
  const target = event.target as {
    tagName?: string
    isContentEditable?: boolean
    getAttribute?: (name: string) => string | null
  } | null
  const tag = target?.tagName ?? ''
  const inputType = tag === 'INPUT' ? (target?.getAttribute?.('type') ?? 'text').toLowerCase() : ''
  const ownKeys = KEYS_OF_INPUT[inputType]
  if (ownKeys) {
    if (ownKeys.has(event.key)) return undefined
  } else if (TEXT_ENTRY.has(tag) || target?.isContentEditable) return undefined
  const activatable = ACTIVATABLE.has(tag) || target?.getAttribute?.('role') === 'button'
  if (activatable && (event.key === ' ' || event.key === 'Enter')) return undefined
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
  const mod = event.ctrlKey || event.metaKey
  const combo = mod ? `mod+${event.shiftKey ? 'shift+' : ''}${key}` : key
  return actions.find((a) => a.enabled && a.keys.includes(combo))
}
