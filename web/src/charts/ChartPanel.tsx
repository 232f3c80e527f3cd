/** A titled chart with an HTML legend; the plot itself is drawn by D3 (timeSeries.ts). */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react'
import type { ChartModel } from './acrChart'
import { renderTimeSeries } from './timeSeries'

export interface ChartPanelProps {
  /** DOM id of the <svg>, also used by tests. */
  id: string
  title: string
  model: ChartModel | null
  /** Shown instead of the plot when there is no model yet. */
  placeholder?: string
}

interface Size {
  width: number
  height: number
}

/** Tracks an element's content size; the chart fills whatever room the page layout gives it. */
function useSize<T extends HTMLElement>(): [RefObject<T | null>, Size] {
  const ref = useRef<T>(null)
  const [size, setSize] = useState<Size>({ width: 0, height: 0 })
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    setSize({ width: element.clientWidth, height: element.clientHeight })
    const observer = new ResizeObserver(([entry]) =>
      setSize({ width: Math.floor(entry.contentRect.width), height: Math.floor(entry.contentRect.height) }),
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [ref, size]
}

export function ChartPanel({ id, title, model, placeholder }: ChartPanelProps) {
  const [boxRef, { width, height }] = useSize<HTMLDivElement>()
  const svgRef = useRef<SVGSVGElement>(null)

  useLayoutEffect(() => {
    if (!svgRef.current || !model || width <= 0 || height <= 0) return
    renderTimeSeries(svgRef.current, { ...model.options, width, height })
  })

  return (
    <section className="chart-panel" aria-labelledby={`${id}-title`}>
      <header className="chart-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <ul className="legend" aria-label={`${title} legend`}>
          {model?.legend.map((entry) => (
            <li key={entry.label}>
              <svg width="28" height="10" aria-hidden="true">
                <line
                  x1="1"
                  x2="27"
                  y1="5"
                  y2="5"
                  stroke={entry.color}
                  strokeWidth="3"
                  strokeDasharray={entry.dash ? '5 3' : undefined}
                />
              </svg>
              {entry.label}
            </li>
          ))}
        </ul>
      </header>
      <div className="chart-box" ref={boxRef}>
        {model ? <svg id={id} ref={svgRef} /> : <p className="placeholder">{placeholder}</p>}
      </div>
    </section>
  )
}
