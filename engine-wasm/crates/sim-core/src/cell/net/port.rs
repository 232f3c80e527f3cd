//! An output port: the queue in front of one direction of a link, the
//! transmitter, the cells on the link (an in-order FIFO with one pending event
//! for its head), the port's switch algorithm and its statistics. The port
//! keeps the books; the algorithm only decides.
//!
//! The transmitter is lazy: a cell that finds the port idle goes onto the
//! wire at once, with the time its last bit reaches the far end (start + cell
//! time + propagation); the port is then busy until start + cell time. A cell
//! being transmitted is therefore already on the wire.
//!
//! While cells wait, the port of a link that ends at a switch needs no event
//! to start the next one either: each starts when the one before
//! ends, so the start times are known, and [`Port::catch_up`] starts every
//! cell whose time has come before anything looks at the port — a cell
//! arriving, the switch algorithm, the probe — and before the link's next
//! arrival, which is always pending while cells wait (the cell being sent
//! is on the wire), and comes no earlier than one cell time after the next
//! start. A link that ends at a host, whose arrivals are mostly not events
//! (`Wire::lazy`), keeps a timer event for its queued cells
//! ([`Starts::Timed`]), and is caught up as well when something looks at it;
//! a link to a switch whose data cells land without events keeps one guard
//! event per propagation delay ([`Starts::Guarded`]). A cell whose start
//! falls at the same instant as another event starts first, on every port:
//! a cell arriving as the transmitter frees waits behind the one that starts
//! then, whichever of the two events was scheduled first.

use super::queue::{CellFifo, Discipline, PortQueue};
pub use super::wire::Wire;
use crate::cell::atm::Cell;
use crate::cell::switch_alg::{AnyAlgorithm, SwitchAlgorithm};
use crate::time::SimTime;

/// Counters a port keeps beside the three every cell updates, which the
/// port holds among its hot fields ([`Port::arrived_total`],
/// [`Port::sent_total`] and its busy time). They cover the current sample
/// interval and are reset by [`Port::take_interval`], except `lost_total`.
#[derive(Clone, Debug, Default)]
pub struct PortStats {
    pub lost_total: u64,
    /// ∫ queue length dt over the interval, in cell·ps.
    pub queue_area: u128,
    pub queue_max: u32,
}

/// Where the far node of a port's link sends the data and FRM cells that
/// arrive over it (build.rs), so that a cell finds its way without reading
/// its loop's route: with hundreds of loops, the loop's record and its
/// route are a cache miss or two per cell.
#[derive(Clone, Debug)]
pub enum NextHop {
    /// Read from the cell's route.
    Route,
    /// Every cell (background ones too) to this port.
    One(u32),
    /// By loop index: the port, or [`NextHop::END`] where the loop's route
    /// ends at the far node or does not pass (its route says what then).
    ByLoop(Box<[u32]>),
}

impl NextHop {
    pub const END: u32 = u32::MAX;

    /// The port a data or FRM cell of loop `vc` leaves by, if known here.
    #[inline]
    pub fn of(&self, vc: u32) -> Option<u32> {
        match self {
            NextHop::Route => None,
            NextHop::One(port) => Some(*port),
            NextHop::ByLoop(ports) => {
                ports.get(vc as usize).copied().filter(|&p| p != NextHop::END)
            }
        }
    }
}

/// How a port's waiting cells start (see the module's notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Starts {
    /// Without events: [`Port::catch_up`] starts them before anything looks
    /// at the port, and the link's next arrival, pending while cells wait,
    /// comes before any of them could reach the far end.
    CaughtUp,
    /// Each by a timer event (a link that ends at a host: its arrivals are
    /// mostly not events, so none is pending to catch the port up), and by
    /// [`Port::catch_up`] when something looks at the port at the instant
    /// one is due, before the timer's turn.
    Timed,
    /// Caught up, with a guard event while an RM cell waits, just before it
    /// could reach the far end (`Port::guard_at`): a link whose data cells
    /// land without events has no arrival pending for each, yet an RM
    /// cell's arrival must be scheduled before it gets there.
    Guarded,
    /// Caught up, on the host link of a source that is its only sender and
    /// whose data cells land in the last trunk it feeds without events
    /// (`sim/sources.rs`): the arrivals that are events are the source's
    /// `Event::HostArrive`, which it arms itself.
    BySource,
}

