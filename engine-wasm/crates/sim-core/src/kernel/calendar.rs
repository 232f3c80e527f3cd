//! A calendar queue for the dense near future of a network with many VCs.

use super::heap::{key_time, Entry, Heap};

/// log2 of a calendar day in picoseconds at the start: 2^20 ps ≈ 1.05 µs,
/// about a third of a cell time at 155.52 Mbit/s. The day then follows the
/// events ([`Calendar::adapt`]), between [`MIN_SHIFT`] and [`MAX_SHIFT`].
const SHIFT: u32 = 20;
const MIN_SHIFT: u32 = 12;
const MAX_SHIFT: u32 = 40;
/// Days in the window: 256 ≈ 268 µs at the first day length, the next
/// transmissions of tens of VCs sharing a link. More days were slower (tried:
/// 1,024 and 8,192 days of 2^20 ps): the buckets leave the cache between
/// visits. When the events spread further, the days grow longer instead.
const DAYS: usize = 256;
/// Pushes between two looks at how the events spread.
const EPOCH: u32 = 1 << 12;

/// The entries of one day, in key order from `head` on (those before `head`
/// were taken).
#[derive(Debug)]
struct Bucket<E> {
    entries: Vec<Entry<E>>,
    head: usize,
}

/// A calendar queue (R. Brown, "Calendar queues: a fast O(1) priority queue
/// implementation for the simulation event set problem", Communications of
/// the ACM, 1988). Each of the next [`DAYS`] days has a bucket, and an event
/// due in that window goes into its day's bucket; anything later (or earlier
/// than the window, which only a model scheduling at `now` after the loop
/// looked past a deadline can do) waits in a binary heap beside it.
///
/// Buckets are kept in key order. Sources that started together at one rate
/// send at the same instants, so a day can hold hundreds of events (200
/// sources of the benchmark's N-source workload; `ma-500-vcs`); they are
/// mostly scheduled in key order, so keeping a bucket sorted is an append,
/// and taking the least is reading the first occupied bucket's head, where
/// an unsorted bucket was scanned whole on every pop. Keys are
/// unique and compared whole, so the order is exactly the heap's.
#[derive(Debug)]
pub(super) struct Calendar<E> {
    /// Bucket `d % DAYS` holds the entries of day `d` (the time shifted right
    /// by `shift`) for every day `d` of the window.
    buckets: Vec<Bucket<E>>,
    /// One bit per bucket, set when it holds an entry.
    occupied: [u64; DAYS / 64],
    /// The window's first day: at most the day of every entry in a bucket.
    cursor: u64,
    /// Entries in buckets.
    near: usize,
    /// Entries outside the window.
    far: Heap<E>,
    /// log2 of the day length in picoseconds.
    shift: u32,
    /// Pushes in this epoch, and how many of them went past the window.
    pushes: u32,
    far_pushes: u32,
}

