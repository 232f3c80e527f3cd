/**
 * The key to the animation's marks below the drawing — cells (or packets) by kind, queues, the
 * rate gauges — and what the animation shows at this pace, with a button to slow down to cells.
 */
import { Term } from '../glossary/Term'

/** What the layer is drawing, for the legend below the topology. */
export type AnimationMode = 'cells' | 'mixed' | 'flow' | 'degraded'

/** A pace of simulated time per wall second, in ms or µs, two figures. */
function paceText(ms: number): string {
  return ms >= 1 ? `${Number(ms.toPrecision(2))} ms` : `${Number((ms * 1000).toPrecision(2))} µs`
}

/** The key to the animation's marks, and what it is showing at this pace. */
export function AnimationLegend({
  mode,
  fastestCellPace: fastest,
  packets = false,
  onSlowDown,
}: {
  mode: AnimationMode
  fastestCellPace: number
  packets?: boolean
  /** Sets the pace that shows single cells on every link (the legend's advice, as a button). */
  onSlowDown?(pace: number): void
}) {
  const slow = onSlowDown && fastest > 0 && (mode === 'flow' || mode === 'mixed') && (
    <button
      type="button"
      className="slow-to-cells"
      onClick={() => onSlowDown(fastest)}
      data-testid="slow-to-cells"
    >
      Slow down to see every {packets ? 'packet' : 'cell'}
    </button>
  )
  if (packets) {
    return (
      <p className="animation-legend" data-testid="animation-legend">
        <span className="key">
          <span className="key-data" aria-hidden="true" /> TCP segment (small: ACK)
        </span>
        <span className="key">
          <span className="key-udp" aria-hidden="true" /> UDP datagram
        </span>
        <span className="key">
          <span className="key-queue" aria-hidden="true" /> queue
        </span>
        <span className="mode" data-mode={mode}>
          {mode === 'flow'
            ? `Flow rates (link utilisation). Slow down to ${paceText(fastest)} per second or less to see single packets.`
            : 'Packets moving at the simulated pace.'}
        </span>
        {slow}
      </p>
    )
  }
  return (
    <p className="animation-legend" data-testid="animation-legend">
      <span className="key">
        <span className="key-data" aria-hidden="true" /> data
      </span>
      <span className="key">
        <span aria-hidden="true">▶</span> <Term name="FRM" />
      </span>
      <span className="key">
        <span aria-hidden="true">◇</span> <Term name="BRM" />
      </span>
      <span className="key" data-testid="legend-setup">
        <span aria-hidden="true">●</span> set-up, <span aria-hidden="true">○</span> connect
      </span>
      <span className="key">
        <span className="key-background" aria-hidden="true" /> CBR/VBR
      </span>
      <span className="key">
        <span className="key-queue" aria-hidden="true" /> queue
      </span>
      <span className="key">
        <span className="key-gauge" aria-hidden="true" /> ACR of PCR, tick at max-min share
      </span>
      <span className="mode" data-mode={mode}>
        {mode === 'cells'
          ? 'Cells moving at the simulated pace. Hover an RM cell for its ER and CI.'
          : mode === 'degraded'
            ? 'Too many cells to draw smoothly: showing flow rates.'
            : mode === 'mixed'
              ? 'Cells on the long links; the short ones show their flow rate.'
              : `Flow rates (link utilisation). Slow down to ${paceText(fastest)} per second or less to see single cells.`}
      </span>
      {slow}
    </p>
  )
}
