//! A calendar queue for the dense near future of a network with many VCs.

use super::heap::{key_time, Entry, Heap};

/// log2 of a calendar day in picoseconds: 2^20 ps ≈ 1.05 µs, about a third of
/// a cell time at 155.52 Mbit/s, so a busy network's events spread about one
/// or two to a bucket.
const SHIFT: u32 = 20;
/// Days in the window: 256 ≈ 268 µs, the next transmissions of tens of VCs
/// sharing a link. A wider window was slower (tried: 1,024 and 8,192 days):
/// its buckets leave the cache between visits.
const DAYS: usize = 256;

/// A calendar queue (R. Brown, "Calendar queues: a fast O(1) priority queue
/// implementation for the simulation event set problem", Communications of
/// the ACM, 1988). Each of the next [`DAYS`] days has a bucket, and an event
/// due in that window goes, unsorted, into its day's bucket; anything later
/// (or earlier than the window, which only a model scheduling at `now` after
/// the loop looked past a deadline can do) waits in a binary heap beside it.
/// Taking the least scans one bucket of a handful of entries whatever the
/// number of pending events, where a heap's cost grows with the logarithm of
/// their number: with tens of VCs the heap's pop was the largest cost per
/// cell (issue 18). Keys are unique and compared whole, so the order is
/// exactly the heap's.
#[derive(Debug)]
pub(super) struct Calendar<E> {
    /// Bucket `d % DAYS` holds the entries of day `d` (the time shifted right
    /// by [`SHIFT`]) for every day `d` of the window.
    buckets: Vec<Vec<Entry<E>>>,
    /// One bit per bucket, set when it holds an entry.
    occupied: [u64; DAYS / 64],
    /// The window's first day: at most the day of every entry in a bucket.
    cursor: u64,
    /// Entries in buckets.
    near: usize,
    /// Entries outside the window.
    far: Heap<E>,
    /// When `known`: the least key in the buckets (`u128::MAX`: none) and
    /// where it is.
    least_key: u128,
    least_bucket: u32,
    least_index: u32,
    known: bool,
}

impl<E: Copy> Calendar<E> {
    pub(super) fn new() -> Self {
        Calendar {
            buckets: (0..DAYS).map(|_| Vec::new()).collect(),
            occupied: [0; DAYS / 64],
            cursor: 0,
            near: 0,
            far: Heap::new(),
            least_key: u128::MAX,
            least_bucket: 0,
            least_index: 0,
            known: true,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.near + self.far.len()
    }

    #[inline]
    pub(super) fn push(&mut self, key: u128, event: E) {
        let day = key_time(key).0 >> SHIFT;
        if day.wrapping_sub(self.cursor) >= DAYS as u64 {
            self.far.push(key, event);
            return;
        }
        let b = day as usize % DAYS;
        let bucket = &mut self.buckets[b];
        bucket.push(Entry { key, event });
        self.occupied[b / 64] |= 1 << (b % 64);
        self.near += 1;
        if self.known && key < self.least_key {
            self.least_key = key;
            self.least_bucket = b as u32;
            self.least_index = (bucket.len() - 1) as u32;
        }
    }

    /// The first day from the cursor on whose bucket holds an entry (one does).
    #[inline]
    fn next_occupied(&self) -> u64 {
        let start = self.cursor as usize % DAYS;
        let mut w = start / 64;
        let mut bits = self.occupied[w] & (!0u64 << (start % 64));
        loop {
            if bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                return self.cursor + ((b + DAYS - start) % DAYS) as u64;
            }
            // Round the ring; back at the start word, its bits below `start`
            // are the window's last days.
            w = (w + 1) % (DAYS / 64);
            bits = self.occupied[w];
        }
    }

    /// Finds the least key in the buckets and where it is, moving the cursor
    /// up to its day but never past the heap's least (an event scheduled at
    /// `now` must still find its day in the window).
    fn find_least(&mut self) {
        self.known = true;
        if self.near == 0 {
            self.least_key = u128::MAX;
            return;
        }
        let day = self.next_occupied();
        let far_day = key_time(self.far.peek_key()).0 >> SHIFT;
        self.cursor = day.min(far_day).max(self.cursor);
        let b = day as usize % DAYS;
        let bucket = &self.buckets[b];
        let (mut index, mut key) = (0, bucket[0].key);
        for (i, e) in bucket.iter().enumerate().skip(1) {
            if e.key < key {
                (index, key) = (i, e.key);
            }
        }
        self.least_key = key;
        self.least_bucket = b as u32;
        self.least_index = index as u32;
    }

    // Not inlined, nor `pop`: inlined into the event loop beside the heap's
    // code they cost the heap's users 10 % (2 sources, reference workload).
    #[inline(never)]
    pub(super) fn peek_key(&mut self) -> u128 {
        if !self.known {
            self.find_least();
        }
        self.least_key.min(self.far.peek_key())
    }

    #[inline(never)]
    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        if !self.known {
            self.find_least();
        }
        let entry = if self.least_key < self.far.peek_key() {
            self.known = false;
            self.near -= 1;
            let b = self.least_bucket as usize;
            let bucket = &mut self.buckets[b];
            let entry = bucket.swap_remove(self.least_index as usize);
            if bucket.is_empty() {
                self.occupied[b / 64] &= !(1 << (b % 64));
            }
            entry
        } else {
            self.far.pop()?
        };
        // Every pending entry is at or after this one: the window may start here.
        self.cursor = self.cursor.max(key_time(entry.key).0 >> SHIFT);
        Some(entry)
    }
}
