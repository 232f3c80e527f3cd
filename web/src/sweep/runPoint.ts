/**
 * One grid point run to the end in the calling thread (a sweep worker, or a test under Node):
 * build, run in chunks, fold every sample row into the window summary.
 */
import type { EngineModule } from '../engine/engineModule'
import { parseEngineErrors } from '../engine/protocol'
import { SweepWindow } from '../engine/grammar'
import { parseLayout } from '../engine/layout'
import { applyOverrides } from './paths'
import type { SweepReply, SweepRequest } from './protocol'

/** Events per engine call, as the native runner's chunks (runner.rs CHUNK_EVENTS). */
const CHUNK_EVENTS = 100_000
/** Progress is reported at most this often. */
const PROGRESS_EVERY_MS = 100

export function runPoint(
  mod: EngineModule,
  request: SweepRequest,
  post: (reply: SweepReply) => void,
  now: () => number = () => performance.now(),
): void {
  const { job } = request
  // The point's scenario is made here, off the page's thread: with 10,000 points, making and
  // checking them all before starting held the page for seconds to minutes.
  const applied = applyOverrides(request.scenarioJson, request.overrides)
  if ('error' in applied) {
    post({
      type: 'failed',
      job,
      message: 'this grid point is not a scenario',
      errors: [applied.error],
    })
    return
  }
  let engine: InstanceType<EngineModule['Engine']>
  try {
    engine = new mod.Engine(applied.json)
  } catch (cause) {
    const errors = parseEngineErrors(cause instanceof Error ? cause.message : String(cause))
    post({ type: 'failed', job, message: 'the engine rejected this grid point', errors })
    return
  }
  try {
    const layoutJson = engine.layout()
    const layout = parseLayout(layoutJson)
    const summary = new SweepWindow(layoutJson, request.window ?? [0, layout.until_ms])
    let lastReport = now()
    while (!engine.run_until(layout.until_ms, CHUNK_EVENTS)) {
      summary.add(engine.take_samples())
      if (now() - lastReport >= PROGRESS_EVERY_MS) {
        lastReport = now()
        post({ type: 'progress', job, nowMs: engine.now_ms(), untilMs: layout.until_ms })
      }
    }
    summary.add(engine.take_samples())
    const figures = summary.summary()
    summary.free()
    post({ type: 'done', job, summary: figures, events: engine.events() })
  } catch (cause) {
    post({
      type: 'failed',
      job,
      message: cause instanceof Error ? cause.message : String(cause),
      errors: [],
    })
  } finally {
    engine.free()
  }
}
