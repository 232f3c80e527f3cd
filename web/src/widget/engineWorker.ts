/**
 * The engine worker for the widget, inlined into its one module: anywidget loads a single ES
 * module and nothing beside it, so the worker (with the wasm engine inlined into it by the
 * library build, vite.widget.config.ts) starts from a blob URL. The simulation keeps its own
 * thread, as on the page: a long run never holds up the notebook.
 */
import EngineWorker from '../engine/worker.ts?worker&inline'
import type { WorkerLike } from '../engine/EngineClient'

export function createInlineEngineWorker(): WorkerLike {
  return new EngineWorker({ name: 'abr-engine' })
}
