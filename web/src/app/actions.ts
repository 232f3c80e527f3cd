/**
 * User actions as registered objects: a name, a label, the keys that trigger it, and what it does.
 * Buttons and the keyboard both go through this table, so each shortcut is defined in one place
 * (excalidraw `actions/register.ts`).
 */

export type ActionName = 'togglePlay' | 'reset'

export interface Action {
  name: ActionName
  /** Button text for the current state. */
  label: string
  /** `KeyboardEvent.key` values that perform the action. */
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
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'> & { target: EventTarget | null },
): Action | undefined {
  if (event.ctrlKey || event.metaKey || event.altKey) return undefined
  const target = event.target as { tagName?: string; isContentEditable?: boolean } | null
  const tag = target?.tagName ?? ''
  if (TEXT_ENTRY.has(tag) || target?.isContentEditable) return undefined
  if (ACTIVATABLE.has(tag) && (event.key === ' ' || event.key === 'Enter')) return undefined
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
  return actions.find((a) => a.enabled && a.keys.includes(key))
}
