/** A frozen copy of a run's samples, so a pinned run stays as it was while the page runs on. */
import { SampleStore } from '../engine/samples'

export function snapshotStore(store: SampleStore): SampleStore {
  const rows = store.rowCount
  // Sized for the rows it copies: its columns are made once, not doubled as they fill.
  const copy = new SampleStore(store.columns, { maxRows: store.maxRows, expectedRows: rows })
  const width = store.columns.length
  const flat = new Float64Array(rows * width)
  store.columns.forEach((name, c) => {
    const values = store.series(name)
    for (let r = 0; r < rows; r++) flat[r * width + c] = values[r]
  })
  copy.append(flat)
  return copy
}
