//! The event kernel: one priority queue of events keyed by (time, sequence), so
//! that events at the same instant run in the order they were scheduled and a
//! run is deterministic (ns-3 `EventKey { ts, uid }`). Cancellation is lazy: an
//! event carries a generation number and its handler ignores it when stale.

mod calendar;
mod heap;
mod rng;

pub use rng::Rng;

use crate::time::SimTime;
use calendar::Calendar;
use heap::{key_time, Heap};

/// Where the pending events wait: a binary heap, or — for a model with many
/// sources, where the heap grows deep — a calendar of the near future with a
/// heap for the rest.
#[derive(Debug)]
enum Future<E> {
    Heap(Heap<E>),
    Calendar(Calendar<E>),
}

/// The future event list, generic over the model's event type (the cell-level
/// model uses its `Event`; other models bring their own). Every event draws a
/// sequence number from one counter, so the order — time, then order of
/// scheduling — is the same whichever structure keeps the events (the golden
/// test pins every library run to it).
#[derive(Debug)]
pub struct EventQueue<E> {
    future: Future<E>,
    next_seq: u64,
    now: SimTime,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue::with_future(Future::Heap(Heap::new()))
    }
}

/// From how many sources the calendar pays. User CPU time against the heap
/// alone, interleaved pairs: 10 % less at 20 sources of the benchmark's
/// N-source workload, 7 % at 50, 2 % at 200, 6 % on ma-gfc (8 VCs), level on
/// ma-500-vcs, whose sources' next cells lie mostly past the calendar's
/// window; at 2 sources the calendar cost 15 % more than a heap of about
/// twenty events.
pub const CALENDAR_FROM_SOURCES: usize = 8;

impl<E: Copy + std::fmt::Debug> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Copy> EventQueue<E> {
    fn with_future(future: Future<E>) -> Self {
        EventQueue { future, next_seq: 0, now: SimTime::ZERO }
    }

    /// A queue for a model with `sources` traffic sources: a calendar from
    /// [`CALENDAR_FROM_SOURCES`] on, a heap below.
    pub fn for_sources(sources: usize) -> Self {
        if sources >= CALENDAR_FROM_SOURCES {
            EventQueue::with_future(Future::Calendar(Calendar::new()))
        } else {
            EventQueue::default()
        }
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
        match &mut self.future {
            Future::Heap(h) => h.push(key, event),
            Future::Calendar(c) => c.push(key, event),
        }
    }

    /// The time of the next event, if any.
    #[inline]
    pub fn peek_time(&mut self) -> Option<SimTime> {
        let key = match &mut self.future {
            Future::Heap(h) => h.peek_key(),
            Future::Calendar(c) => c.peek_key(),
        };
        (key != u128::MAX).then(|| key_time(key))
    }

    /// Removes the next event and advances the clock to it. Time never goes back.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_due(SimTime(u64::MAX))
    }

    /// Removes the next event if it is due by `deadline`, and advances the
    /// clock to it: [`EventQueue::peek_time`] and [`EventQueue::pop`] in one
    /// look at the queue, for the event loop.
    #[inline]
    pub fn pop_due(&mut self, deadline: SimTime) -> Option<(SimTime, E)> {
        // Every key of an event at or before `deadline` is below this bound.
        let bound = ((deadline.0 as u128) << 64) | u64::MAX as u128;
        let entry = match &mut self.future {
            Future::Heap(h) => h.pop_before(bound)?,
            Future::Calendar(c) => c.pop_before(bound)?,
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
        match &self.future {
            Future::Heap(h) => h.len(),
            Future::Calendar(c) => c.len(),
        }
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
    while handled < max_events {
        let Some((now, event)) = model.queue().pop_due(deadline) else {
            model.queue().advance_to(deadline);
            return (RunOutcome::Reached, handled);
        };
        handled += 1;
        model.handle(now, event);
    }
    if model.queue().peek_time().is_some_and(|t| t <= deadline) {
        return (RunOutcome::BudgetExhausted, handled);
    }
    model.queue().advance_to(deadline);
    (RunOutcome::Reached, handled)
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
    fn the_calendar_and_the_heap_pop_in_one_order() {
        // Gaps from picoseconds to past the calendar's window, ties, and the
        // loop's pattern of looking past a deadline and then scheduling at
        // it: the same events, popped from a calendar and from a heap, in the
        // same order.
        let mut rng = Rng::new(5, 0);
        let mut calendar: EventQueue<Event> = EventQueue::for_sources(CALENDAR_FROM_SOURCES);
        let mut heap: EventQueue<Event> = EventQueue::new();
        assert!(matches!(calendar.future, Future::Calendar(_)));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for step in 0..60_000u32 {
            for _ in 0..rng.next_u64() % 3 {
                let gap = match rng.next_u64() % 4 {
                    0 => rng.next_u64() % 4,
                    1 => rng.next_u64() % 3_000_000,
                    2 => rng.next_u64() % 400_000_000,
                    _ => rng.next_u64() % 20_000_000_000,
                };
                let t = SimTime(calendar.now().0 + gap);
                let event = Event::PortTxDone { port: step };
                calendar.schedule(t, event);
                heap.schedule(t, event);
            }
            if step % 7 == 0 {
                let deadline = SimTime(calendar.now().0 + rng.next_u64() % 2_000_000);
                for q in [&mut calendar, &mut heap] {
                    if q.peek_time().is_none_or(|t| t > deadline) {
                        q.advance_to(deadline);
                    }
                }
                assert_eq!(calendar.now(), heap.now());
                calendar.schedule(calendar.now(), Event::Sample);
                heap.schedule(heap.now(), Event::Sample);
            }
            a.extend(calendar.pop());
            b.extend(heap.pop());
        }
        a.extend(std::iter::from_fn(|| calendar.pop()));
        b.extend(std::iter::from_fn(|| heap.pop()));
        assert!(a.len() > 50_000);
        assert_eq!(a, b);
        assert!(calendar.is_empty());
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
