//! The binary heap behind the kernel's future event list.

use crate::time::SimTime;

/// A pending event. The key packs (time, sequence) into one `u128`, so that
/// ordering two entries is a single wide comparison.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry<E> {
    pub(super) key: u128,
    pub(super) event: E,
}

pub(super) fn key_time(key: u128) -> SimTime {
    SimTime((key >> 64) as u64)
}

/// A binary min-heap on the packed key. `pop` takes the root, walks the hole
/// it leaves down to a leaf along the smaller children (one comparison per
/// level), then moves the last entry up from there — Floyd's bottom-up
/// deletion. The last entry of a simulation's heap is usually far in the
/// future and belongs near the bottom, so this does about half the
/// comparisons of a textbook sift-down.
///
/// It replaced `std::collections::BinaryHeap` for speed: that heap's `pop`
/// swaps the last entry into the root and reads it straight back at another
/// offset, a store-to-load forwarding stall on every event that cost 14 % of
/// the run time; this one reads the root once and only moves entries down.
#[derive(Debug)]
pub(super) struct Heap<E> {
    entries: Vec<Entry<E>>,
}

impl<E: Copy> Heap<E> {
    pub(super) fn new() -> Self {
        Heap { entries: Vec::new() }
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    pub(super) fn push(&mut self, key: u128, event: E) {
        // Sift up: move parents down into the hole until the new key fits.
        let heap = &mut self.entries;
        let mut hole = heap.len();
        heap.push(Entry { key, event });
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if heap[parent].key <= key {
                break;
            }
            heap[hole] = heap[parent];
            hole = parent;
        }
        heap[hole] = Entry { key, event };
    }

    #[inline]
    pub(super) fn peek_key(&self) -> u128 {
        self.entries.first().map_or(u128::MAX, |e| e.key)
    }

    /// Takes the least entry if its key is below `bound`.
    ///
    /// This and `pop` are inlined into the event loop by force in the wasm
    /// build: left to LLVM, `pop` stayed a function of its own there (it is
    /// inlined natively) and handed its entry back through the shadow stack in
    /// linear memory. Forced, the wasm engine under Node needs 8 % less CPU
    /// time at 2 sources and 10 % less on the reference workload (interleaved
    /// pairs), 3 % less at 20 and 50 sources; the app's worker in Chromium
    /// plays 6 % (2 sources) and 9 % (reference workload) more cells per
    /// second (median of three interleaved rounds). Natively the attribute
    /// is left as it was, so the native build does not change.
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub(super) fn pop_before(&mut self, bound: u128) -> Option<Entry<E>> {
        if self.peek_key() >= bound {
            return None;
        }
        self.pop()
    }

    #[cfg_attr(target_arch = "wasm32", inline(always))]
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        let heap = &mut self.entries;
        let last = heap.pop()?;
        if heap.is_empty() {
            return Some(last);
        }
        let top = heap[0];
        // Walk the hole from the root to a leaf along the smaller children…
        let len = heap.len();
        let mut hole = 0;
        loop {
            let left = 2 * hole + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && heap[right].key < heap[left].key { right } else { left };
            heap[hole] = heap[child];
            hole = child;
        }
        // …then bring the last entry up to where it belongs on that path.
        while hole > 0 {
            let parent = (hole - 1) / 2;
            if heap[parent].key <= last.key {
                break;
            }
            heap[hole] = heap[parent];
            hole = parent;
        }
        heap[hole] = last;
        Some(top)
    }
}
