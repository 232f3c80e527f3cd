/**
 * Presentation mode: for a lecture hall. The drawing and two charts of the lecturer's
 * choice fill the screen, with large text and thick lines, at a slower pace. The choice survives a
 * reload (localStorage) and travels in share links (ViewState.present); P or the button toggles it.
 */
import { useEffect, useSyncExternalStore } from 'react'
import type { ChartKind } from '../charts/models'
import './presentation.css'

export interface Presentation {
  on: boolean
  /** The two charts shown beside the drawing. */
  charts: readonly [ChartKind, ChartKind]
}

const KEY = 'abrlab.presentation'
const DEFAULT: Presentation = { on: false, charts: ['acr', 'queue'] }
/** Least size (screen px) of the drawing's labels in presentation mode: read from the back. */
export const PRESENT_LABEL_PX = 24
/** The pace presentation mode starts at when the page runs faster (sim ms per wall second). */
export const PRESENTATION_PACE = 10

function load(): Presentation {
  try {
    const raw = JSON.parse(
      window.localStorage.getItem(KEY) ?? 'null',
    ) as Partial<Presentation> | null
    if (!raw || typeof raw !== 'object') return DEFAULT
    const charts =
      Array.isArray(raw.charts) &&
      raw.charts.length === 2 &&
      raw.charts.every((c) => typeof c === 'string')
        ? (raw.charts as [ChartKind, ChartKind])
        : DEFAULT.charts
    return { on: raw.on === true, charts }
  } catch {
    return DEFAULT
  }
}

let state: Presentation = typeof window === 'undefined' ? DEFAULT : load()
const listeners = new Set<() => void>()

export function getPresentation(): Presentation {
  return state
}

export function setPresentation(next: Partial<Presentation>): void {
  state = { ...state, ...next }
  try {
    window.localStorage.setItem(KEY, JSON.stringify(state))
  } catch {
    // Storage may be unavailable (private mode, an embedding page's policy): the mode still works.
  }
  for (const l of listeners) l()
}

/** How many mounted components use the mode (the P key listener is there while any does). */
let shortcutUsers = 0

function onPresentKey(event: KeyboardEvent): void {
  if (event.key !== 'p' && event.key !== 'P') return
  if (event.ctrlKey || event.metaKey || event.altKey) return
  const t = event.target as HTMLElement | null
  if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return
  event.preventDefault()
  setPresentation({ on: !state.on })
}

export function usePresentation(): Presentation {
  const value = useSyncExternalStore(
    (fn) => {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    () => state,
  )
  // P toggles it, unless typing in a field: one listener however many components ask.
  useEffect(() => {
    if (shortcutUsers++ === 0) window.addEventListener('keydown', onPresentKey)
    return () => {
      if (--shortcutUsers === 0) window.removeEventListener('keydown', onPresentKey)
    }
  }, [])
  return value
}
