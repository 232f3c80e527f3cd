/**
 * The lab bench's state: the scenario document being edited, its undo history, the selection,
 * and the one running simulation kept in step with the document.
 *
 * Every change to the document goes through `apply`: the engine validates the result first — the
 * whole of it, or for one changed value as far as that value reaches (a refused edit changes
 * nothing and says why), then the change is recorded for undo and carried
 * to the run. How it reaches the run depends on what changed:
 *   - node positions only (dragging): nothing to tell the engine, the run goes on untouched;
 *   - parameter values, mid-run: `Engine.set_param` for each changed value — "live" when the model
 *     took it, otherwise the scenario is rebuilt and the run restarts (and keeps playing);
 *   - anything else (topology, VCs, before the run has started): the scenario is rebuilt.
 * The page says which of these happened.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { formatScenarioError } from '../engine/protocol'
import type { PinnedRun } from '../charts/models'
import {
  emptyHistory,
  record,
  redo as redoStep,
  undo as undoStep,
  type History,
  type RunState,
} from '../editor/history'
import type { Edit } from '../editor/ops'
import { docNodes, docVcs, docLinks } from '../scenario/doc'
import { editedState, type EditedState } from '../scenario/edited'
import { loadEngineInfo, type EngineInfo } from '../scenario/engineInfo'
import {
  isObject,
  leafChanges,
  type Json,
  type JsonObject,
  type LeafChange,
} from '../scenario/paths'
import { restoreFromHash, type Notice, type Origin } from '../scenario/restore'
import { shareHash, type Selection, type ViewState } from '../scenario/shareLink'
import { getPresentation, setPresentation } from './presentation'
import { useSimulation, type Simulation } from './useSimulation'

/** What the last change did to the run, in words. */
export interface Announcement {
  text: string
  /** live: taken by the running simulation; restart: the run started again; info: neither. */
  tone: 'live' | 'restart' | 'info' | 'error'
  /** Bumped on every announcement, so repeating the same words is still announced. */
  serial: number
}

/**
 * The latest announcement, outside React state (issue 18): the line that shows it subscribes
 * (`useSyncExternalStore`) and is re-rendered alone, at once, in the task that made it — with 500
 * VCs a re-render of the whole page first kept "applied live" off the screen for 30–100 ms.
 */
export class Announcements {
  private current: Announcement | null = null
  private readonly listeners = new Set<() => void>()

  get = (): Announcement | null => this.current

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  set(next: Announcement | null): void {
    this.current = next
    for (const listener of this.listeners) listener()
  }
}

export interface Bench {
  info: EngineInfo | null
  sim: Simulation
  scenario: JsonObject | null
  origin: Origin | null
  notice: Notice | null
  dismissNotice(): void
  /** What the last change did to the run (subscribe to show it). */
  announcements: Announcements
  selection: Selection | null
  select(selection: Selection | null): void
  tab: 'params' | 'about'
  setTab(tab: 'params' | 'about'): void
  /**
   * Validates and applies an edit; returns null when applied, or the reason it was refused.
   * `key` groups a quick run of the same change into one undo step.
   */
  apply(edit: Edit, key?: string): string | null
  undo(): void
  redo(): void
  undoLabel: string | null
  redoLabel: string | null
  /**
   * Opens a scenario afresh (library, file): new history, the run rebuilt. `edited` marks it as
   * differing from what the URL names (a library file with a variant applied).
   */
  open(scenario: JsonObject, origin: Origin, view?: ViewState, edited?: boolean): void
  /**
   * Replaces the run with another scenario (change & run again, a sweep cell, a library file, a
   * loaded file): validated first — on refusal nothing changes and the engine's words come back —
   * then one undo step that restores the previous scenario, its run (to the same time) and pin.
   */
  replace(next: JsonObject, label: string, options?: ReplaceOptions): string | null
  /** The run drawn faint behind the current one on every chart. */
  pinned: PinnedRun | null
  setPinned(pinned: PinnedRun | null): void
  /** Changes the running simulation took live, with when (for the timeline's markers). */
  liveMarks: LiveMark[]
  /** The document against the library file it names (null: none to compare with). */
  edited: EditedState | null
  /** The share link's hash for the scenario and view as they are now. */
  shareHash(): Promise<string>
}

