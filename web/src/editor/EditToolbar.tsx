/** The editor's toolbar: add a host, a switch, a link or a VC; remove the selection; cancel. */
import type { Selection } from '../scenario/doc'
import type { Mode } from './mode'

/** What the toolbar's buttons do. */
export interface ToolbarActions {
  onAdd(kind: 'host' | 'switch'): void
  onMode(mode: Mode): void
  onCancel(): void
  onRemove(): void
}

/** The toolbar for the current mode and selection. */
export function EditToolbar({
  mode,
  selection,
  on,
}: {
  mode: Mode
  selection: Selection | null
  on: ToolbarActions
}) {
  const { onAdd, onMode, onCancel, onRemove } = on
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Edit the network">
      <button type="button" onClick={() => onAdd('host')}>
        + Host
      </button>
      <button type="button" onClick={() => onAdd('switch')}>
        + Switch
      </button>
      <button
        type="button"
        aria-pressed={mode.kind === 'link'}
        onClick={() => (mode.kind === 'link' ? onCancel() : onMode({ kind: 'link', from: null }))}
      >
        + Link
      </button>
      <button
        type="button"
        aria-pressed={mode.kind === 'vc'}
        onClick={() => (mode.kind === 'vc' ? onCancel() : onMode({ kind: 'vc', path: [] }))}
      >
        + VC
      </button>
      <button
        type="button"
        onClick={onRemove}
        disabled={!selection}
        title="Remove the selection (Delete)"
      >
        Remove{selection ? ` ${selection.id}` : ''}
      </button>
      {mode.kind !== 'select' && (
        <button type="button" className="plain" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  )
}
