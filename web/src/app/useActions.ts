/**
 * The page's actions (play, step, reset, pace, undo, redo, remove) for the current state of the
 * Lab, and their keyboard shortcuts while the page is open.
 */
import { useEffect, useMemo } from 'react'
import { useLab, useLabStore, useRun } from '../lab/hooks'
import { ENGINE_CRASHED } from '../lab/run'
import { type Action, actionForKey } from './actions'
import { nextSpeed, SPEEDS } from './Transport'

/**
 * `keys` is where the shortcuts listen: the window on the page; the widget's own element in a
 * notebook, so that they act only while the lab has the focus and never on the notebook's typing.
 */
export function useActions(embed: boolean, keys: EventTarget = window): Action[] {
  const lab = useLabStore()
  const { run, cursor } = lab
  const status = useRun((r) => r.status)
  const speed = useRun((r) => r.speed)
  const crashed = useRun((r) => r.error?.title === ENGINE_CRASHED)
  /** Simulated time one press of Step advances: one sample interval, one new point on the charts. */
  const stepMs = useRun((r) => r.layout?.sample_interval_ms ?? 0.5)
  const history = useLab((l) => l.history)
  const selected = useLab((l) => l.selection !== null && l.scenario !== null)

  const actions = useMemo(() => {
    const running = status === 'running'
    const list: Action[] = [
      {
        name: 'togglePlay',
        label: running ? 'Pause' : 'Play',
        keys: [' '],
        shortcut: 'Space',
        enabled: running || status === 'paused',
        // Playing resumes from the live end, whatever the timeline held.
        // Read at the press, so that a second press acts on what the first one did.
        perform: () => {
          if (run.get().status === 'running') {
            run.pause()
            return
          }
          cursor.setScrub(null)
          // Plays on to the lecture's next stop, where the engine pauses exactly.
          lab.lecture.playOn()
        },
      },
      {
        name: 'step',
        label: 'Step',
        keys: ['s'],
        shortcut: 'S',
        enabled: running || status === 'paused',
        perform: () => {
          cursor.setScrub(null)
          run.step(stepMs)
        },
      },
      {
        name: 'reset',
        label: 'Reset',
        keys: ['r'],
        shortcut: 'R',
        enabled: status !== 'idle' || crashed,
        perform: lab.restart,
      },
      {
        name: 'slower',
        label: 'Slower',
        keys: ['-'],
        shortcut: '−',
        enabled: speed !== SPEEDS[0],
        perform: () => run.setSpeed(nextSpeed(run.get().speed, -1)),
      },
      {
        name: 'faster',
        label: 'Faster',
        keys: ['+', '='],
        shortcut: '+',
        enabled: speed !== null,
        perform: () => run.setSpeed(nextSpeed(run.get().speed, 1)),
      },
    ]
    if (!embed) {
      list.push(
        {
          name: 'undo',
          label: 'Undo',
          keys: ['mod+z'],
          shortcut: 'Ctrl+Z',
          enabled: history.past.length > 0,
          perform: lab.undo,
        },
        {
          name: 'redo',
          label: 'Redo',
          keys: ['mod+shift+z', 'mod+y'],
          shortcut: 'Ctrl+Shift+Z',
          enabled: history.future.length > 0,
          perform: lab.redo,
        },
        {
          name: 'remove',
          label: 'Remove',
          keys: ['Delete', 'Backspace'],
          shortcut: 'Delete',
          enabled: selected,
          perform: () => {
            const { selection } = lab.get()
            if (!selection) return
            // The engine's answer comes later: a refusal is said on the status line.
            void lab.apply({ op: 'remove', selection }).then((refused) => {
              if (refused !== null) lab.announce(`Not removed: ${refused}`, 'error')
            })
          },
        },
      )
    }
    return list
  }, [lab, run, cursor, status, speed, crashed, stepMs, embed, history, selected])

  useEffect(() => {
    const onKey = (event: Event) => {
      const action = actionForKey(actions, event as KeyboardEvent)
      if (!action) return
      event.preventDefault()
      action.perform()
    }
    keys.addEventListener('keydown', onKey)
    return () => keys.removeEventListener('keydown', onKey)
  }, [actions, keys])
  return actions
}
