//! The event kernel: one priority queue of events keyed by (time, sequence), so
//! that events at the same instant run in the order they were scheduled and a
//! run is deterministic (ns-3 `EventKey { ts, uid }`). Cancellation is lazy: an
//! event carries a generation number and its handler ignores it when stale.

mod rng;

pub use rng::Rng;

use crate::time::SimTime;

/// A pending event. The key packs (time, sequence) into one `u128`, so that
/// ordering two entries is a single wide comparison.
#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    key: u128,
    event: E,
}

fn key_time(key: u128) -> SimTime {
    SimTime((key >> 64) as u64)
}

/// A binary min-heap on the packed key. `pop` takes the root, walks the hole
/// it leaves down to a leaf along the smaller children (one comparison per
/// level), then moves the last entry up from there — Floyd's bottom-up
/// deletion. The last entry of a simulation's heap is usually far in the
/// future and belongs near the bottom, so this does about half the
/// comparisons of a textbook sift-down.
///
/// It replaced `std::collections::BinaryHeap` for issue 9: that heap's `pop`
/// swaps the last entry into the root and reads it straight back at another
/// offset, a store-to-load forwarding stall on every event that cost 14 % of
/// the run time; this one reads the root once and only moves entries down.
#[derive(Debug)]
struct Heap<E> {
    entries: Vec<Entry<E>>,
}

