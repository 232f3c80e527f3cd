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
  if (TEXT_ENTRY.has(tag) || target?.isContentEditable) return undefined
  const activatable = ACTIVATABLE.has(tag) || target?.getAttribute?.('role') === 'button'
  if (activatable && (event.key === ' ' || event.key === 'Enter')) return undefined
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
  const mod = event.ctrlKey || event.metaKey
  const combo = mod ? `mod+${event.shiftKey ? 'shift+' : ''}${key}` : key
  return actions.find((a) => a.enabled && a.keys.includes(combo))
}
