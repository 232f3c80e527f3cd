/**
 * A chart as a picture: a standalone SVG (title, legend and plot, styles inlined so it looks the
 * same outside the page) and a PNG rendered from it.
 */
import type { LegendEntry } from '../charts/acrChart'

/** The page's chart styles (app/styles.css, .chart-box), written into the exported file. */
const CHART_STYLE = `
text { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
.tick text { font-size: 12px; fill: #59636e; }
.tick line, .domain { stroke: #8c959f; }
.grid line { stroke: #e6e9ed; }
.grid .domain { display: none; }
.x-label text, .y-label text { fill: #1b1f24; font-size: 13px; }
.brush, .cursor { display: none; }
`

const HEADER_TITLE = 22
const LEGEND_ROW = 18

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** Lays the legend out in rows that fit `width`. */
function legendRows(legend: readonly LegendEntry[], width: number): LegendEntry[][] {
  const rows: LegendEntry[][] = [[]]
  let used = 0
  for (const entry of legend) {
    const w = 34 + entry.label.length * 7 + 16
    if (used + w > width && rows[rows.length - 1].length > 0) {
      rows.push([])
      used = 0
    }
    rows[rows.length - 1].push(entry)
    used += w
  }
  return rows.filter((r) => r.length > 0)
}

/** A standalone SVG document of a rendered chart, with its title and legend above the plot. */
export function chartSvgText(
  svg: SVGSVGElement,
  title: string,
  legend: readonly LegendEntry[],
): string {
  const width = Number(svg.getAttribute('width')) || svg.clientWidth || 640
  const plotHeight = Number(svg.getAttribute('height')) || svg.clientHeight || 300
  const rows = legendRows(legend, width - 16)
  const top = HEADER_TITLE + rows.length * LEGEND_ROW + 8
  const height = top + plotHeight
  const legendSvg = rows
    .map((row, r) => {
      let x = 8
      return row
        .map((entry) => {
          const y = HEADER_TITLE + r * LEGEND_ROW + 12
          const dash = entry.dash ? ' stroke-dasharray="5 3"' : ''
          const opacity = entry.opacity !== undefined ? ` stroke-opacity="${entry.opacity}"` : ''
          const item = `<line x1="${x}" x2="${x + 26}" y1="${y - 4}" y2="${y - 4}" stroke="${entry.color}" stroke-width="3"${dash}${opacity}/><text x="${x + 32}" y="${y}" font-size="12" fill="#1b1f24">${escapeXml(entry.label)}</text>`
          x += 34 + entry.label.length * 7 + 16
          return item
        })
        .join('')
    })
    .join('')
  const plot = svg.cloneNode(true) as SVGSVGElement
  plot.removeAttribute('id')
  plot.setAttribute('x', '0')
  plot.setAttribute('y', String(top))
  plot.setAttribute('width', String(width))
  plot.setAttribute('height', String(plotHeight))
  for (const el of plot.querySelectorAll('.brush, .cursor')) el.remove()
  const inner = new XMLSerializer().serializeToString(plot)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<style>${CHART_STYLE}</style>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="8" y="16" font-size="15" font-weight="600" fill="#1b1f24">${escapeXml(title)}</text>`,
    legendSvg,
    inner,
    '</svg>',
  ].join('\n')
}

/** The size an SVG document declares. */
export function svgSize(text: string): { width: number; height: number } {
  const match = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(text)
  return { width: match ? Number(match[1]) : 640, height: match ? Number(match[2]) : 400 }
}

/** Renders SVG text to a PNG at `scale` × its size (2 keeps it sharp on a projector). */
export async function svgToPng(text: string, scale = 2): Promise<Blob> {
  const { width, height } = svgSize(text)
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }))
  try {
    const image = new Image()
    image.decoding = 'async'
    const loaded = new Promise<void>((resolve, reject) => {
      image.onload = () => resolve()
      image.onerror = () => reject(new Error('the chart could not be drawn as an image'))
    })
    image.src = url
    await loaded
    const canvas = document.createElement('canvas')
    canvas.width = Math.round(width * scale)
    canvas.height = Math.round(height * scale)
    const ctx = canvas.getContext('2d')
    if (!ctx) throw new Error('this browser gives no 2D canvas to draw the PNG on')
    ctx.fillStyle = '#fff'
    ctx.fillRect(0, 0, canvas.width, canvas.height)
    ctx.scale(scale, scale)
    ctx.drawImage(image, 0, 0, width, height)
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be encoded'))),
        'image/png',
      ),
    )
  } finally {
    URL.revokeObjectURL(url)
  }
}
