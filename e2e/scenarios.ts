/** Scenarios built by the tests, and the URL hash that opens one. */

/** Same encoding as web/src/scenario/library.ts encodeScenarioParam (base64url, no padding). */
export function scenarioHash(json: string): string {
  return `#scenario-json=${Buffer.from(json, 'utf8').toString('base64url')}`
}

/**
 * 500 VCs from 10 source hosts (50 each) through one 155.52 Mbit/s bottleneck (SW1→SW2) to 10 destinations,
 * every link 1000 km: the load the page must stay smooth under (the page's target: 500 VCs).
 */
export function fiveHundredVcs(untilMs: number): string {
  const hosts = 10
  const nodes: object[] = [
    { id: 'SW1', kind: 'switch', x: 300, y: 200 },
    { id: 'SW2', kind: 'switch', x: 560, y: 200 },
  ]
  const links: object[] = [{ id: 'core', a: 'SW1', b: 'SW2', rate_mbps: 155.52, length_km: 1000 }]
  for (let h = 0; h < hosts; h++) {
    const y = 20 + (h * 360) / (hosts - 1)
    nodes.push({ id: `S${h}`, kind: 'host', x: 40, y }, { id: `D${h}`, kind: 'host', x: 820, y })
    links.push(
      { id: `ls${h}`, a: `S${h}`, b: 'SW1', rate_mbps: 155.52, length_km: 1000 },
      { id: `ld${h}`, a: 'SW2', b: `D${h}`, rate_mbps: 155.52, length_km: 1000 },
    )
  }
  const vcs = Array.from({ length: 500 }, (_, i) => ({
    id: `vc${i + 1}`,
    path: [`S${i % hosts}`, 'SW1', 'SW2', `D${i % hosts}`],
    traffic: { kind: 'persistent', start_ms: 0 },
  }))
  return JSON.stringify({
    format: 'abr-lab/scenario',
    version: 1,
    id: 'five-hundred-vcs',
    title: '500 VCs through one bottleneck',
    paper: 'load test',
    explanation: '500 persistent ABR sources share one ERICA bottleneck.',
    things_to_try: [],
    run: { until_ms: untilMs, seed: 1, sample_interval_ms: 0.5 },
    defaults: {
      vc: { pcr_mbps: 155.52, icr_mbps: 1, nrm: 32, rif: 0.0625 },
      switch_port: {
        buffer_cells: 100000,
        queue: 'fifo',
        algorithm: { kind: 'erica', target_utilization: 0.9, interval_ms: 5 },
      },
    },
    nodes,
    links,
    vcs,
  })
}

/** A share link's hash (`#lab=1.…`) for scenario text, made the way web/src/scenario/shareLink.ts makes one. */
export async function shareHashOfText(text: string): Promise<string> {
  const json = new TextEncoder().encode(text)
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'))
  const compressed = Buffer.from(await new Response(stream).arrayBuffer())
  return `#lab=1.${compressed.toString('base64url')}`
}
