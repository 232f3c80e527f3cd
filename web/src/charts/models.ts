/**
 * Every chart of the page as a model built from the samples: ACR with max-min shares, queues, link
 * utilisation, cumulative cells received per destination, cells lost and Jain's fairness index;
 * each limited to the VCs and ports picked, zoomed to the time window chosen, and overlaid with a
 * pinned run when there is one.
 */
import { isPacketModel, type Layout } from '../engine/layout'
import { acrChartModel, type ChartModel } from './acrChart'
import type { ChartContext } from './chartContext'
import {
  fairnessChartModel,
  lostChartModel,
  portsOf,
  receivedChartModel,
  utilChartModel,
} from './lineCharts'
import { overlayPinned } from './overlay'
import { classesChartModel, ratioChartModel } from './packetCharts'
import { queueChartModel } from './queueChart'

/** The charts of the page, in display order: the list for the cell model, and for IP. */
export const CHART_KINDS = ['acr', 'queue', 'util', 'received', 'lost', 'fairness'] as const
export const IP_CHART_KINDS = ['classes', 'ratio', 'queue', 'util', 'lost', 'fairness'] as const
export type ChartKind = (typeof CHART_KINDS)[number] | (typeof IP_CHART_KINDS)[number]

export const CHART_TITLES: Record<ChartKind, string> = {
  acr: 'Allowed cell rate per VC',
  queue: 'Queue per port',
  util: 'Link utilisation',
  received: 'Cells received per destination',
  lost: 'Cells lost',
  fairness: 'Fairness index',
  classes: 'Throughput per class',
  ratio: 'UDP/TCP ratio and D_UDP',
}

/** The charts for a layout's model. */
export function chartKinds(layout: Pick<Layout, 'model'>): readonly ChartKind[] {
  return isPacketModel(layout) ? IP_CHART_KINDS : CHART_KINDS
}

/** A chart's title for a layout's model (packets are lost in the packet model, not cells). */
export function chartTitle(kind: ChartKind, layout: Pick<Layout, 'model'>): string {
  if (kind === 'lost' && isPacketModel(layout)) return 'Packets lost'
  return CHART_TITLES[kind]
}

/** The model of one chart kind, zoomed and overlaid. */
export function chartModel(kind: ChartKind, ctx: ChartContext): ChartModel {
  let model: ChartModel
  switch (kind) {
    case 'acr':
      model = acrChartModel(ctx.layout, ctx.store, ctx.colors, ctx.vcs)
      break
    case 'queue':
      model = queueChartModel(ctx.layout, ctx.store, portsOf(ctx))
      break
    case 'util':
      model = utilChartModel(ctx)
      break
    case 'received':
      model = receivedChartModel(ctx)
      break
    case 'lost':
      model = lostChartModel(ctx)
      break
    case 'fairness':
      model = fairnessChartModel(ctx)
      break
    case 'classes':
      model = classesChartModel(ctx)
      break
    case 'ratio':
      model = ratioChartModel(ctx)
      break
  }
  if (ctx.pinned) model = overlayPinned(model, ctx.pinned, ctx.runLabel, kind === 'acr')
  if (ctx.window) {
    model.options.xDomain = ctx.window
  } else if (ctx.pinned) {
    model.options.xDomain = [0, Math.max(ctx.layout.until_ms, ctx.pinned.layout.until_ms)]
  }
  return model
}
