/**
 * Long-running work the page tells the user about: anything that may take over half a second
 * (building a scenario, a run as fast as possible, a sweep, rendering a PNG) registers a task;
 * the indicator shows it once it has lasted SHOW_AFTER_MS, with a bar when the fraction is known.
 */

/** Tasks shorter than this never show (the page would only flicker). */
export const SHOW_AFTER_MS = 500

export interface TaskView {
  id: number
  label: string
  /** 0..1, or null when how far along is unknown. */
  fraction: number | null
  startedMs: number
}

export interface TaskHandle {
  update(fraction: number | null, label?: string): void
  done(): void
}

type Listener = (tasks: readonly TaskView[]) => void

export class TaskBoard {
  private tasks: TaskView[] = []
  private nextId = 1
  private readonly listeners = new Set<Listener>()

  constructor(private readonly now: () => number = () => performance.now()) {}

  start(label: string, fraction: number | null = null): TaskHandle {
    const task: TaskView = { id: this.nextId++, label, fraction, startedMs: this.now() }
    this.tasks = [...this.tasks, task]
    this.emit()
    let finished = false
    return {
      update: (next, nextLabel) => {
        if (finished) return
        this.tasks = this.tasks.map((t) =>
          t.id === task.id ? { ...t, fraction: next, label: nextLabel ?? t.label } : t,
        )
        this.emit()
      },
      done: () => {
        if (finished) return
        finished = true
        this.tasks = this.tasks.filter((t) => t.id !== task.id)
        this.emit()
      },
    }
  }

  /** Runs `work` as a task and ends the task however it ends. */
  async run<T>(label: string, work: () => Promise<T>): Promise<T> {
    const handle = this.start(label)
    try {
      return await work()
    } finally {
      handle.done()
    }
  }

  list(): readonly TaskView[] {
    return this.tasks
  }

  /** The tasks old enough to show at `nowMs`. */
  visible(nowMs: number = this.now()): TaskView[] {
    return this.tasks.filter((t) => nowMs - t.startedMs >= SHOW_AFTER_MS)
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this.tasks)
  }
}

/** The page's one board. */
export const tasks = new TaskBoard()
