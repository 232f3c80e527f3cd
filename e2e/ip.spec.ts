/**
 * The packet model at scale: 20 simulated seconds of the 100-TCP scenario (pletka-clcc-tcp-udp) run in
 * the browser without freezing the page. The engine runs flat out in its worker while the page
 * keeps drawing frames and answering clicks, and the class throughputs, ratio, D_UDP and the
 * weighted index come from the engine and reach the charts.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from './fixtures'

const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url))
mkdirSync(artifacts, { recursive: true })

function meanOver(t: number[], y: number[], from: number, to: number): number {
  let sum = 0
  let n = 0
  t.forEach((ti, i) => {
    if (ti > from && ti <= to && Number.isFinite(y[i])) {
      sum += y[i]
      n++
    }
  })
  return n ? sum / n : Number.NaN
}

test('pletka-clcc-tcp-udp: 20 simulated seconds flat out, the page keeps drawing and answering', async ({
  lab,
  page,
}) => {
  await lab.open('#scenario=pletka-clcc-tcp-udp')
  await lab.waitUntilLoaded()
  await lab.chooseSpeed('as fast as possible')
  // Record every gap between animation frames while the engine runs flat out.
  await lab.recordFrameGaps()
  await lab.playButton.click()
  await expect.poll(() => lab.nowMs(), { timeout: 30_000 }).toBeGreaterThan(2000)
  // A click during the run is answered.
  const tab = page.getByRole('tab', { name: 'Parameters' })
  const clickStart = Date.now()
  await tab.click()
  await expect(tab).toHaveAttribute('aria-selected', 'true')
  const clickMs = Date.now() - clickStart

  await expect.poll(() => lab.status(), { timeout: 120_000 }).toBe('finished')
  const gaps = await lab.frameGaps()
  const worst = Math.max(...gaps)
  console.log(
    `pletka-clcc-tcp-udp flat out: ${gaps.length} frames, worst gap ${worst.toFixed(0)} ms, click handled in ${clickMs} ms`,
  )
  // Not frozen: frames kept coming while the engine ran. (The figures logged above are for reading;
  // how smoothly the page draws under load is the benchmark's to measure, not a test's.)
  expect(gaps.length).toBeGreaterThan(10)

  expect(await lab.nowMs()).toBeGreaterThanOrEqual(20_000)
  const t = await lab.series('t_ms')
  const tcp = await lab.series('class.tcp.throughput_mbps')
  const udp = await lab.series('class.udp.throughput_mbps')
  const ratio = await lab.series('ratio')
  const fairness = await lab.series('fairness')
  expect(t[t.length - 1]).toBeGreaterThanOrEqual(19_900)
  // What the scenario documents for 5–20 s: ratio ≈ 0.41 against r_ref 0.43, fairness near 1.
  expect(meanOver(t, udp, 5000, 20_000) / meanOver(t, tcp, 5000, 20_000)).toBeGreaterThan(0.3)
  expect(meanOver(t, udp, 5000, 20_000) / meanOver(t, tcp, 5000, 20_000)).toBeLessThan(0.55)
  expect(meanOver(t, ratio, 5000, 20_000)).toBeLessThan(0.6)
  expect(meanOver(t, fairness, 5000, 20_000)).toBeGreaterThan(0.8)
  await expect(
    page.locator('svg#classes-chart path[data-series="class.tcp.throughput_mbps"]'),
  ).toHaveAttribute('d', /M.*L/)
  await expect(page.locator('svg#ratio-chart path[data-series="ratio"]')).toHaveAttribute(
    'd',
    /M.*L/,
  )
  await page.screenshot({ path: `${artifacts}ip-clcc-20s.png` })
})
