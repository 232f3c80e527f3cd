/** The run's linked charts as the Lab holds them: the page's Charts view and the notebook widget. */
import type { ComponentProps, ReactNode } from 'react'
import { ChartsWorkspace } from '../charts/ChartsWorkspace'
import type { Layout } from '../engine/layout'
import { useLab, useLabStore, useRun } from '../lab/hooks'
import { useColors } from './liveHooks'

interface LabChartsProps {
  layout: Layout
  /** Extra controls for the charts' toolbar (the page's compare panel). */
  toolbar?: ReactNode
  present?: ComponentProps<typeof ChartsWorkspace>['present']
}

export function LabCharts({ layout, toolbar, present }: LabChartsProps) {
  const lab = useLabStore()
  const store = useRun((r) => r.store)
  const pinned = useLab((l) => l.pinned)
  const runLabel = useLab((l) => l.runLabel) ?? layout.scenario.title
  const colors = useColors()
  if (!store) return null
  return (
    <ChartsWorkspace
      layout={layout}
      store={store}
      colors={colors}
      cursor={lab.cursor}
      pinned={pinned}
      runLabel={runLabel}
      onPick={lab.setPicked}
      toolbar={toolbar}
      present={present}
    />
  )
}
