/**
 * The page's simulation state: one EngineClient, the samples of the current run, the latest live
 * frame, and what to show when something goes wrong.
 *
 * Samples arrive many times per second; they are appended to a SampleStore at once, but React is
 * told about them at most once per animation frame (a `revision` counter), so charts redraw at the
 * display rate however fast the engine runs (excalidraw's throttleRAF).
 */
import { startTransition, useCallback, useEffect, useRef, useState } from 'react'
import {
  EngineCallError,
  EngineClient,
  createEngineWorker,
  type LoadResult,
  type SetParamResult,
} from '../engine/EngineClient'
import { parseFrame, type LiveFrame } from '../engine/frame'
import { parseLayout, type Layout } from '../engine/layout'
import type { RunStatus, ScenarioError, Speed, WorkerEvent } from '../engine/protocol'
import { rowsOfRun, SampleStore } from '../engine/samples'

/** The engine's latest snapshot of cells on the links, for the animation. */
export interface LiveCells {
  /** Rows of 7, see `protocol.ts` (`samples.cells`). */
  rows: Float64Array
  /** Simulated time of the snapshot, ms. */
  nowMs: number
  /** `performance.now()` when it arrived. */
  wallMs: number
  /** Every cell of the magnified port, rows of 7 (`samples.portCells`), or null. */
  port: Float64Array | null
}

/** Something the page cannot run past, shown as readable text. */
export interface PageError {
  title: string
  message: string
  errors: ScenarioError[]
  /** Offer a way back to the default scenario (the one asked for cannot be opened). */
  offerDefault?: boolean
}

export interface Simulation {
  layout: Layout | null
  store: SampleStore | null
  frame: LiveFrame | null
  status: RunStatus
  nowMs: number
  events: number
  speed: Speed
  error: PageError | null
  /** Suspicious-but-legal settings the engine noticed in the scenario. */
  warnings: ScenarioError[]
  /** Bumped at most once per animation frame when new samples arrived. */
  revision: number
  /** The latest cells in flight (read by the animation each display frame, outside React). */
  cells: { readonly current: LiveCells | null }
  /**
   * Builds a scenario (JSON text) in the engine, replacing the current run; with `play`, runs it
   * at once. Resolves with the engine's verdict, or null when a later load superseded this one.
   */
  load(json: string, options?: LoadOptions): Promise<LoadResult | null>
  /** Plays on; with `pauseAtMs`, the engine pauses exactly at that simulated time. */
  play(pauseAtMs?: number): void
  pause(): void
  /** Advances `ms` of simulated time and stops there. */
  step(ms: number): void
  reset(): void
  setSpeed(speed: Speed): void
  /** Asks the engine for up to `max` cells in flight with every frame (0: none). */
  setAnimationCells(max: number): void
  /** Asks the engine for every cell of one port (by index) with every frame, for the magnifier (null: none). */
  setMagnified(port: number | null): void
  /** Changes one parameter of the run by dotted path (`Engine.set_param`). */
  setParam(path: string, valueJson: string): Promise<SetParamResult>
}

export interface LoadOptions {
  play?: boolean
}