/// What became of a cell offered to a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// On the wire at once; schedule its arrival if it is the wire's first
    /// pending event.
    Sent { first_due: bool },
    /// Waiting; schedule the port's timer at this time if given.
    Queued { timer: Option<SimTime> },
    /// The buffer was full.
    Lost,
}

/// The interval statistics handed to the probe.
pub use crate::probe::IntervalStats;

/// One direction of a link, seen from the node that transmits on it.
///
/// Laid out as written (`repr(C)`), from a cache line's start: what a cell
/// passing an idle port reads and writes fills the first two lines — the
/// transmitter, the algorithm's tag, the waiting count and the arrival and
/// departure counters in the first; the busy time, the rate and the link's
/// FIFO in the second. With hundreds of VCs each crosses ports of its
/// own, last touched many cells ago, and Rust's own order had spread those
/// fields over six of the port's seven lines.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct Port {
    /// The transmitter is busy until then.
    busy_until: SimTime,
    pub cell_time: SimTime,
    pub delay: SimTime,
    pub algorithm: AnyAlgorithm,
    /// Cells waiting, ABR and background: the two queues' lengths summed,
    /// kept here so that a cell finding the port idle reads neither queue.
    waiting: u32,
    pub buffer_cells: u32,
    pub arrived_total: u64,
    pub sent_total: u64,
    /// Transmitter busy time within the sample interval, in ps.
    busy: u64,
    pub rate_cps: f64,
    /// Cells on the wire (including the one being sent), with the time each
    /// reaches the far end.
    pub wire: Wire,
    /// How waiting cells start.
    pub starts: Starts,
    /// Whether a timer (or guard) event is pending ([`Starts`]).
    timer_pending: bool,
    /// Whether the transmitting node is a switch (hosts' ports are the NIC).
    pub at_switch: bool,
    /// Where the far node sends the data and FRM cells that arrive over
    /// this port's link, when build.rs could say.
    pub next_hop: NextHop,
    pub discipline: Discipline,
    pub stats: PortStats,
    /// When the queue length last changed (for the time integral).
    queue_since: SimTime,
    interval_start: SimTime,
    /// How long the transmitting switch processes a set-up or connect
    /// message before sending it on through this port.
    pub setup_delay: SimTime,
    /// CBR/VBR cells: served before any ABR cell (strict priority).
    background: CellFifo,
    /// RM cells (either direction) when the algorithm has them skip the
    /// data queue ([`SwitchAlgorithm::rm_first`]): served after background
    /// cells and before `queue`.
    rm_queue: CellFifo,
    /// ABR cells, ordered by the port's discipline.
    queue: PortQueue,
    pub id: String,
    pub link: u32,
    pub from: u32,
    pub to: u32,
    /// The lazy links whose data cells land here without events, when this
    /// port's cells all come from them: the last trunk feeding a
    /// link to a host, or the host links feeding a last trunk. The run lands
    /// their cells up to now, merged in time order, before anything reads or
    /// changes this port.
    pub feeders: Vec<u32>,
    /// For a host link whose data cells land without events: the port at
    /// the far switch they all enter (whose `feeders` it is among).
    pub lands_into: Option<u32>,
    /// For a last trunk fed only by the host links of sole senders whose
    /// data cells land without events ([`Starts::BySource`]): their merge
    /// (`sim/sources.rs`), landed before anything reads or changes the port.
    pub merge: Option<u32>,
}

impl Port {
    #[allow(clippy::too_many_arguments, reason = "a port is built once from its scenario entry")]
    pub fn new(
        id: String,
        link: u32,
        from: u32,
        to: u32,
        at_switch: bool,
        rate_cps: f64,
        delay: SimTime,
        buffer_cells: u32,
        discipline: Discipline,
        algorithm: AnyAlgorithm,
    ) -> Port {
        Port {
            id,
            link,
            from,
            to,
            feeders: Vec::new(),
            lands_into: None,
            merge: None,
            next_hop: NextHop::Route,
            at_switch,
            rate_cps,
            cell_time: crate::time::cell_interval(rate_cps),
            delay,
            setup_delay: SimTime::ZERO,
            buffer_cells,
            discipline,
            background: CellFifo::default(),
            rm_queue: CellFifo::default(),
            queue: PortQueue::new(discipline),
            waiting: 0,
            busy_until: SimTime::ZERO,
            starts: Starts::CaughtUp,
            timer_pending: false,
            wire: Wire::default(),
            algorithm,
            stats: PortStats::default(),
            arrived_total: 0,
            sent_total: 0,
            busy: 0,
            queue_since: SimTime::ZERO,
            interval_start: SimTime::ZERO,
        }
    }