export interface ReplaceOptions {
  /** Where the new document comes from (default: where the current one came from). */
  origin?: Origin
  /** Play the new run as soon as it is built. */
  play?: boolean
  /** The new document differs from what the URL names (default true; false for a library file as it is). */
  edited?: boolean
  /** The run to pin beside the new one (default: the pin stays). */
  pinned?: PinnedRun | null
}

/** A parameter the running simulation took without restarting. */
export interface LiveMark {
  atMs: number
  text: string
  /** The run it belongs to (a mark disappears when the run is rebuilt). */
  run: object | null
}

export interface BenchOptions {
  /** Play as soon as the scenario is built (embed `&autoplay`). */
  autoplay?: boolean
  /** Keep the URL hash up to date with the edited scenario (not in embed mode). */
  trackUrl?: boolean
}

/** The document without what the engine does not use (positions, view state). */
function forEngine(scenario: JsonObject): JsonObject {
  // The view and the lecture (stops, questions) never change the run.
  const { view: _view, stops: _stops, questions: _questions, ...rest } = scenario
  void [_view, _stops, _questions]
  const nodes = Array.isArray(rest.nodes)
    ? rest.nodes.map((n): Json => (isObject(n) ? { ...n, x: 0, y: 0 } : n))
    : rest.nodes
  return { ...rest, nodes }
}

function sameForEngine(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(forEngine(a)) === JSON.stringify(forEngine(b))
}

/** The one value an edit changed, and the document it changed it in. */
interface KnownChange {
  from: JsonObject
  change: LeafChange
}

/**
 * Whether `leafChanges(forEngine(a), forEngine(b))` is `[change]` when `leafChanges(a, b)` is:
 * a value the engine reads (not the view, not a node's position).
 */
function engineReads(change: LeafChange): boolean {
  return !/^(view|nodes|stops|questions)(\.|$)/.test(change.path)
}

/** A selection that still names something in the scenario, else null. */
function validSelection(
  scenario: JsonObject,
  selection: Selection | null | undefined,
): Selection | null {
  if (!selection) return null
  const ids =
    selection.kind === 'node'
      ? docNodes(scenario).map((n) => n.id)
      : selection.kind === 'link'
        ? docLinks(scenario).map((l) => l.id)
        : docVcs(scenario).map((v) => v.id)
  return ids.includes(selection.id) ? selection : null
}

