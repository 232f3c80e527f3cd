/**
 * Carries each change of the Lab's document to the run (lab/lab.ts explains which way): one at a
 * time, the latest waiting while one is under way (a dragged slider sends many).
 */
import type { LoadResult } from '../engine/EngineClient'
import { formatScenarioError } from '../engine/protocol'
import { type JsonObject, type LeafChange, leafChanges } from '../scenario/paths'
import { forEngine, sameForEngine } from './documents'
import type { Lab } from './lab'
import type { Carry } from './types'

export class Carrier {
  /** The document the engine's run was built from, with the live changes made since. */
  private engineDoc: JsonObject | null = null
  private pending: Carry | null = null
  private carrying = false
  /** Bumped when the run is rebuilt: a carry still under way for the old one stops. */
  private epoch = 0

  constructor(private readonly lab: Lab) {}

  /** Builds a new run from `doc`; what was waiting to be carried to the old one is dropped. */
  rebuild(doc: JsonObject, play?: boolean): Promise<LoadResult | null> {
    this.pending = null
    this.epoch += 1
    this.engineDoc = doc
    // Playing at once pauses at the lecture's first stop, like the Play button.
    return this.lab.run.load(JSON.stringify(doc), {
      play,
      pauseAt: () => this.lab.lecture.nextPauseMs(),
    })
  }

  /** Carries `carry` to the run once the one under way is done; only the latest waits. */
  request(carry: Carry): void {
    this.pending = carry
    if (this.carrying) return
    this.carrying = true
    void (async () => {
      try {
        while (this.pending !== null) {
          const job = this.pending
          this.pending = null
          await this.carry(job)
        }
      } finally {
        this.carrying = false
      }
    })()
  }

  /** Brings the run in step with one document (see the file comment). */
  private async carry(job: Carry): Promise<void> {
    const epoch = this.epoch
    const { status, nowMs, store } = this.lab.run.get()
    const engineDoc = this.engineDoc
    // One value changed in the document the run was built from (a slider's step): that value
    // is the whole difference, without comparing two 500-VC documents again.
    const knownChanges = job.known && job.known.from === engineDoc ? [job.known.change] : null
    if (knownChanges === null && engineDoc !== null && sameForEngine(engineDoc, job.scenario))
      return
    const hasRun = store !== null && store.rowCount > 0 && nowMs > 0
    if (!hasRun) {
      // Nothing run yet: the scenario is simply rebuilt.
      await this.rebuild(job.scenario, status === 'running')
      this.lab.announce(`${job.label}.`, 'info')
      return
    }
    let why = ' (the network changed)'
    if (status !== 'finished' && engineDoc !== null) {
      // What the engine reads: a stop edited alongside is not offered to it.
      const changes = knownChanges ?? leafChanges(forEngine(engineDoc), forEngine(job.scenario))
      if (changes !== null && changes.length > 0 && changes.every((c) => c.after !== undefined)) {
        const live = await this.setLive(changes, job.label, epoch)
        if (live === null) return
        if (live) {
          this.engineDoc = job.scenario
          return
        }
        why = ' (the model cannot change this mid-run)'
      }
    } else if (status === 'finished') {
      why = ' (the run had ended)'
    }
    this.lab.replaceFor(job, why, status === 'running')
  }

  /**
   * Offers each changed value to the running simulation: true when it took them all live, false
   * when the run must be rebuilt, null when the run was replaced meanwhile.
   */
  private async setLive(
    changes: LeafChange[],
    label: string,
    epoch: number,
  ): Promise<boolean | null> {
    let at = 0
    for (const change of changes) {
      const result = await this.lab.run.setParam(change.path, JSON.stringify(change.after))
      if (this.epoch !== epoch) return null
      if (!result.ok) {
        this.lab.announce(
          `${label}: the engine refused it — ${result.errors.map(formatScenarioError).join('; ')}`,
          'error',
        )
        return false
      }
      if (result.applied === 'restart') return false
      at = result.nowMs
    }
    this.lab.markLive(at, label)
    this.lab.announce(`${label}: applied live at t = ${at.toFixed(1)} ms, the run goes on.`, 'live')
    return true
  }
}
