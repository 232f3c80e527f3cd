//! An output port: the queue in front of one direction of a link, the cell
//! being transmitted, the cells propagating along the link (an in-order FIFO
//! with one pending event for its head), the port's switch algorithm and its
//! statistics. The port keeps the books; the algorithm only decides.

use super::cell::Cell;
use super::queue::{Discipline, PortQueue};
use crate::switch_alg::AnyAlgorithm;
use crate::time::SimTime;
use std::collections::VecDeque;

/// Counters a port keeps. `*_total` never reset; the rest cover the current
/// sample interval and are reset by [`Port::take_interval`].
#[derive(Clone, Debug, Default)]
pub struct PortStats {
    pub arrived_total: u64,
    pub sent_total: u64,
    pub lost_total: u64,
    /// ∫ queue length dt over the interval, in cell·ps.
    pub queue_area: u128,
    pub queue_max: u32,
    /// Transmitter busy time within the interval, in ps.
    pub busy: u64,
}

/// The interval statistics handed to the probe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalStats {
    pub queue_mean: f64,
    pub queue_max: u32,
    pub utilization: f64,
}

/// One direction of a link, seen from the node that transmits on it.
#[derive(Debug)]
pub struct Port {
    pub id: String,
    pub link: u32,
    pub from: u32,
    pub to: u32,
    /// Whether the transmitting node is a switch (hosts' ports are the NIC).
    pub at_switch: bool,
    pub rate_cps: f64,
    pub cell_time: SimTime,
    pub delay: SimTime,
    pub buffer_cells: u32,
    pub discipline: Discipline,
    /// CBR/VBR cells: served before any ABR cell (strict priority, SPEC §3).
    background: VecDeque<Cell>,
    /// ABR cells, ordered by the port's discipline.
    queue: PortQueue,
    in_tx: Option<Cell>,
    tx_started: SimTime,
    /// Cells on the wire, with the time each reaches the far end.
    pub wire: VecDeque<(SimTime, Cell)>,
    pub algorithm: AnyAlgorithm,
    pub stats: PortStats,
    /// When the queue length last changed (for the time integral).
    queue_since: SimTime,
    interval_start: SimTime,
}