    /// What the port's switch algorithm may see, if the port runs one (a
    /// host's port runs none: its cells need no view built).
    #[inline]
    pub fn algorithm_view(&self, now: SimTime) -> Option<crate::cell::switch_alg::PortView> {
        (!matches!(self.algorithm, AnyAlgorithm::None)).then(|| self.view(now))
    }

    /// What the port's switch algorithm may see.
    pub fn view(&self, now: SimTime) -> crate::cell::switch_alg::PortView {
        crate::cell::switch_alg::PortView {
            now,
            link_cps: self.rate_cps,
            queue_len: self.queue_len(),
            buffer_cells: self.buffer_cells,
        }
    }

    /// Cells waiting, ABR and background (not counting the one being transmitted).
    #[inline]
    pub fn queue_len(&self) -> u32 {
        debug_assert_eq!(
            self.waiting as usize,
            self.queue.len() + self.rm_queue.len() + self.background.len()
        );
        self.waiting
    }

    /// The cells waiting, background first (they are served first), for drawing.
    pub fn waiting(&self) -> impl Iterator<Item = Cell> + '_ {
        self.background.iter().chain(self.rm_queue.iter()).chain(self.queue.iter())
    }

    /// ABR cells waiting.
    pub fn abr_queue_len(&self) -> u32 {
        (self.queue.len() + self.rm_queue.len()) as u32
    }

    /// Whether the transmitter is sending at `now`.
    pub fn is_busy(&self, now: SimTime) -> bool {
        self.busy_until > now
    }

    fn account_queue(&mut self, now: SimTime) {
        let dt = now.0 - self.queue_since.0;
        // Mostly the queue is empty.
        let len = self.queue_len() as u64;
        if len > 0 {
            self.stats.queue_area += crate::time::queue_area(len, dt);
        }
        self.queue_since = now;
    }

    /// Offers a cell to the port at `now`: sent at once when the port is idle,
    /// queued otherwise, or lost (and counted) when the buffer is full.
    #[inline(always)]
    pub fn offer(&mut self, now: SimTime, cell: &mut Cell) -> Offer {
        self.arrived_total += 1;
        if self.queue_len() == 0 && !self.is_busy(now) {
            return Offer::Sent { first_due: self.transmit(now, cell) };
        }
        if self.queue_len() >= self.buffer_cells {
            self.stats.lost_total += 1;
            return Offer::Lost;
        }
        self.account_queue(now);
        if cell.is_rm() && self.algorithm.rm_first() {
            self.rm_queue.push_back(*cell);
        } else if cell.is_abr() {
            self.queue.push(*cell);
        } else {
            self.background.push_back(*cell);
        }
        self.waiting += 1;
        self.stats.queue_max = self.stats.queue_max.max(self.queue_len());
        let timer = match self.starts {
            _ if self.timer_pending => return Offer::Queued { timer: None },
            Starts::CaughtUp | Starts::BySource => None,
            Starts::Timed => Some(self.busy_until.max(now)),
            Starts::Guarded => self.guard_at(now),
        };
        self.timer_pending = timer.is_some();
        Offer::Queued { timer }
    }

    /// Starts, in order and each at its time, every waiting cell whose turn
    /// came by `now` — the work a timer event did at each (see the module's
    /// notes). Call it before reading or changing the port at `now`. Returns
    /// whether a cell it started is now the wire's first pending event
    /// (schedule it; only on a [`Starts::Guarded`] or [`Starts::Timed`]
    /// port: elsewhere the cell before it is still on the wire).
    #[inline]
    #[must_use]
    pub fn catch_up(&mut self, now: SimTime) -> bool {
        self.waiting > 0 && self.busy_until <= now && self.start_waiting(now)
    }

    /// [`Port::catch_up`]'s work, out of its callers' way.
    #[inline(never)]
    fn start_waiting(&mut self, now: SimTime) -> bool {
        let mut first_due = false;
        while self.waiting > 0 && self.busy_until <= now {
            first_due |= self.start_next(self.busy_until) == Some(true);
        }
        debug_assert!(
            !first_due || matches!(self.starts, Starts::Guarded | Starts::BySource | Starts::Timed),
            "the cell sent before is still on the wire"
        );
        // A `BySource` port's RM cells arrive by its source's own events.
        first_due && matches!(self.starts, Starts::Guarded | Starts::Timed)
    }

    /// Starts sending the next waiting cell at `at` (background first:
    /// strict priority; then RM cells that skip the data queue), closing the
    /// queue integral there. Returns whether
    /// its arrival is the wire's first pending event; None if none waits.
    fn start_next(&mut self, at: SimTime) -> Option<bool> {
        self.account_queue(at);
        let mut cell = Cell::data(0);
        if !self.background.pop_into(&mut cell)
            && !self.rm_queue.pop_into(&mut cell)
            && !self.queue.pop_into(&mut cell)
        {
            return None;
        }
        self.waiting -= 1;
        Some(self.transmit(at, &mut cell))
    }

    /// When a [`Starts::Guarded`] port's guard must fire, if an RM cell
    /// waits (data cells need none: they land without events): 1 ps before
    /// the first RM cell could reach the far end if it started as soon as it
    /// can — after the background cells and the ABR cells ahead of it, each
    /// a cell time (more may come ahead of it, never fewer). A catch-up by
    /// then, the guard's or any other, puts it on the wire before its
    /// arrival, which is then scheduled strictly in the future; an RM cell
    /// queued later can start no earlier than the first.
    fn guard_at(&self, now: SimTime) -> Option<SimTime> {
        let rm_ahead = if self.rm_queue.is_empty() { self.queue.first_rm_ahead()? } else { 0 };
        let ahead = self.background.len() as u64 + rm_ahead;
        let start = self.busy_until.max(now).0 + ahead * self.cell_time.0;
        Some(SimTime(start + self.cell_time.0 + self.delay.0 - 1))
    }

    /// The timer fired: the transmitter is free, so the next queued cell goes
    /// (background first: strict priority) — on a [`Starts::Guarded`] port,
    /// every cell whose turn came. Returns whether a cell sent is the wire's
    /// first pending event, and when the timer must fire again if cells
    /// still wait.
    pub fn on_timer(&mut self, now: SimTime) -> (bool, Option<SimTime>) {
        self.timer_pending = false;
        if self.starts == Starts::Guarded {
            let first_due = self.catch_up(now);
            let next = self.guard_at(now);
            self.timer_pending = next.is_some();
            return (first_due, next);
        }
        if self.is_busy(now) {
            // Caught up at this instant already, before the timer's turn.
            self.timer_pending = self.queue_len() > 0;
            return (false, self.timer_pending.then_some(self.busy_until));
        }
        let Some(first_due) = self.start_next(now) else {
            return (false, None);
        };
        let next = if self.queue_len() > 0 {
            self.timer_pending = true;
            Some(self.busy_until)
        } else {
            None
        };
        (first_due, next)
    }

    /// When the transmitter is free.
    #[inline]
    pub fn free_at(&self) -> SimTime {
        self.busy_until
    }

    /// Sends a cell at `now` from a port that is idle, has nothing waiting
    /// and no cell on its link, when the run reads it at its far end
    /// already (a lazy source's data cell landing, `sim/sources.rs`): the
    /// books [`Port::offer`] keeps, without putting it on the link only to
    /// take it off. Returns when it reaches the far end.
    #[inline]
    pub fn pass(&mut self, now: SimTime) -> SimTime {
        debug_assert!(self.waiting == 0 && !self.is_busy(now) && self.wire.is_empty());
        debug_assert!(!self.algorithm.sees_departures());
        self.arrived_total += 1;
        self.busy_until = now + self.cell_time;
        self.busy += self.cell_time.0;
        self.sent_total += 1;
        self.busy_until + self.delay
    }

    /// Starts sending `cell` now (the algorithm sees it leave): it occupies
    /// the transmitter for one cell time and reaches the far end after the
    /// propagation delay. Returns whether its arrival is the wire's first
    /// pending event.
    fn transmit(&mut self, now: SimTime, cell: &mut Cell) -> bool {
        if self.algorithm.sees_departures() {
            let view = self.view(now);
            self.algorithm.on_departure(&view, cell);
        }
        self.busy_until = now + self.cell_time;
        self.busy += self.cell_time.0;
        self.sent_total += 1;
        self.wire.push_back(self.busy_until + self.delay, cell)
    }

    /// Closes the current sample interval at `now` and returns its statistics.
    pub fn take_interval(&mut self, now: SimTime) -> IntervalStats {
        self.account_queue(now);
        // Busy time is booked when a transmission starts; what runs past
        // `now` belongs to the next interval.
        let carry = self.busy_until.0.saturating_sub(now.0);
        let span = (now.0 - self.interval_start.0).max(1) as f64;
        let result = IntervalStats {
            queue_mean: self.stats.queue_area as f64 / span,
            queue_max: self.stats.queue_max,
            utilization: ((self.busy - carry.min(self.busy)) as f64 / span).min(1.0),
        };
        self.stats.queue_area = 0;
        self.stats.queue_max = self.queue_len();
        self.busy = carry;
        self.interval_start = now;
        result
    }

    /// Cells in this port's care: queued, being sent, and on the wire.
    pub fn cells_held(&self) -> u64 {
        self.queue_len() as u64 + self.wire.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::super::wire::OnWire;
    use super::*;
    use crate::cell::atm::CellKind;
    use crate::time::mbps_to_cells_per_s;
    use std::collections::VecDeque;

    fn port(buffer: u32) -> Port {
        Port::new(
            "p".into(),
            0,
            0,
            1,
            true,
            mbps_to_cells_per_s(155.52),
            SimTime::from_ms(5.0),
            buffer,
            Discipline::Fifo,
            AnyAlgorithm::None,
        )
    }

    #[test]
    fn what_a_passing_cell_touches_lies_in_the_ports_first_two_cache_lines() {
        use std::mem::{align_of, offset_of};
        assert_eq!(align_of::<Port>(), 64);
        assert!(offset_of!(Port, sent_total) + 8 <= 64, "the first line ends after the counters");
        let wire = offset_of!(Port, wire);
        assert!(offset_of!(Port, busy) >= 64);
        assert!(wire + offset_of!(Wire, lazy) < 128, "the link's FIFO and its flag in the second");
        assert!(wire + offset_of!(Wire, cells) + size_of::<VecDeque<OnWire>>() <= 128);
    }

    /// A port of ten cells' buffer whose link is lazy, its waiting cells
    /// starting as `starts` says; and its cell time at 155.52 Mbit/s.
    fn lazy_port(starts: Starts) -> (Port, SimTime) {
        let mut p = port(10);
        p.wire.set_lazy(true);
        p.starts = starts;
        (p, SimTime(2_726_337))
    }

    #[test]
    fn an_idle_port_sends_at_once_and_a_busy_one_queues() {
        // A link that ends at a host: queued cells start by timer events.
        let (mut p, ct) = lazy_port(Starts::Timed);
        assert_eq!(p.offer(SimTime(0), &mut Cell::data(1)), Offer::Sent { first_due: false });
        assert_eq!(p.wire.back_time().unwrap(), ct + SimTime::from_ms(5.0));
        assert_eq!(p.offer(SimTime(10), &mut Cell::data(2)), Offer::Queued { timer: Some(ct) });
        assert_eq!(p.offer(SimTime(20), &mut Cell::data(3)), Offer::Queued { timer: None });
        assert_eq!(p.queue_len(), 2);
        assert_eq!(p.on_timer(ct), (false, Some(ct + ct)));
        assert_eq!(p.on_timer(ct + ct), (false, None));
        assert_eq!(p.cells_held(), 3);
    }

    #[test]
    fn a_timed_port_looked_at_as_its_transmitter_frees_starts_the_next_cell_first() {
        let (mut p, ct) = lazy_port(Starts::Timed);
        p.offer(SimTime(0), &mut Cell::data(1));
        assert_eq!(p.offer(SimTime(10), &mut Cell::data(2)), Offer::Queued { timer: Some(ct) });
        // A cell arrives at `ct`, before the timer's turn at the same instant:
        // the waiting cell starts first, and the new one waits behind it.
        assert!(!p.catch_up(ct));
        assert_eq!((p.queue_len(), p.wire.len()), (0, 2));
        assert_eq!(p.offer(ct, &mut Cell::data(3)), Offer::Queued { timer: None });
        // The timer comes all the same, finds the port busy and waits for the cell's end.
        assert_eq!(p.on_timer(ct), (false, Some(ct + ct)));
        assert_eq!(p.on_timer(ct + ct), (false, None));
        let order: Vec<_> = p.wire.iter().map(|(_, c)| c.vc).collect();
        assert_eq!(order, vec![1, 2, 3]);
    }

    #[test]
    fn a_port_to_a_switch_starts_its_waiting_cells_without_timers() {
        let mut p = port(10);
        let ct = SimTime(2_726_337);
        let prop = SimTime::from_ms(5.0);
        assert_eq!(p.offer(SimTime(0), &mut Cell::data(1)), Offer::Sent { first_due: true });
        assert_eq!(p.offer(SimTime(10), &mut Cell::data(2)), Offer::Queued { timer: None });
        assert_eq!(p.offer(SimTime(20), &mut Cell::data(3)), Offer::Queued { timer: None });
        // Nothing starts before its turn; each starts exactly when the one before ends.
        assert!(!p.catch_up(SimTime(ct.0 - 1)));
        assert_eq!((p.queue_len(), p.wire.len()), (2, 1));
        assert!(!p.catch_up(ct + ct));
        assert_eq!((p.queue_len(), p.wire.len()), (0, 3));
        let arrivals: Vec<_> = p.wire.iter().map(|(at, c)| (at, c.vc)).collect();
        assert_eq!(
            arrivals,
            vec![(ct + prop, 1), (ct + ct + prop, 2), (SimTime(3 * ct.0) + prop, 3)]
        );
        // The queue integral counts each wait up to its cell's start: 2 cells
        // for the first cell time (less the 10 and 20 ps before they came),
        // then 1.
        let s = p.take_interval(SimTime(3 * ct.0));
        let area = (ct.0 - 10) + (ct.0 - 20) + ct.0;
        assert_eq!(s.queue_mean, area as f64 / (3 * ct.0) as f64);
        assert_eq!((s.utilization, p.sent_total), (1.0, 3));
    }

    #[test]
    fn a_guarded_port_catches_up_within_a_propagation_delay_of_each_start() {
        // A last trunk whose data cells land without events: its waiting
        // cells start by catch-up, and while an RM cell waits a guard event
        // 1 ps before it could reach the far end makes sure its arrival is
        // scheduled before it gets there.
        let (mut p, ct) = lazy_port(Starts::Guarded);
        let prop = SimTime::from_ms(5.0);
        let guard = SimTime(ct.0 + prop.0 - 1);
        let frm = Cell { kind: CellKind::Frm, ..Cell::data(3) };
        assert_eq!(p.offer(SimTime(0), &mut Cell::data(1)), Offer::Sent { first_due: false });
        assert_eq!(p.offer(SimTime(1), &mut Cell::data(2)), Offer::Queued { timer: None });
        // The FRM starts after data(2), at 2 cell times at the earliest.
        let at = SimTime(2 * ct.0) + guard;
        assert_eq!(p.offer(SimTime(2), &mut frm.clone()), Offer::Queued { timer: Some(at) });
        assert_eq!(p.offer(SimTime(3), &mut Cell::data(4)), Offer::Queued { timer: None });
        // One guard at a time: a later RM cell can start no earlier.
        assert_eq!(p.offer(SimTime(4), &mut frm.clone()), Offer::Queued { timer: None });
        // The guard starts every cell whose turn came, the FRMs among them.
        let (first_due, next) = p.on_timer(at);
        assert!(first_due);
        assert_eq!(p.wire.next_due(), Some(SimTime(3 * ct.0) + prop));
        assert_eq!((p.queue_len(), next, p.wire.len()), (0, None, 5));
        // An RM cell queued later arms a new guard; a catch-up before it
        // does its work (the FRM before is still on the wire, the first due).
        let now = at;
        assert_eq!(p.offer(now, &mut Cell::data(5)), Offer::Sent { first_due: false });
        assert_eq!(p.offer(now, &mut Cell::data(6)), Offer::Queued { timer: None });
        let at = now + SimTime(2 * ct.0) + guard;
        assert_eq!(p.offer(now, &mut frm.clone()), Offer::Queued { timer: Some(at) });
        assert!(!p.catch_up(now + SimTime(2 * ct.0)));
        assert_eq!(p.on_timer(at), (false, None));
        assert_eq!(p.wire.len(), 8);
    }

    #[test]
    fn buffer_limit_drops_and_counts() {
        let mut p = port(2);
        p.offer(SimTime(0), &mut Cell::data(0)); // on the wire
        assert!(matches!(p.offer(SimTime(0), &mut Cell::data(0)), Offer::Queued { .. }));
        assert!(matches!(p.offer(SimTime(0), &mut Cell::data(0)), Offer::Queued { .. }));
        assert_eq!(p.offer(SimTime(0), &mut Cell::data(0)), Offer::Lost);
        assert_eq!(p.stats.lost_total, 1);
        assert_eq!(p.queue_len(), 2);
    }

    #[test]
    fn background_cells_go_first() {
        let mut p = port(10);
        p.offer(SimTime(0), &mut Cell::data(9));
        p.offer(SimTime(0), &mut Cell::data(1));
        p.offer(SimTime(0), &mut Cell { kind: Background, ..Cell::data(0) });
        p.offer(SimTime(0), &mut Cell::data(2));
        let mut t = p.cell_time;
        while let (_, Some(next)) = p.on_timer(t) {
            t = next;
        }
        let order: Vec<_> = p.wire.iter().map(|(_, c)| c.kind).collect();
        assert_eq!(p.wire.iter().map(|(_, c)| c.vc).collect::<Vec<_>>(), vec![9, 0, 1, 2]);
        use crate::cell::net::CellKind::*;
        assert_eq!(order, vec![Data, Background, Data, Data]);
    }

    #[test]
    fn rm_cells_skip_the_data_queue_when_the_algorithm_asks() {
        use crate::cell::net::CellKind::*;
        use crate::cell::switch_alg::{Erica, EricaConfig};
        let frm = |vc| Cell { kind: Frm, ..Cell::data(vc) };
        for (config, order) in [
            (
                EricaConfig::default(),
                vec![(9, Data), (0, Background), (5, Frm), (1, Data), (2, Data)],
            ),
            (
                EricaConfig::basic(),
                vec![(9, Data), (0, Background), (1, Data), (5, Frm), (2, Data)],
            ),
        ] {
            let mut p = port(10);
            p.algorithm = AnyAlgorithm::Erica(Box::new(Erica::new(config, vec![1, 2, 5, 9])));
            p.offer(SimTime(0), &mut Cell::data(9));
            p.offer(SimTime(0), &mut Cell::data(1));
            p.offer(SimTime(0), &mut frm(5));
            p.offer(SimTime(0), &mut Cell { kind: Background, ..Cell::data(0) });
            p.offer(SimTime(0), &mut Cell::data(2));
            assert_eq!((p.queue_len(), p.abr_queue_len(), p.waiting().count()), (4, 3, 4));
            let mut t = p.cell_time;
            while let (_, Some(next)) = p.on_timer(t) {
                t = next;
            }
            let sent: Vec<_> = p.wire.iter().map(|(_, c)| (c.vc, c.kind)).collect();
            assert_eq!(sent, order);
        }
    }

    #[test]
    fn interval_statistics_integrate_the_queue_and_split_busy_time() {
        let mut p = port(10);
        let ct = p.cell_time;
        p.offer(SimTime(0), &mut Cell::data(0));
        p.offer(SimTime(0), &mut Cell::data(0));
        p.offer(SimTime(0), &mut Cell::data(0));
        // Two cells wait for the whole first cell time; the transmitter is busy throughout.
        let s = p.take_interval(ct);
        assert_eq!((s.queue_mean, s.queue_max, s.utilization), (2.0, 2, 1.0));
        p.on_timer(ct);
        // Half-way through the second cell: busy all along, the rest carried over.
        let half = SimTime(ct.0 + ct.0 / 2);
        assert_eq!(p.take_interval(half).utilization, 1.0);
        assert_eq!(p.busy, ct.0 - ct.0 / 2);
    }
}
