/**
 * Runs a sweep's grid points in parallel background workers, one engine per worker, as many
 * workers as the machine has cores (navigator.hardwareConcurrency): each idle worker takes the
 * next point. Cancel terminates them all at once.
 */
import type { ScenarioError } from '../engine/protocol'
import type { SweepSummary } from './metrics'
import type { Override } from './paths'
import type { SweepReply, SweepRequest } from './protocol'

/** What the pool needs of a Worker; tests pass a stand-in. */
export interface SweepWorkerLike {
  postMessage(message: SweepRequest): void
  terminate(): void
  onmessage: ((event: MessageEvent<SweepReply>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
}

export interface PointJob {
  scenarioJson: string
  /** The point's values, applied to `scenarioJson` in the worker. */
  overrides: readonly Override[]
  window: readonly [number, number] | null
}

export type PointOutcome =
  | { ok: true; summary: SweepSummary; events: number }
  | { ok: false; message: string; errors: ScenarioError[] }

export interface SweepCallbacks {
  /** Fraction done of each point (0..1), whenever one moves. */
  onProgress(fractions: readonly number[]): void
  onPoint(index: number, outcome: PointOutcome): void
}

export interface SweepHandle {
  cancel(): void
  /** Resolves when every point has an outcome, or when cancelled (`cancelled: true`). */
  done: Promise<{ cancelled: boolean }>
}

export function defaultWorkerCount(points: number): number {
  const cores =
    typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0
      ? navigator.hardwareConcurrency
      : 2
  return Math.max(1, Math.min(cores, points))
}

export function runSweep(
  jobs: readonly PointJob[],
  createWorker: () => SweepWorkerLike,
  callbacks: SweepCallbacks,
  workerCount: number = defaultWorkerCount(jobs.length),
): SweepHandle {
  const fractions = jobs.map(() => 0)
  const workers: SweepWorkerLike[] = []
  let next = 0
  let finished = 0
  let alive = 0
  let stopped = false
  const settled = jobs.map(() => false)
  let resolveDone: (result: { cancelled: boolean }) => void = () => undefined
  const done = new Promise<{ cancelled: boolean }>((resolve) => (resolveDone = resolve))

  const stopAll = () => {
    stopped = true
    for (const w of workers) w.terminate()
    workers.length = 0
  }

  const settle = (index: number, outcome: PointOutcome) => {
    if (stopped || settled[index]) return
    settled[index] = true
    fractions[index] = 1
    callbacks.onProgress(fractions)
    callbacks.onPoint(index, outcome)
    finished++
    if (finished === jobs.length) {
      stopAll()
      resolveDone({ cancelled: false })
    }
  }

  const give = (worker: SweepWorkerLike, current: { job: number }) => {
    if (stopped || next >= jobs.length) return
    const job = next++
    current.job = job
    worker.postMessage({
      type: 'run',
      job,
      scenarioJson: jobs[job].scenarioJson,
      overrides: jobs[job].overrides,
      window: jobs[job].window,
    })
  }

  if (jobs.length === 0) {
    resolveDone({ cancelled: false })
    return { cancel: () => undefined, done }
  }

  for (let i = 0; i < Math.min(workerCount, jobs.length); i++) {
    const worker = createWorker()
    const current = { job: -1 }
    worker.onmessage = (event) => {
      const reply = event.data
      if (stopped) return
      switch (reply.type) {
        case 'progress':
          fractions[reply.job] = reply.untilMs > 0 ? Math.min(0.99, reply.nowMs / reply.untilMs) : 0
          callbacks.onProgress(fractions)
          return
        case 'done':
          settle(reply.job, { ok: true, summary: reply.summary, events: reply.events })
          give(worker, current)
          return
        case 'failed':
          settle(reply.job, { ok: false, message: reply.message, errors: reply.errors })
          give(worker, current)
          return
      }
    }
    worker.onerror = (event) => {
      event.preventDefault?.()
      const message = `the sweep worker failed: ${event.message || 'unknown error'}`
      worker.terminate()
      alive--
      if (current.job >= 0) settle(current.job, { ok: false, message, errors: [] })
      // The other workers carry on with what is left; when none is left, nothing will run it.
      if (alive === 0) {
        while (next < jobs.length) settle(next++, { ok: false, message, errors: [] })
      }
    }
    alive++
    workers.push(worker)
    give(worker, current)
  }

  return {
    cancel: () => {
      if (stopped) return
      stopAll()
      resolveDone({ cancelled: true })
    },
    done,
  }
}

/** Creates a real sweep worker (bundled by Vite). */
export function createSweepWorker(): SweepWorkerLike {
  return new Worker(new URL('./sweepWorker.ts', import.meta.url), {
    type: 'module',
    name: 'abr-sweep',
  }) as unknown as SweepWorkerLike
}