impl Port {
    #[allow(clippy::too_many_arguments)]
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
            at_switch,
            rate_cps,
            cell_time: crate::time::cell_interval(rate_cps),
            delay,
            buffer_cells,
            discipline,
            background: VecDeque::new(),
            queue: PortQueue::new(discipline),
            in_tx: None,
            tx_started: SimTime::ZERO,
            wire: VecDeque::new(),
            algorithm,
            stats: PortStats::default(),
            queue_since: SimTime::ZERO,
            interval_start: SimTime::ZERO,
        }
    }

    /// What the port's switch algorithm may see.
    pub fn view(&self, now: SimTime) -> crate::switch_alg::PortView {
        crate::switch_alg::PortView { now, link_cps: self.rate_cps, queue_len: self.queue_len(), buffer_cells: self.buffer_cells }
    }

    /// Cells waiting, ABR and background (not counting the one being transmitted).
    pub fn queue_len(&self) -> u32 {
        (self.queue.len() + self.background.len()) as u32
    }

    /// ABR cells waiting.
    pub fn abr_queue_len(&self) -> u32 {
        self.queue.len() as u32
    }

    pub fn is_busy(&self) -> bool {
        self.in_tx.is_some()
    }

    fn account_queue(&mut self, now: SimTime) {
        let dt = now.0 - self.queue_since.0;
        self.stats.queue_area += self.queue_len() as u128 * dt as u128;
        self.queue_since = now;
    }

    /// Offers a cell to the queue. Returns false, counting the loss, when the buffer is full.
    pub fn enqueue(&mut self, now: SimTime, cell: Cell) -> bool {
        self.stats.arrived_total += 1;
        if self.queue_len() >= self.buffer_cells {
            self.stats.lost_total += 1;
            return false;
        }
        self.account_queue(now);
        if cell.is_abr() {
            self.queue.push(cell);
        } else {
            self.background.push_back(cell);
        }
        self.stats.queue_max = self.stats.queue_max.max(self.queue_len());
        true
    }

    /// Takes the next cell off the queue and starts sending it (the algorithm
    /// sees it leave); returns when it is done.
    /// Call only when the port is idle.
    pub fn start_tx(&mut self, now: SimTime) -> Option<SimTime> {
        debug_assert!(self.in_tx.is_none(), "port {} started twice", self.id);
        self.account_queue(now);
        let mut cell = self.background.pop_front().or_else(|| self.queue.pop())?;
        let view = self.view(now);
        crate::switch_alg::SwitchAlgorithm::on_departure(&mut self.algorithm, &view, &mut cell);
        self.in_tx = Some(cell);
        self.tx_started = now;
        Some(now + self.cell_time)
    }

    /// Finishes the current transmission: the cell goes onto the wire. Returns
    /// true when the wire was empty, i.e. the caller must schedule the arrival.
    pub fn finish_tx(&mut self, now: SimTime) -> bool {
        let cell = self.in_tx.take().expect("finish_tx on an idle port");
        self.stats.busy += now.0 - self.tx_started.0.max(self.interval_start.0);
        self.stats.sent_total += 1;
        let was_empty = self.wire.is_empty();
        self.wire.push_back((now + self.delay, cell));
        was_empty
    }

    /// Closes the current sample interval at `now` and returns its statistics.
    pub fn take_interval(&mut self, now: SimTime) -> IntervalStats {
        self.account_queue(now);
        if self.in_tx.is_some() {
            self.stats.busy += now.0 - self.tx_started.0.max(self.interval_start.0);
        }
        let span = (now.0 - self.interval_start.0).max(1) as f64;
        let result = IntervalStats {
            queue_mean: self.stats.queue_area as f64 / span,
            queue_max: self.stats.queue_max,
            utilization: (self.stats.busy as f64 / span).min(1.0),
        };
        self.stats.queue_area = 0;
        self.stats.queue_max = self.queue_len();
        self.stats.busy = 0;
        self.interval_start = now;
        result
    }

    /// Cells in this port's care: queued, being sent, and on the wire.
    pub fn cells_held(&self) -> u64 {
        self.queue_len() as u64 + self.in_tx.is_some() as u64 + self.wire.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::mbps_to_cells_per_s;

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
    fn buffer_limit_drops_and_counts() {
        let mut p = port(2);
        assert!(p.enqueue(SimTime(0), Cell::data(0)));
        assert!(p.enqueue(SimTime(0), Cell::data(0)));
        assert!(!p.enqueue(SimTime(0), Cell::data(0)));
        assert_eq!(p.stats.lost_total, 1);
        assert_eq!(p.queue_len(), 2);
    }

    #[test]
    fn transmission_takes_one_cell_time_then_propagates() {
        let mut p = port(10);
        p.enqueue(SimTime(0), Cell::data(7));
        let done = p.start_tx(SimTime(0)).unwrap();
        assert_eq!(done, SimTime(2_726_337));
        assert!(p.finish_tx(done));
        assert_eq!(p.wire.front().unwrap().0, done + SimTime::from_ms(5.0));
        assert_eq!(p.cells_held(), 1);
    }

    #[test]
    fn background_cells_go_first() {
        let mut p = port(10);
        p.enqueue(SimTime(0), Cell::data(1));
        let bg = Cell { kind: crate::net::CellKind::Background, ..Cell::data(0) };
        p.enqueue(SimTime(0), bg);
        p.enqueue(SimTime(0), Cell::data(2));
        assert_eq!(p.queue_len(), 3);
        let mut order = vec![];
        while let Some(done) = p.start_tx(SimTime(0)) {
            order.push(p.in_tx.unwrap().kind);
            p.finish_tx(done);
        }
        use crate::net::CellKind::*;
        assert_eq!(order, vec![Background, Data, Data]);
    }

    #[test]
    fn interval_statistics_integrate_the_queue() {
        let mut p = port(10);
        p.enqueue(SimTime(0), Cell::data(0));
        p.enqueue(SimTime(0), Cell::data(0));
        // Two cells for the whole interval of 100 ps, transmitter idle.
        let s = p.take_interval(SimTime(100));
        assert_eq!(s.queue_mean, 2.0);
        assert_eq!(s.queue_max, 2);
        assert_eq!(s.utilization, 0.0);
        // Busy for the whole of the next interval.
        let end = p.start_tx(SimTime(100)).unwrap();
        let s = p.take_interval(SimTime(100 + 1000));
        assert!(end.0 > 1100);
        assert_eq!(s.utilization, 1.0);
        assert_eq!(s.queue_mean, 1.0);
    }
}
