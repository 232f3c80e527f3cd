/**
 * The editor's hooks on the browser: whether the page has its phone layout, an element's width,
 * and a finger on a node that drags it instead of scrolling the page.
 */
import { useEffect, useState, useSyncExternalStore } from 'react'

/** The page's phone layout (styles.css uses the same width). */
const PHONE_QUERY = '(max-width: 600px)'

export function usePhone(): boolean {
  return useSyncExternalStore(
    (fn) => {
      const query = window.matchMedia(PHONE_QUERY)
      query.addEventListener('change', fn)
      return () => query.removeEventListener('change', fn)
    },
    () => window.matchMedia(PHONE_QUERY).matches,
  )
}

/** Width of an element in CSS px, followed as it changes. */
export function useWidth(ref: { readonly current: HTMLElement | null }): number {
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    setWidth(el.clientWidth)
    const observer = new ResizeObserver(() => setWidth(el.clientWidth))
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref])
  return width
}

/**
 * A finger put on a node drags the node. CSS `touch-action` is not honoured on an SVG group, so
 * without this the browser starts to scroll the page a few pixels into the move and cancels the
 * pointer (pointercancel), and the node stays where it was; elsewhere on the drawing a finger
 * still pans. The listener must be non-passive to prevent that default.
 */
export function useTouchDrag(ref: { readonly current: SVGSVGElement | null }): void {
  useEffect(() => {
    const svg = ref.current
    if (!svg) return
    const hold = (event: TouchEvent) => {
      if (event.touches.length === 1 && (event.target as Element | null)?.closest('.edit-node'))
        event.preventDefault()
    }
    svg.addEventListener('touchstart', hold, { passive: false })
    return () => svg.removeEventListener('touchstart', hold)
  }, [ref])
}
