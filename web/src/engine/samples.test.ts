import { describe, expect, it } from 'vitest'
import { parseFrame } from './frame'
import { rowsOfRun, SampleStore } from './samples'

describe('SampleStore', () => {
  const columns = ['t_ms', 'vc.vc1.acr', 'port.l3.queue']

  it('transposes row-major rows into columns', () => {
    const store = new SampleStore(columns)
    const added = store.append(new Float64Array([0.5, 150, 0, 1.0, 140, 12, 1.5, 139, 3]))
    expect(added).toBe(3)
    expect(store.rowCount).toBe(3)
    expect(Array.from(store.series('t_ms'))).toEqual([0.5, 1.0, 1.5])
    expect(Array.from(store.series('vc.vc1.acr'))).toEqual([150, 140, 139])
    expect(Array.from(store.series('port.l3.queue'))).toEqual([0, 12, 3])
    expect(store.max('port.l3.queue')).toBe(12)
    expect(store.last('vc.vc1.acr')).toBe(139)
  })

  it('keeps rows across appends and grows past its initial capacity', () => {
    const store = new SampleStore(columns)
    const rows = 5000
    for (let start = 0; start < rows; start += 700) {
      const n = Math.min(700, rows - start)
      const chunk = new Float64Array(n * columns.length)
      for (let r = 0; r < n; r++)
        chunk.set([(start + r) * 0.5, start + r, 10 - (start + r)], r * columns.length)
      store.append(chunk)
    }
    const t = store.series('t_ms')
    expect(t).toHaveLength(rows)
    expect(t[0]).toBe(0)
    expect(t[rows - 1]).toBe((rows - 1) * 0.5)
    expect(store.series('vc.vc1.acr')[4321]).toBe(4321)
    expect(store.max('port.l3.queue')).toBe(10)
  })

  it('makes room for the rows a run is expected to send at once, and grows past them exactly', () => {
    const rowsOf = (from: number, n: number) => {
      const chunk = new Float64Array(n * columns.length)
      for (let r = 0; r < n; r++)
        chunk.set([(from + r) * 0.5, 100 + from + r, (from + r) % 7], r * columns.length)
      return chunk
    }
    const expected = rowsOfRun(1000, 0.5)
    expect(expected).toBe(2001)
    const store = new SampleStore(columns, { expectedRows: expected })
    store.append(rowsOf(0, 10))
    // The columns' arrays are made once: a view taken early shares its buffer with one taken at
    // the run's last row (a doubling would have copied every varying column into a new one).
    const early = store.series('vc.vc1.acr').buffer
    for (let from = 10; from < expected; from += 250)
      store.append(rowsOf(from, Math.min(250, expected - from)))
    expect(store.series('vc.vc1.acr').buffer).toBe(early)
    // A run played on past its expected end still keeps every row.
    store.append(rowsOf(expected, 500))
    const acr = store.series('vc.vc1.acr')
    expect(acr).toHaveLength(expected + 500)
    expect(acr.buffer).not.toBe(early)
    for (const r of [0, 9, 10, 2000, 2001, expected + 499]) expect(acr[r]).toBe(100 + r)
    expect(store.series('port.l3.queue')[1234]).toBe(1234 % 7)
  })

  it('bounds the room it makes by the rows it keeps, and ignores a meaningless expectation', () => {
    expect(rowsOfRun(10, 0)).toBe(0)
    expect(rowsOfRun(Number.NaN, 1)).toBe(0)
    expect(rowsOfRun(-5, 1)).toBe(0)
    for (const expectedRows of [0, -3, Number.NaN, Number.POSITIVE_INFINITY, 1e12]) {
      const store = new SampleStore(columns, { maxRows: 64, expectedRows })
      for (let r = 0; r < 200; r++) store.append(new Float64Array([r, r, r]))
      expect(store.rowCount).toBeLessThanOrEqual(64)
      expect(store.last('t_ms')).toBe(199)
      expect(store.receivedRows).toBe(200)
      expect(store.stride).toBe(4)
    }
  })

  it('refuses a buffer that is not whole rows', () => {
    const store = new SampleStore(columns)
    expect(() => store.append(new Float64Array(4))).toThrow('not a whole number of 3-column rows')
  })

  it('names unknown and duplicate columns', () => {
    expect(() => new SampleStore(['t_ms', 't_ms'])).toThrow('duplicate sample column "t_ms"')
    expect(() => new SampleStore(columns).series('vc.vc9.acr')).toThrow(
      'no sample column "vc.vc9.acr"',
    )
  })

  it('stays within its bound on a long run and keeps the whole run covered', () => {
    const store = new SampleStore(columns, { maxRows: 64 })
    const rows = 10_000
    const chunk = new Float64Array(rows * columns.length)
    for (let r = 0; r < rows; r++)
      chunk.set([(r + 1) * 0.5, 100 + Math.sin(r / 50), 5], r * columns.length)
    store.append(chunk)
    expect(store.rowCount).toBeLessThanOrEqual(64)
    expect(store.rowCount).toBeGreaterThan(32)
    expect(store.receivedRows).toBe(rows)
    expect(store.stride).toBe(256)
    const t = store.series('t_ms')
    // From near the start to the very last row, in order.
    expect(t[0]).toBeLessThanOrEqual(store.stride * 0.5)
    expect(t[t.length - 1]).toBe(rows * 0.5)
    for (let i = 1; i < t.length; i++) expect(t[i]).toBeGreaterThan(t[i - 1])
    expect(store.last('t_ms')).toBe(rows * 0.5)
  })

  it('keeps one-sample peaks and dips through any number of merges', () => {
    const store = new SampleStore(columns, { maxRows: 16 })
    const rows = 4096
    for (let r = 0; r < rows; r++) {
      const queue = r === 1234 ? 9999 : 10
      const acr = r === 3000 ? 1 : 140
      store.append(new Float64Array([r * 0.5, acr, queue]))
    }
    expect(Array.from(store.series('port.l3.queue'))).toContain(9999)
    expect(Array.from(store.series('vc.vc1.acr'))).toContain(1)
    expect(store.max('port.l3.queue')).toBe(9999)
    expect(store.rowCount).toBeLessThanOrEqual(16)
  })

  it('keeps the latest value of a counter', () => {
    const store = new SampleStore(['t_ms', 'vc.vc1.received'], { maxRows: 8 })
    for (let r = 1; r <= 100; r++) store.append(new Float64Array([r, r * 10]))
    const received = store.series('vc.vc1.received')
    expect(received[received.length - 1]).toBe(1000)
    for (let i = 1; i < received.length; i++) expect(received[i]).toBeGreaterThan(received[i - 1])
  })

  it('keeps a column of one value as that value, exactly, until a row differs', () => {
    const names = ['t_ms', 'port.p1.queue', 'port.p1.lost', 'vc.vc1.maxmin', 'vc.vc1.acr']
    const store = new SampleStore(names, { maxRows: 16 })
    const reference = new SampleStore(names, { maxRows: 16, foldConstants: false })
    for (let r = 0; r < 1000; r++) {
      // The queue stays 0 until row 700 (after several merges, mid-merge), losses stay 0,
      // the share is -0 then NaN from row 500, the ACR a fraction that never changes.
      const row = [
        r * 0.5,
        r >= 700 && r % 7 === 0 ? r : 0,
        0,
        r < 500 ? -0 : Number.NaN,
        0.1 + 0.2,
      ]
      store.append(new Float64Array(row))
      reference.append(new Float64Array(row))
    }
    expect(store.rowCount).toBe(reference.rowCount)
    for (const name of names) {
      expect(Array.from(store.series(name))).toEqual(Array.from(reference.series(name)))
      expect(store.last(name)).toBe(reference.last(name))
    }
    expect(store.max('port.p1.queue')).toBe(994)
    expect(store.series('port.p1.queue').some((v) => v > 700)).toBe(true)
    expect(Object.is(store.series('vc.vc1.maxmin')[0], -0)).toBe(true)
    expect(Array.from(store.series('vc.vc1.acr')).every((v) => v === 0.1 + 0.2)).toBe(true)
    expect(store.at('port.p1.lost', 3)).toBe(0)
    expect(store.at('port.p1.lost', store.rowCount)).toBeNaN()
  })

  it('keeps constant columns of a short run exact', () => {
    const store = new SampleStore(columns)
    store.append(new Float64Array([0.5, 150, 0, 1.0, 150, 0, 1.5, 150, 7]))
    expect(Array.from(store.series('vc.vc1.acr'))).toEqual([150, 150, 150])
    expect(Array.from(store.series('port.l3.queue'))).toEqual([0, 0, 7])
    expect(store.at('vc.vc1.acr', 1)).toBe(150)
  })

  it('is empty after clear', () => {
    const store = new SampleStore(columns)
    store.append(new Float64Array([0.5, 1, 2]))
    store.clear()
    expect(store.rowCount).toBe(0)
    expect(store.last('t_ms')).toBeUndefined()
    expect(store.max('t_ms')).toBe(-Infinity)
  })
})

describe('parseFrame', () => {
  const layout = {
    vcs: [
      {
        id: 'vc1',
        source: 'S1',
        destination: 'D1',
        path: ['S1', 'D1'],
        pcr_mbps: 150,
        startup: 'atm_forum',
      },
    ],
    ports: [
      { id: 'l1', link: 'l1', from: 'S1', to: 'D1', from_kind: 'host' as const },
      { id: 'l1:rev', link: 'l1', from: 'D1', to: 'S1', from_kind: 'host' as const },
    ],
  }

  it('splits ACRs and queues by layout order', () => {
    const frame = parseFrame(new Float64Array([12.5, 139.9, 7, 0]), layout)
    expect(frame.nowMs).toBe(12.5)
    expect(frame.acrMbps.get('vc1')).toBe(139.9)
    expect(frame.queueCells.get('l1')).toBe(7)
    expect(frame.queueCells.get('l1:rev')).toBe(0)
  })

  it('says what it expected when the length is wrong', () => {
    expect(() => parseFrame(new Float64Array(3), layout)).toThrow(
      'expected 4 (1 + 1 VCs + 2 ports)',
    )
  })
})
