import { describe, expect, it } from 'vitest'
import { SHOW_AFTER_MS, TaskBoard } from './tasks'

describe('TaskBoard', () => {
  it('shows a task only once it has lasted over half a second, and forgets it when done', () => {
    let now = 1000
    const board = new TaskBoard(() => now)
    const seen: number[] = []
    board.subscribe((tasks) => seen.push(tasks.length))
    const task = board.start('Building the scenario')
    expect(board.visible(now)).toHaveLength(0)
    now += SHOW_AFTER_MS
    expect(board.visible(now).map((t) => t.label)).toEqual(['Building the scenario'])
    task.update(0.5)
    expect(board.visible(now)[0].fraction).toBe(0.5)
    task.done()
    task.done()
    expect(board.list()).toHaveLength(0)
    expect(seen).toEqual([1, 1, 0])
  })

  it('ends a task run through it even when the work fails', async () => {
    const board = new TaskBoard(() => 0)
    await expect(board.run('Export', () => Promise.reject(new Error('no')))).rejects.toThrow('no')
    expect(board.list()).toHaveLength(0)
  })
})
