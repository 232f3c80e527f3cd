//! The event kernel: one priority queue of events keyed by (time, sequence), so
//! that events at the same instant run in the order they were scheduled and a
//! run is deterministic (ns-3 `EventKey { ts, uid }`). Cancellation is lazy: an
//! event carries a generation number and its handler ignores it when stale.

mod rng;

pub use rng::Rng;

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What can happen in a simulation. Small and `Copy`: cells live in port and
/// link buffers, never in the heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// An ABR source reaches a transmission opportunity (SPEC §4 rule 3).
    /// `generation` invalidates superseded schedules (rescheduling, seed 001 §5.1).
    SourceSend { vc: u32, generation: u32 },
    /// A source's traffic model turns on or off (start/stop times).
    TrafficChange { vc: u32 },
    /// A port finishes putting its current cell on the wire.
    PortTxDone { port: u32 },
    /// The cell at the head of a port's link FIFO reaches the far end.
    LinkArrive { port: u32 },
    /// A background (CBR/VBR) source emits a cell.
    BackgroundSend { source: u32 },
    /// A background source's square wave changes phase (or it starts/stops).
    BackgroundEdge { source: u32 },
    /// A switch algorithm's periodic work (e.g. the end of ERICA's averaging interval).
    AlgorithmTick { port: u32 },
    /// The probe records a sample row.
    Sample,
}

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed so that `BinaryHeap` (a max-heap) pops the earliest entry first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.time.cmp(&self.time).then_with(|| other.seq.cmp(&self.seq))
    }
}

/// The future event list, generic over the model's event type (the cell-level
/// model uses [`Event`]; other models bring their own).
#[derive(Debug)]
pub struct EventQueue<E = Event> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    now: SimTime,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), next_seq: 0, now: SimTime::ZERO }
    }
}

impl<E: Copy + std::fmt::Debug> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The time of the event being (or last) handled.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Schedules `event` at `time`. Scheduling in the past is a logic error.
    pub fn schedule(&mut self, time: SimTime, event: E) {
        debug_assert!(time >= self.now, "event {event:?} scheduled in the past");
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { time: time.max(self.now), seq, event });
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.time)
    }

    /// Removes the next event and advances the clock to it. Time never goes back.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let entry = self.heap.pop()?;
        debug_assert!(entry.time >= self.now);
        self.now = entry.time;
        Some((entry.time, entry.event))
    }

    /// Moves the clock forward to `time` when no event lies before it.
    pub fn advance_to(&mut self, time: SimTime) {
        debug_assert!(self.peek_time().map_or(true, |t| t >= time));
        if time > self.now {
            self.now = time;
        }
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_ties_in_schedule_order() {
        let mut q: EventQueue = EventQueue::new();
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
    fn clock_follows_popped_events() {
        let mut q: EventQueue = EventQueue::new();
        q.schedule(SimTime(5), Event::Sample);
        assert_eq!(q.now(), SimTime::ZERO);
        q.pop();
        assert_eq!(q.now(), SimTime(5));
        q.advance_to(SimTime(9));
        assert_eq!(q.now(), SimTime(9));
    }
}