impl<E: Copy> Heap<E> {
    #[inline]
    fn push(&mut self, key: u128, event: E) {
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
    fn peek_key(&self) -> u128 {
        self.entries.first().map_or(u128::MAX, |e| e.key)
    }

    #[inline]
    fn pop(&mut self) -> Option<Entry<E>> {
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

/// Events that come at most one at a time per owner — the head of a link's
/// cells, a transmitter's next start — kept out of the heap in fixed slots
/// under a winner tree: every node holds the least (key, slot) below it, so
/// the least is at the root and changing a slot replays only its path, one
/// comparison with the sibling per level and no entries moved. With hundreds
/// of VCs the heap holds their hundreds of next transmissions, while the
/// links' arrivals — most of the events — only ever meet the other links here.
#[derive(Debug)]
struct Slots<E> {
    /// Node 1 is the root, node i's children are 2i and 2i + 1, and node
    /// `width + s` is the leaf of slot `s`; each holds (key, slot) of the
    /// least key below it, `u128::MAX` for none.
    tree: Vec<(u128, u32)>,
    events: Vec<Option<E>>,
    width: usize,
    /// A slot just taken whose emptying is not yet replayed: the taker often
    /// fills it again at once, and then one replay does for both.
    taken: Option<usize>,
}

impl<E: Copy> Slots<E> {
    fn new(count: usize) -> Self {
        let width = count.next_power_of_two().max(1);
        let mut tree = vec![(u128::MAX, 0); 2 * width];
        for s in 0..width {
            tree[width + s].1 = s as u32;
        }
        for node in (1..width).rev() {
            tree[node] = tree[2 * node];
        }
        Slots { tree, events: vec![None; width], width, taken: None }
    }

    /// Sets slot `s`'s key and recomputes the winners on its path to the root.
    #[inline]
    fn replay(&mut self, s: usize, key: u128) {
        let tree = &mut self.tree[..];
        let mut node = self.width + s;
        let mut best = (key, s as u32);
        tree[node] = best;
        while node > 1 {
            let sibling = tree[node ^ 1];
            // The left child wins ties; only empty slots tie.
            if sibling.0 < best.0 || (sibling.0 == best.0 && node & 1 == 1) {
                best = sibling;
            }
            node /= 2;
            tree[node] = best;
        }
    }

    /// Replays the emptying of the slot last taken, if still due.
    #[inline]
    fn settle(&mut self) {
        if let Some(s) = self.taken.take() {
            self.replay(s, u128::MAX);
        }
    }

    #[inline]
    fn put(&mut self, s: usize, key: u128, event: E) {
        debug_assert!(self.events[s].is_none(), "slot {s} already holds an event");
        self.events[s] = Some(event);
        if self.taken == Some(s) {
            self.taken = None;
        } else {
            self.settle();
        }
        self.replay(s, key);
    }

    #[inline]
    fn peek_key(&mut self) -> u128 {
        self.settle();
        self.tree[1].0
    }

    /// Takes the least (call after `peek_key` found it).
    #[inline]
    fn take(&mut self) -> Entry<E> {
        let (key, s) = self.tree[1];
        let event = self.events[s as usize].take().expect("a slot with a key holds an event");
        self.taken = Some(s as usize);
        Entry { key, event }
    }

    fn len(&self) -> usize {
        self.events.iter().filter(|e| e.is_some()).count()
    }
}

/// The future event list, generic over the model's event type (the cell-level
/// model uses [`Event`]; other models bring their own): a heap for most
/// events and, optionally, slots for events that have at most one pending
/// per owner. Both draw sequence numbers from one counter, so the order —
/// time, then order of scheduling — is the same wherever an event is kept
/// (the golden test pins every library run to it).
#[derive(Debug)]
pub struct EventQueue<E> {
    heap: Heap<E>,
    slots: Slots<E>,
    use_slots: bool,
    next_seq: u64,
    now: SimTime,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue::with_slots(0)
    }
}

/// From how many events a heap would otherwise hold the slots pay: below it
/// one small heap is faster than a heap and a tree side by side.
pub const SLOTS_FROM_PENDING: usize = 32;

impl<E: Copy + std::fmt::Debug> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Copy> EventQueue<E> {
    /// A queue with `count` slots for [`EventQueue::schedule_in_slot`]
    /// (none: such events go to the heap like any other).
    pub fn with_slots(count: usize) -> Self {
        EventQueue {
            heap: Heap { entries: Vec::new() },
            slots: Slots::new(count),
            use_slots: count > 0,
            next_seq: 0,
            now: SimTime::ZERO,
        }
    }

    /// A queue for a model that keeps about `pending` events in the heap and
    /// has `count` one-per-owner events: slots for those only when the heap
    /// is large enough for them to pay.
    pub fn for_load(pending: usize, count: usize) -> Self {
        EventQueue::with_slots(if pending >= SLOTS_FROM_PENDING { count } else { 0 })
    }

    /// The time of the event being (or last) handled.
    pub fn now(&self) -> SimTime {
        self.now
    }

    #[inline]
    fn key(&mut self, time: SimTime) -> u128 {
        debug_assert!(time >= self.now, "event scheduled in the past");
        let seq = self.next_seq;
        self.next_seq += 1;
        ((time.max(self.now).0 as u128) << 64) | seq as u128
    }

    /// Schedules `event` at `time`. Scheduling in the past is a logic error.
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: E) {
        let key = self.key(time);
        self.heap.push(key, event);
    }

    /// Schedules `event` at `time` in `slot`, which must hold no other
    /// pending event (the caller's invariant: one per owner).
    #[inline]
    pub fn schedule_in_slot(&mut self, slot: usize, time: SimTime, event: E) {
        let key = self.key(time);
        if self.use_slots {
            self.slots.put(slot, key, event);
        } else {
            self.heap.push(key, event);
        }
    }

    /// The time of the next event, if any.
    #[inline]
    pub fn peek_time(&mut self) -> Option<SimTime> {
        let mut key = self.heap.peek_key();
        if self.use_slots {
            key = key.min(self.slots.peek_key());
        }
        (key != u128::MAX).then(|| key_time(key))
    }

    /// Removes the next event and advances the clock to it. Time never goes back.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let entry = if self.use_slots && self.slots.peek_key() < self.heap.peek_key() {
            self.slots.take()
        } else {
            self.heap.pop()?
        };
        let time = key_time(entry.key);
        debug_assert!(time >= self.now);
        self.now = time;
        Some((time, entry.event))
    }

    /// Moves the clock forward to `time` when no event lies before it.
    pub fn advance_to(&mut self, time: SimTime) {
        debug_assert!(self.peek_time().is_none_or(|t| t >= time));
        if time > self.now {
            self.now = time;
        }
    }

    pub fn len(&self) -> usize {
        self.heap.entries.len() + self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Why [`run_until`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOutcome {
    /// Simulated time reached the deadline.
    Reached,
    /// The event budget ran out first; call again to go on.
    BudgetExhausted,
}

/// A model the kernel can drive: its event queue and what each event does.
pub trait Handler<E> {
    fn queue(&mut self) -> &mut EventQueue<E>;
    fn handle(&mut self, now: SimTime, event: E);
}

/// The event loop every model shares: handles events up to and including
/// `deadline`, at most `max_events` of them, and moves the clock to the
/// deadline when it gets there. Returns why it stopped and how many events
/// it handled.
#[inline]
pub fn run_until<E: Copy + std::fmt::Debug, M: Handler<E>>(
    model: &mut M,
    deadline: SimTime,
    max_events: u64,
) -> (RunOutcome, u64) {
    let mut handled = 0;
    loop {
        match model.queue().peek_time() {
            Some(t) if t <= deadline => {
                if handled == max_events {
                    return (RunOutcome::BudgetExhausted, handled);
                }
                handled += 1;
                let (now, event) = model.queue().pop().expect("peeked");
                model.handle(now, event);
            }
            _ => {
                model.queue().advance_to(deadline);
                return (RunOutcome::Reached, handled);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// A stand-in for a model's event type: the kernel knows none.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Event {
        PortTxDone { port: u32 },
        LinkArrive { port: u32 },
        Sample,
    }

    use super::*;

    #[test]
    fn pops_in_time_order_and_ties_in_schedule_order() {
        let mut q: EventQueue<Event> = EventQueue::new();
        q.schedule(SimTime(30), Event::Sample);
        q.schedule(SimTime(10), Event::PortTxDone { port: 1 });
        q.schedule(SimTime(10), Event::PortTxDone { port: 2 });
        q.schedule(SimTime(20), Event::LinkArrive { port: 3 });
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (SimTime(10), Event::PortTxDone { port: 1 }),
                (SimTime(10), Event::PortTxDone { port: 2 }),
                (SimTime(20), Event::LinkArrive { port: 3 }),
                (SimTime(30), Event::Sample),
            ]
        );
    }

    #[test]
    fn pops_exactly_in_key_order_under_random_load() {
        let mut rng = Rng::new(11, 0);
        let mut q: EventQueue<Event> = EventQueue::new();
        let mut scheduled = Vec::new();
        let mut popped = Vec::new();
        for step in 0..50_000u32 {
            for _ in 0..rng.next_u64() % 3 {
                let t = SimTime(q.now().0 + rng.next_u64() % 40);
                scheduled.push((t, scheduled.len()));
                q.schedule(t, Event::PortTxDone { port: scheduled.len() as u32 - 1 });
            }
            if step % 3 != 0 {
                popped.extend(q.pop());
            }
        }
        popped.extend(std::iter::from_fn(|| q.pop()));
        scheduled.sort();
        let expected: Vec<_> =
            scheduled.iter().map(|&(t, i)| (t, Event::PortTxDone { port: i as u32 })).collect();
        assert_eq!(popped, expected);
    }

    #[test]
    fn slots_and_heap_share_one_order() {
        // Ports' arrivals in slots, everything else in the heap, against one
        // heap holding all: same order, ties included.
        let mut rng = Rng::new(5, 0);
        let mut split: EventQueue<Event> = EventQueue::with_slots(37);
        let mut single: EventQueue<Event> = EventQueue::new();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..30_000 {
            for _ in 0..rng.next_u64() % 3 {
                let t = SimTime(split.now().0 + rng.next_u64() % 30);
                let port = (rng.next_u64() % 37) as u32;
                let occupied = split.slots.events[port as usize].is_some();
                let event = if occupied { Event::Sample } else { Event::LinkArrive { port } };
                match event {
                    Event::LinkArrive { port } => split.schedule_in_slot(port as usize, t, event),
                    _ => split.schedule(t, event),
                }
                single.schedule(t, event);
            }
            a.extend(split.pop());
            b.extend(single.pop());
        }
        a.extend(std::iter::from_fn(|| split.pop()));
        b.extend(std::iter::from_fn(|| single.pop()));
        assert!(a.len() > 20_000);
        assert_eq!(a, b);
        assert!(split.is_empty());
    }

    #[test]
    fn clock_follows_popped_events() {
        let mut q: EventQueue<Event> = EventQueue::new();
        q.schedule(SimTime(5), Event::Sample);
        assert_eq!(q.now(), SimTime::ZERO);
        q.pop();
        assert_eq!(q.now(), SimTime(5));
        q.advance_to(SimTime(9));
        assert_eq!(q.now(), SimTime(9));
    }
}