export function useBench(options: BenchOptions = {}): Bench {
  const sim = useSimulation()
  const simRef = useRef(sim)
  simRef.current = sim

  const [info, setInfo] = useState<EngineInfo | null>(null)
  const [scenario, setScenario] = useState<JsonObject | null>(null)
  const [origin, setOrigin] = useState<Origin | null>(null)
  const [notice, setNotice] = useState<Notice | null>(null)
  const [history, setHistory] = useState<History>(emptyHistory)
  const [selection, setSelection] = useState<Selection | null>(null)
  const [tab, setTab] = useState<'params' | 'about'>('about')
  const [announcements] = useState(() => new Announcements())
  const [edited, setEdited] = useState(false)
  const [pinned, setPinned] = useState<PinnedRun | null>(null)
  const [liveMarks, setLiveMarks] = useState<LiveMark[]>([])
  const pinnedRef = useRef(pinned)
  pinnedRef.current = pinned
  const originRef = useRef(origin)
  originRef.current = origin

  const scenarioRef = useRef<JsonObject | null>(null)
  scenarioRef.current = scenario
  const historyRef = useRef(history)
  historyRef.current = history
  const infoRef = useRef<EngineInfo | null>(null)
  infoRef.current = info

  /** The document the engine's run was built from, with the live changes made since. */
  const engineDocRef = useRef<JsonObject | null>(null)
  /** The latest document waiting to be carried to the run, and whether a carry is under way. */
  const pendingRef = useRef<{
    scenario: JsonObject
    label: string
    known?: KnownChange
  } | null>(null)
  const syncingRef = useRef(false)
  const serialRef = useRef(0)
  /** Bumped when a scenario is opened afresh: a carry still under way for the old one stops. */
  const epochRef = useRef(0)

  const announce = useCallback(
    (text: string, tone: Announcement['tone']) => {
      serialRef.current += 1
      announcements.set({ text, tone, serial: serialRef.current })
    },
    [announcements],
  )

  /** Brings the run in step with one document (see the file comment). */
  const syncOnce = useCallback(
    async (next: JsonObject, label: string, known?: KnownChange) => {
      const epoch = epochRef.current
      const current = simRef.current
      const engineDoc = engineDocRef.current
      // One value changed in the document the run was built from (a slider's step): that value
      // is the whole difference, without comparing two 500-VC documents again (issue 18).
      const knownChanges = known && known.from === engineDoc ? [known.change] : null
      if (knownChanges === null && engineDoc !== null && sameForEngine(engineDoc, next)) return
      const running = current.status === 'running'
      const midRun = (running || current.status === 'paused') && current.nowMs > 0
      const changes =
        engineDoc !== null && midRun
          ? (knownChanges ?? leafChanges(forEngine(engineDoc), forEngine(next)))
          : null
      if (changes !== null && changes.length > 0 && changes.every((c) => c.after !== undefined)) {
        let restart = false
        let at = 0
        for (const change of changes) {
          const result = await simRef.current.setParam(change.path, JSON.stringify(change.after))
          if (epochRef.current !== epoch) return
          if (!result.ok) {
            announce(
              `${label}: the engine refused it — ${result.errors.map(formatScenarioError).join('; ')}`,
              'error',
            )
            restart = true
            break
          }
          if (result.applied === 'restart') restart = true
          at = result.nowMs
        }
        if (!restart) {
          engineDocRef.current = next
          const run = simRef.current.layout
          // The timeline's marker may wait for the page's next render; the words may not.
          startTransition(() =>
            setLiveMarks((marks) => [
              ...marks.filter((m) => m.run === run),
              { atMs: at, text: label, run },
            ]),
          )
          announce(`${label}: applied live at t = ${at.toFixed(1)} ms, the run goes on.`, 'live')
          return
        }
        engineDocRef.current = next
        await simRef.current.load(JSON.stringify(next), { play: running })
        announce(
          `${label}: the model cannot change this mid-run, so the run restarted from 0 ms.`,
          'restart',
        )
        return
      }
      engineDocRef.current = next
      await simRef.current.load(JSON.stringify(next), { play: running })
      if (midRun)
        announce(`${label}: the network changed, so the run restarted from 0 ms.`, 'restart')
      else announce(`${label}.`, 'info')
    },
    [announce],
  )

  const requestSync = useCallback(
    (next: JsonObject, label: string, known?: KnownChange) => {
      pendingRef.current = { scenario: next, label, known }
      if (syncingRef.current) return
      syncingRef.current = true
      void (async () => {
        try {
          while (pendingRef.current !== null) {
            const job = pendingRef.current
            pendingRef.current = null
            await syncOnce(job.scenario, job.label, job.known)
          }
        } finally {
          syncingRef.current = false
        }
      })()
    },
    [syncOnce],
  )

  const open = useCallback(
    (next: JsonObject, nextOrigin: Origin, view: ViewState = {}, isEdited = false) => {
      pendingRef.current = null
      epochRef.current += 1
      setScenario(next)
      setOrigin(nextOrigin)
      setHistory(emptyHistory)
      setEdited(isEdited)
      setPinned(null)
      setSelection(validSelection(next, view.selection))
      if (view.tab) setTab(view.tab)
      if (view.speed !== undefined) simRef.current.setSpeed(view.speed)
      if (view.present) setPresentation({ on: true })
      engineDocRef.current = next
      void simRef.current.load(JSON.stringify(next), { play: options.autoplay })
    },
    [options.autoplay],
  )

  // The engine's registry and validator, then whatever the URL hash names; again on hashchange.
  useEffect(() => {
    let cancelled = false
    // Whether a scenario is open already: a link followed later that cannot be opened leaves it
    // open (nothing the reader had is lost) rather than replacing it with the default.
    let opened = false
    const restore = async () => {
      const engineInfo = await loadEngineInfo()
      if (cancelled) return
      setInfo(engineInfo)
      const restored = await restoreFromHash(
        window.location.hash,
        engineInfo.validate,
        undefined,
        engineInfo.maxInputBytes,
      )
      if (cancelled) return
      if (opened && restored.rejected) {
        setNotice({
          ...restored.rejected,
          message: `The scenario you had is still open. ${restored.rejected.message}`,
        })
        return
      }
      setNotice(restored.notice)
      open(restored.scenario, restored.origin, restored.view)
      opened = true
    }
    const run = () => {
      restore().catch((error: unknown) => {
        if (cancelled) return
        setNotice({
          title: 'ABR Lab could not start',
          message: error instanceof Error ? error.message : String(error),
          errors: [],
        })
      })
    }
    run()
    window.addEventListener('hashchange', run)
    return () => {
      cancelled = true
      window.removeEventListener('hashchange', run)
    }
  }, [open])

  const replace = useCallback(
    (next: JsonObject, label: string, replaceOptions: ReplaceOptions = {}): string | null => {
      const current = scenarioRef.current
      const engineInfo = infoRef.current
      if (!current || !engineInfo) return 'the scenario is still loading'
      const verdict = engineInfo.validate(JSON.stringify(next))
      if (!verdict.ok) return verdict.errors.map(formatScenarioError).join('; ')
      const before: RunState = {
        origin: originRef.current,
        nowMs: simRef.current.nowMs,
        pinned: pinnedRef.current,
      }
      setHistory((h) => record(h, current, label, null, performance.now(), before))
      pendingRef.current = null
      epochRef.current += 1
      setScenario(next)
      if (replaceOptions.origin) setOrigin(replaceOptions.origin)
      if (replaceOptions.pinned !== undefined) setPinned(replaceOptions.pinned)
      setEdited(replaceOptions.edited ?? true)
      setSelection((sel) => validSelection(next, sel))
      engineDocRef.current = next
      void simRef.current.load(JSON.stringify(next), { play: replaceOptions.play })
      announce(`${label}: a new run replaced the previous one (Undo brings it back).`, 'restart')
      return null
    },
    [announce],
  )

  const apply = useCallback(
    (edit: Edit, key?: string): string | null => {
      const current = scenarioRef.current
      const engineInfo = infoRef.current
      if (!edit.ok) return capitalise(edit.message)
      if (!current || !engineInfo) return 'the scenario is still loading'
      const changes = leafChanges(current, edit.scenario)
      // Setting what is already there (a slider let go where it was) changes nothing.
      if (changes !== null && changes.length === 0) return null
      const text = JSON.stringify(edit.scenario)
      if (changes === null && text === JSON.stringify(current)) return null
      // One value changed in a valid document (a slider's step): the engine checks it as far as
      // it reaches; anything more is validated whole.
      const verdict =
        changes !== null && changes.length === 1 && changes[0].after !== undefined
          ? engineInfo.validateEdit(text, changes[0].path)
          : engineInfo.validate(text)
      if (!verdict.ok) return verdict.errors.map(formatScenarioError).join('; ')
      setHistory((h) => record(h, current, edit.label, key ?? null, performance.now()))
      setScenario(edit.scenario)
      setEdited(true)
      if (edit.select !== undefined) setSelection(edit.select)
      else setSelection((sel) => validSelection(edit.scenario, sel))
      const detail = edit.detail ? ` (${edit.detail})` : ''
      const one = changes?.length === 1 ? changes[0] : null
      requestSync(
        edit.scenario,
        `${edit.label}${detail}`,
        one && one.after !== undefined && engineReads(one)
          ? { from: current, change: one }
          : undefined,
      )
      return null
    },
    [requestSync],
  )

  const travel = useCallback(
    (step: typeof undoStep, verb: string) => {
      const current = scenarioRef.current
      if (!current) return
      const now: RunState = {
        origin: originRef.current,
        nowMs: simRef.current.nowMs,
        pinned: pinnedRef.current,
      }
      const result = step(historyRef.current, current, now)
      if (!result) return
      setHistory(result.history)
      setScenario(result.scenario)
      setEdited(true)
      setSelection((sel) => validSelection(result.scenario, sel))
      const text = `${verb} ${lowerFirst(result.label)}`
      const run = result.run
      if (!run) {
        requestSync(result.scenario, text)
        return
      }
      // The whole run was replaced: rebuild the one it replaced, to the time it had reached.
      pendingRef.current = null
      epochRef.current += 1
      setOrigin(run.origin)
      setPinned(run.pinned)
      engineDocRef.current = result.scenario
      void simRef.current.load(JSON.stringify(result.scenario)).then((loaded) => {
        if (loaded?.ok && run.nowMs > 0) simRef.current.step(run.nowMs)
      })
      announce(
        run.nowMs > 0
          ? `${text}: the previous run is back, rebuilt to t = ${run.nowMs.toFixed(1)} ms.`
          : `${text}: the previous run is back.`,
        'restart',
      )
    },
    [requestSync, announce],
  )
  const undo = useCallback(() => travel(undoStep, 'Undo:'), [travel])
  const redo = useCallback(() => travel(redoStep, 'Redo:'), [travel])

  const select = useCallback((next: Selection | null) => {
    setSelection(next)
    if (next) setTab('params')
  }, [])

  const makeShareHash = useCallback(async () => {
    const current = scenarioRef.current
    if (!current) throw new Error('no scenario is open')
    return shareHash({
      scenario: current,
      view: {
        selection,
        speed: simRef.current.speed,
        tab,
        ...(getPresentation().on ? { present: true } : {}),
      },
    })
  }, [selection, tab])

  // Once edited, the URL carries the scenario as edited, so a reload or a bookmark keeps it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new speed is carried in the URL too
  useEffect(() => {
    if (!options.trackUrl || !edited || !scenario) return
    let cancelled = false
    let idle: number | null = null
    const write = () => {
      idle = null
      makeShareHash()
        .then((hash) => {
          if (!cancelled) window.history.replaceState(null, '', hash)
        })
        .catch(() => undefined)
    }
    // When the page has a moment: encoding 500 VCs right after an edit held up the next slider
    // step and the engine's answer while the run streams in (issue 18). Within 2 s regardless.
    const timer = window.setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function')
        idle = window.requestIdleCallback(write, { timeout: 2000 })
      else write()
    }, 400)
    return () => {
      cancelled = true
      window.clearTimeout(timer)
      if (idle !== null) window.cancelIdleCallback(idle)
    }
  }, [options.trackUrl, edited, scenario, makeShareHash, sim.speed])

  const editedDoc = useMemo(() => (scenario ? editedState(scenario) : null), [scenario])
  const undoLabel = history.past.length > 0 ? history.past[history.past.length - 1].label : null
  const redoLabel =
    history.future.length > 0 ? history.future[history.future.length - 1].label : null

  return useMemo(
    () => ({
      info,
      sim,
      scenario,
      origin,
      notice,
      dismissNotice: () => setNotice(null),
      announcements,
      selection,
      select,
      tab,
      setTab,
      apply,
      undo,
      redo,
      undoLabel,
      redoLabel,
      open,
      replace,
      pinned,
      setPinned,
      liveMarks,
      edited: editedDoc,
      shareHash: makeShareHash,
    }),
    [
      info,
      sim,
      scenario,
      origin,
      notice,
      announcements,
      selection,
      select,
      tab,
      apply,
      undo,
      redo,
      undoLabel,
      redoLabel,
      open,
      replace,
      pinned,
      liveMarks,
      editedDoc,
      makeShareHash,
    ],
  )
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}