impl<E: Copy> Calendar<E> {
    pub(super) fn new() -> Self {
        Calendar {
            buckets: (0..DAYS).map(|_| Bucket { entries: Vec::new(), head: 0 }).collect(),
            occupied: [0; DAYS / 64],
            cursor: 0,
            near: 0,
            far: Heap::new(),
            shift: SHIFT,
            pushes: 0,
            far_pushes: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.near + self.far.len()
    }

    #[inline]
    pub(super) fn push(&mut self, key: u128, event: E) {
        self.pushes += 1;
        if self.pushes == EPOCH {
            self.adapt();
        }
        let day = key_time(key).0 >> self.shift;
        if day.wrapping_sub(self.cursor) >= DAYS as u64 {
            self.far_pushes += 1;
            self.far.push(key, event);
        } else {
            self.push_near(key, event, day);
        }
    }

    #[inline]
    fn push_near(&mut self, key: u128, event: E, day: u64) {
        let b = day as usize % DAYS;
        let bucket = &mut self.buckets[b];
        if bucket.entries.last().is_none_or(|last| last.key < key) {
            bucket.entries.push(Entry { key, event });
        } else {
            let at = bucket.head + bucket.entries[bucket.head..].partition_point(|e| e.key < key);
            bucket.entries.insert(at, Entry { key, event });
        }
        self.occupied[b / 64] |= 1 << (b % 64);
        self.near += 1;
    }

    /// The bucket of the first day from the cursor on that holds an entry
    /// (one does).
    #[inline]
    fn next_occupied(&self) -> usize {
        let start = self.cursor as usize % DAYS;
        let mut w = start / 64;
        let mut bits = self.occupied[w] & (!0u64 << (start % 64));
        loop {
            if bits != 0 {
                return w * 64 + bits.trailing_zeros() as usize;
            }
            // Round the ring; back at the start word, its bits below `start`
            // are the window's last days.
            w = (w + 1) % (DAYS / 64);
            bits = self.occupied[w];
        }
    }

    /// The bucket holding the least key in the buckets, if any.
    #[inline]
    fn least(&self) -> Option<(usize, u128)> {
        if self.near == 0 {
            return None;
        }
        let b = self.next_occupied();
        let bucket = &self.buckets[b];
        Some((b, bucket.entries[bucket.head].key))
    }

    // Not inlined, nor `pop_before`: inlined into the event loop beside the heap's
    // code they cost the heap's users 10 % (2 sources, reference workload).
    #[inline(never)]
    pub(super) fn peek_key(&mut self) -> u128 {
        self.least().map_or(u128::MAX, |(_, key)| key).min(self.far.peek_key())
    }

    /// Takes the least entry if its key is below `bound`: the event loop's
    /// peek and pop in one look.
    #[inline(never)]
    pub(super) fn pop_before(&mut self, bound: u128) -> Option<Entry<E>> {
        let far = self.far.peek_key();
        let least = self.least();
        if least.map_or(u128::MAX, |(_, key)| key).min(far) >= bound {
            return None;
        }
        let entry = match least {
            Some((b, key)) if key < far => {
                self.near -= 1;
                let bucket = &mut self.buckets[b];
                let entry = bucket.entries[bucket.head];
                bucket.head += 1;
                if bucket.head == bucket.entries.len() {
                    bucket.entries.clear();
                    bucket.head = 0;
                    self.occupied[b / 64] &= !(1 << (b % 64));
                }
                entry
            }
            _ => self.far.pop()?,
        };
        // Every pending entry is at or after this one: the window may start
        // here. An event scheduled at `now` still finds its day in it.
        self.cursor = self.cursor.max(key_time(entry.key).0 >> self.shift);
        Some(entry)
    }

    /// Fits the day length to how the events spread, once an epoch (the
    /// resizing of Brown's calendar queue, by a simpler rule). When more than
    /// a sixteenth of the epoch's events fell past the window — many sources
    /// each sending less often than the window is long, as 200 sources
    /// sharing one link or the 500 VCs of `ma-500-vcs` do, or RM cells'
    /// arrivals over 1,000 km links 5 ms ahead (a tenth of the events at 50
    /// sources: with a quarter as the bar they stayed in the heap, and its
    /// pops cost 5 % of the run) — days double. When hardly any fell past
    /// it and the pending events lie within the window's first quarter, days
    /// halve (they then still lie within its first half, so this does not
    /// swing back). The order of events does not depend on it: keys are
    /// compared whole.
    #[inline(never)]
    fn adapt(&mut self) {
        let (pushes, far) = (self.pushes, self.far_pushes);
        (self.pushes, self.far_pushes) = (0, 0);
        let shift = if far * 16 > pushes && self.shift < MAX_SHIFT {
            self.shift + 1
        } else if far * 64 < pushes && self.shift > MIN_SHIFT && self.span() < DAYS / 4 {
            self.shift - 1
        } else {
            return;
        };
        let mut entries: Vec<Entry<E>> = Vec::with_capacity(self.len());
        for bucket in &mut self.buckets {
            entries.extend_from_slice(&bucket.entries[bucket.head..]);
            bucket.entries.clear();
            bucket.head = 0;
        }
        while let Some(e) = self.far.pop() {
            entries.push(e);
        }
        self.occupied = [0; DAYS / 64];
        self.near = 0;
        self.cursor = (self.cursor << self.shift) >> shift;
        self.shift = shift;
        for e in entries {
            let day = key_time(e.key).0 >> shift;
            if day.wrapping_sub(self.cursor) >= DAYS as u64 {
                self.far.push(e.key, e.event);
            } else {
                self.push_near(e.key, e.event, day);
            }
        }
    }

    /// Days from the cursor to the last occupied bucket's, plus one (0 when
    /// the buckets are empty).
    fn span(&self) -> usize {
        let start = self.cursor as usize % DAYS;
        (0..DAYS)
            .rev()
            .find(|&d| {
                let b = (start + d) % DAYS;
                self.occupied[b / 64] & (1 << (b % 64)) != 0
            })
            .map_or(0, |d| d + 1)
    }
}
