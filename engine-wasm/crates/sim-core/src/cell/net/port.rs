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
use crate::scenario::topology::PortEnds;
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
    /// Whether set-up and connect messages wait behind the cells queued here
    /// (in-band signalling) before they cross the link.
    pub setup_in_band: bool,
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
        ends: PortEnds,
        at_switch: bool,
        rate_cps: f64,
        delay: SimTime,
        buffer_cells: u32,
        discipline: Discipline,
        algorithm: AnyAlgorithm,
    ) -> Port {
        let PortEnds { id, link, from, to } = ends;
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
            setup_in_band: true,
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

    /// How long a signalling cell of `vc` joining the ABR queue now waits
    /// before it starts: the cell being sent, the background and RM cells
    /// ahead, and the ABR cells served before it — the whole queue with a
    /// FIFO; with per-VC queues one turn of every VC with cells waiting
    /// (see [`super::queue::RoundRobin::turns_before_new`]). Background cells
    /// that arrive meanwhile, which would pass it, are not counted.
    pub fn queue_wait(&self, now: SimTime, vc: u32) -> SimTime {
        let busy = self.busy_until.0.saturating_sub(now.0);
        let abr = match &self.queue {
            PortQueue::Fifo(q) => q.len(),
            PortQueue::PerVc(q) => q.turns_before_new(vc),
        };
        let ahead = (self.background.len() + self.rm_queue.len() + abr) as u64;
        SimTime(busy + ahead * self.cell_time.0)
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
mod tests;
