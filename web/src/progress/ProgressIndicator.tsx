/** Shows every task that has lasted over half a second, with its progress when known. */
import { useEffect, useState } from 'react'
import { SHOW_AFTER_MS, tasks as pageTasks, type TaskBoard, type TaskView } from './tasks'

export function ProgressIndicator({ board = pageTasks }: { board?: TaskBoard }) {
  const [shown, setShown] = useState<TaskView[]>([])
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null
    const refresh = () => {
      if (timer !== null) clearTimeout(timer)
      timer = null
      const now = performance.now()
      setShown(board.visible(now))
      // Wake up when the next task crosses the threshold.
      const waiting = board.list().filter((t) => now - t.startedMs < SHOW_AFTER_MS)
      if (waiting.length > 0) {
        const soonest = Math.min(...waiting.map((t) => t.startedMs + SHOW_AFTER_MS - now))
        timer = setTimeout(refresh, Math.max(0, soonest) + 5)
      }
    }
    refresh()
    const unsubscribe = board.subscribe(refresh)
    return () => {
      unsubscribe()
      if (timer !== null) clearTimeout(timer)
    }
  }, [board])

  if (shown.length === 0) return null
  return (
    <div
      className="progress-indicator"
      role="status"
      aria-live="polite"
      data-testid="progress-indicator"
    >
      {shown.map((task) => (
        <div key={task.id} className="progress-task">
          <span>{task.label}</span>
          {task.fraction === null ? (
            <progress aria-label={task.label} />
          ) : (
            <progress
              aria-label={task.label}
              max={1}
              value={Math.min(1, Math.max(0, task.fraction))}
            />
          )}
          {task.fraction !== null && (
            <span className="muted">{Math.round(task.fraction * 100)} %</span>
          )}
        </div>
      ))}
    </div>
  )
}

/** Keeps a task on the board while `active` is true; its fraction follows `fraction`. */
export function useTask(
  active: boolean,
  label: string,
  fraction: number | null = null,
  board: TaskBoard = pageTasks,
): void {
  const [handle, setHandle] = useState<ReturnType<TaskBoard['start']> | null>(null)
  useEffect(() => {
    if (!active) return
    const h = board.start(label)
    setHandle(h)
    return () => {
      h.done()
      setHandle(null)
    }
  }, [active, label, board])
  useEffect(() => {
    handle?.update(fraction)
  }, [handle, fraction])
}
