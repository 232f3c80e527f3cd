/** A note beside the element an edit concerns: why it was refused, or what happened. */
import type { Point } from '../topology/geometry'

/** A callout's place in the drawing, its text and its tone. */
export interface Callout {
  at: Point
  text: string
  tone: 'error' | 'info'
}

/** The callout over a drawing `width` × `height` units, with a button that dismisses it. */
export function CalloutBox({
  callout,
  width,
  height,
  onDismiss,
}: {
  callout: Callout
  width: number
  height: number
  onDismiss(): void
}) {
  return (
    <div
      className={`callout ${callout.tone}`}
      role={callout.tone === 'error' ? 'alert' : 'status'}
      style={{ left: `${(callout.at.x / width) * 100}%`, top: `${(callout.at.y / height) * 100}%` }}
    >
      {callout.text}
      <button type="button" className="callout-close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  )
}
