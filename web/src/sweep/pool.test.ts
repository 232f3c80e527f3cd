import { describe, expect, it } from 'vitest'
import { runSweep, type PointOutcome, type SweepWorkerLike } from './pool'
import type { SweepReply, SweepRequest } from './protocol'

/** A stand-in worker that answers each run after a tick with a summary made from the job. */
class FakeWorker implements SweepWorkerLike {
  static created: FakeWorker[] = []
  onmessage: ((event: MessageEvent<SweepReply>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null
  terminated = false
  jobs: number[] = []
  constructor(private readonly failOn = -1) {
    FakeWorker.created.push(this)
  }
  postMessage(message: SweepRequest): void {
    this.jobs.push(message.job)
    setTimeout(() => {
      if (this.terminated) return
      const reply: SweepReply =
        message.job === this.failOn
          ? {
              type: 'failed',
              job: message.job,
              message: 'rejected',
              errors: [{ path: 'vcs.vc1.rif', message: '0.3 is not a power of two' }],
            }
          : {
              type: 'done',
              job: message.job,
              events: 10,
              summary: { max_queue: message.job, utilization: 0.9, fairness: 1, cells_lost: 0 },
            }
      this.onmessage?.({
        data: { type: 'progress', job: message.job, nowMs: 5, untilMs: 10 },
      } as MessageEvent<SweepReply>)
      this.onmessage?.({ data: reply } as MessageEvent<SweepReply>)
    }, 1)
  }
  terminate(): void {
    this.terminated = true
  }
}

const jobs = Array.from({ length: 9 }, (_, i) => ({
  scenarioJson: `{"point":${i}}`,
  overrides: [],
  window: null,
}))

describe('runSweep', () => {
  it('spreads the points over the workers and reports every one', async () => {
    FakeWorker.created = []
    const outcomes = new Map<number, PointOutcome>()
    let lastFractions: readonly number[] = []
    const handle = runSweep(
      jobs,
      () => new FakeWorker(4),
      { onPoint: (i, o) => outcomes.set(i, o), onProgress: (f) => (lastFractions = [...f]) },
      3,
    )
    expect(await handle.done).toEqual({ cancelled: false })
    expect(FakeWorker.created).toHaveLength(3)
    expect(FakeWorker.created.flatMap((w) => w.jobs).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    expect(outcomes.size).toBe(9)
    expect(outcomes.get(8)).toMatchObject({ ok: true, summary: { max_queue: 8 } })
    expect(outcomes.get(4)).toMatchObject({ ok: false, errors: [{ path: 'vcs.vc1.rif' }] })
    expect(lastFractions.every((f) => f === 1)).toBe(true)
    expect(FakeWorker.created.every((w) => w.terminated)).toBe(true)
  })

  it('stops every worker on cancel', async () => {
    FakeWorker.created = []
    const outcomes: number[] = []
    const handle = runSweep(
      jobs,
      () => new FakeWorker(),
      { onPoint: (i) => outcomes.push(i), onProgress: () => undefined },
      2,
    )
    handle.cancel()
    expect(await handle.done).toEqual({ cancelled: true })
    await new Promise((r) => setTimeout(r, 20))
    expect(outcomes).toEqual([])
    expect(FakeWorker.created.every((w) => w.terminated)).toBe(true)
  })
})
