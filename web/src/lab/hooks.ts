/**
 * React's view of the Lab store: `useLab(selector)` and `useRun(selector)` re-render a component
 * only when the slice it selects changes (compared by identity).
 */
import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
} from 'react'
import { createEngineWorker, EngineClient } from '../engine/EngineClient'
import { connectAddress } from './address'
import { Lab, type LabView } from './lab'
import { Run, type RunView } from './run'

export const LabContext = createContext<Lab | null>(null)

/** The page's Lab, from the nearest LabContext provider. */
export function useLabStore(): Lab {
  const lab = useContext(LabContext)
  if (lab === null) throw new Error('useLab is used outside a LabContext provider')
  return lab
}

/** A slice of the Lab's state. */
export function useLab<T>(selector: (view: LabView) => T): T {
  const lab = useLabStore()
  return useSyncExternalStore(lab.subscribe, () => selector(lab.get()))
}

/**
 * A slice of the run's state that changes only when the user or the engine says so (its status,
 * pace, layout, error): read at once, so that a key pressed twice sees the first press's effect.
 */
export function useRun<T>(selector: (view: RunView) => T): T {
  const lab = useLabStore()
  return useSyncExternalStore(lab.run.subscribe, () => selector(lab.run.get()))
}

/**
 * A slice of the run's state that changes with every display frame while it plays (its time,
 * the samples' revision, the live frame). Its readers are re-rendered as a transition: React
 * renders them in slices of a few milliseconds and yields to the page between them,
 * so that with 500 VCs a click, a key press or the engine's answer to a parameter change is
 * handled at once rather than after the whole page has re-rendered.
 */
export function useRunFrame<T>(selector: (view: RunView) => T): T {
  const lab = useLabStore()
  const [value, setValue] = useState(() => selector(lab.run.get()))
  useEffect(() => {
    const follow = () => {
      const next = selector(lab.run.get())
      startTransition(() => setValue(next))
    }
    // What changed between this render and now, then every change.
    follow()
    return lab.run.subscribe(follow)
  }, [lab, selector])
  return value
}

export interface LabOptions {
  /** Play as soon as the scenario is built (embed `&autoplay`). */
  autoplay?: boolean
  /** Keep the URL hash up to date with the edited scenario (not in embed mode). */
  trackUrl?: boolean
}

/**
 * Creates the page's Lab with its engine worker, connected to the page's address; the worker is
 * terminated when the page unmounts (and started again if it mounts again).
 */
export function useNewLab(options: LabOptions): Lab {
  const [lab] = useState(
    () => new Lab(new Run(new EngineClient(createEngineWorker)), options.autoplay),
  )
  const track = options.trackUrl ?? false
  useEffect(() => {
    const disconnect = connectAddress(lab, track)
    return () => {
      disconnect()
      lab.run.dispose()
    }
  }, [lab, track])
  return lab
}