/** Default pacing: simulated ms per wall second (the default scenario's 300 ms play in 6 s). */
export const DEFAULT_SPEED: Speed = 50

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function useSimulation(): Simulation {
  const clientRef = useRef<EngineClient | null>(null)
  const storeRef = useRef<SampleStore | null>(null)
  const layoutRef = useRef<Layout | null>(null)
  const frameRef = useRef<LiveFrame | null>(null)
  /** False while a load or reset is in flight: samples still arriving belong to the old run. */
  const acceptingRef = useRef(false)
  const rafRef = useRef<number | null>(null)
  const speedRef = useRef<Speed>(DEFAULT_SPEED)
  const cellsRef = useRef<LiveCells | null>(null)
  const animationCellsRef = useRef(0)
  const magnifiedRef = useRef<number | null>(null)
  /** Counts loads; only the latest one's result is adopted. */
  const generationRef = useRef(0)

  const [layout, setLayout] = useState<Layout | null>(null)
  const [status, setStatus] = useState<RunStatus>('idle')
  const [clock, setClock] = useState({ nowMs: 0, events: 0 })
  const [speed, setSpeedState] = useState<Speed>(DEFAULT_SPEED)
  const [error, setError] = useState<PageError | null>(null)
  const [warnings, setWarnings] = useState<ScenarioError[]>([])
  const [revision, setRevision] = useState(0)

  /** The clock of the latest samples, shown with the next render (not one render per message). */
  const clockRef = useRef<{ nowMs: number; events: number } | null>(null)

  const scheduleRender = useCallback(() => {
    if (rafRef.current !== null) return
    rafRef.current = requestAnimationFrame(() => {
      rafRef.current = null
      const latest = clockRef.current
      clockRef.current = null
      // A transition (issue 18): React renders it in slices of a few milliseconds, yielding to
      // the page between them, so that with 500 VCs a key press or the engine's answer to a
      // parameter change is handled at once rather than after the whole page has re-rendered.
      startTransition(() => {
        if (latest) setClock(latest)
        setRevision((r) => r + 1)
      })
    })
  }, [])

  const adopt = useCallback((result: LoadResult) => {
    if (!result.ok) {
      layoutRef.current = null
      storeRef.current = null
      setLayout(null)
      setWarnings([])
      setStatus('idle')
      const count = result.errors.length
      setError({
        title: 'The engine rejected this scenario',
        message: `${count === 1 ? 'One problem' : `${count} problems`}, each named by its path in the scenario file:`,
        errors: result.errors,
        offerDefault: true,
      })
      return
    }
    const parsed = parseLayout(result.layoutJson)
    layoutRef.current = parsed
    storeRef.current = new SampleStore(parsed.columns, {
      expectedRows: rowsOfRun(parsed.until_ms, parsed.sample_interval_ms),
    })
    frameRef.current = null
    cellsRef.current = null
    acceptingRef.current = true
    setLayout(parsed)
    setWarnings(result.warnings)
    setStatus('paused')
    clockRef.current = null
    setClock({ nowMs: 0, events: 0 })
    setError(null)
    setRevision((r) => r + 1)
  }, [])

  const fail = useCallback((title: string, cause: unknown) => {
    setStatus('idle')
    setError({ title, message: describe(cause), errors: [] })
  }, [])

  const onEvent = useCallback(
    (event: WorkerEvent) => {
      switch (event.type) {
        case 'samples': {
          const store = storeRef.current
          const current = layoutRef.current
          if (!acceptingRef.current || !store || !current) return
          try {
            store.append(event.rows)
            // Read into the store: the buffer goes back to the worker for the next rows.
            clientRef.current?.recycle(event.rows)
            frameRef.current = parseFrame(event.frame, current)
            if (event.cells || event.portCells) {
              const rows = event.cells ?? new Float64Array(0)
              cellsRef.current = {
                rows,
                port: event.portCells ?? null,
                nowMs: event.nowMs,
                wallMs: performance.now(),
              }
            }
          } catch (cause) {
            acceptingRef.current = false
            void clientRef.current?.pause().catch(() => undefined)
            fail('The engine sent data the page cannot read', cause)
            return
          }
          // One render per display frame however many messages arrived (issue 18: with 500 VCs
          // a render per message kept a parameter change's answer waiting behind them).
          clockRef.current = { nowMs: event.nowMs, events: event.events }
          scheduleRender()
          return
        }
        case 'status':
          if (!acceptingRef.current) return
          clockRef.current = null
          setStatus(event.status)
          setClock({ nowMs: event.nowMs, events: event.events })
          return
        case 'fatal':
          acceptingRef.current = false
          setStatus('idle')
          setError({
            title: 'The engine crashed',
            message: `${event.message}. Reset (R) rebuilds the scenario in a fresh engine.`,
            errors: [],
          })
          return
      }
    },
    [fail, scheduleRender],
  )

  // One client per page.
  useEffect(() => {
    const client = new EngineClient(createEngineWorker)
    clientRef.current = client
    const unsubscribe = client.subscribe(onEvent)
    return () => {
      unsubscribe()
      client.dispose()
      clientRef.current = null
      if (rafRef.current !== null) cancelAnimationFrame(rafRef.current)
      rafRef.current = null
    }
  }, [onEvent])

  const load = useCallback(
    async (json: string, options: LoadOptions = {}): Promise<LoadResult | null> => {
      const client = clientRef.current
      if (!client) return null
      const generation = ++generationRef.current
      acceptingRef.current = false
      setStatus('idle')
      try {
        // A fresh worker (first load, or after a crash) starts with default pacing: set the user's.
        await client.setSpeed(speedRef.current)
        await client.animate(animationCellsRef.current, magnifiedRef.current)
        const result = await client.load(json)
        // A newer load supersedes this one: its result is not shown.
        if (generation !== generationRef.current) return null
        adopt(result)
        if (result.ok && options.play) await client.play()
        return result
      } catch (cause) {
        if (generation === generationRef.current && clientRef.current === client)
          fail('Could not start the engine', cause)
        return null
      }
    },
    [adopt, fail],
  )

  const step = useCallback(
    (ms: number) => {
      const client = clientRef.current
      if (!client || !layoutRef.current) return
      client.step(ms).catch((cause: unknown) => fail('The engine could not step', cause))
    },
    [fail],
  )

  const setParam = useCallback(async (path: string, valueJson: string): Promise<SetParamResult> => {
    const client = clientRef.current
    if (!client) return { ok: false, errors: [{ path, message: 'the engine is not running' }] }
    return client.setParam(path, valueJson)
  }, [])

  const play = useCallback(
    (pauseAtMs?: number) => {
      const client = clientRef.current
      if (!client || !layoutRef.current) return
      client
        .play(undefined, pauseAtMs)
        .catch((cause: unknown) => fail('The engine could not play', cause))
    },
    [fail],
  )

  const pause = useCallback(() => {
    clientRef.current?.pause().catch((cause: unknown) => fail('The engine could not pause', cause))
  }, [fail])

  const reset = useCallback(() => {
    const client = clientRef.current
    if (!client) return
    acceptingRef.current = false
    const generation = ++generationRef.current
    client
      .reset()
      .then(async (result) => {
        // A fresh worker (after a crash) starts with default pacing: restore the user's.
        await client.setSpeed(speedRef.current)
        await client.animate(animationCellsRef.current, magnifiedRef.current)
        if (generation === generationRef.current) adopt(result)
      })
      .catch((cause: unknown) => {
        if (cause instanceof EngineCallError && cause.message === 'no scenario to reset to') return
        fail('The engine could not reset', cause)
      })
  }, [adopt, fail])

  const setSpeed = useCallback(
    (next: Speed) => {
      speedRef.current = next
      setSpeedState(next)
      clientRef.current
        ?.setSpeed(next)
        .catch((cause: unknown) => fail('The engine could not change speed', cause))
    },
    [fail],
  )

  const setAnimationCells = useCallback(
    (max: number) => {
      if (animationCellsRef.current === max) return
      animationCellsRef.current = max
      if (max === 0) cellsRef.current = null
      clientRef.current
        ?.animate(max, magnifiedRef.current)
        .catch((cause: unknown) => fail('The engine could not send cells for the animation', cause))
    },
    [fail],
  )

  const setMagnified = useCallback(
    (port: number | null) => {
      if (magnifiedRef.current === port) return
      magnifiedRef.current = port
      if (port === null && cellsRef.current) cellsRef.current = { ...cellsRef.current, port: null }
      clientRef.current
        ?.animate(animationCellsRef.current, port)
        .catch((cause: unknown) => fail('The engine could not send cells for the magnifier', cause))
    },
    [fail],
  )

  return {
    layout,
    store: storeRef.current,
    frame: frameRef.current,
    status,
    nowMs: clock.nowMs,
    events: clock.events,
    speed,
    error,
    warnings,
    revision,
    cells: cellsRef,
    load,
    play,
    pause,
    step,
    reset,
    setSpeed,
    setAnimationCells,
    setMagnified,
    setParam,
  }
}
