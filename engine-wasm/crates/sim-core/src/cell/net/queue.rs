//! Queue disciplines of an output port. The port keeps the books (buffer limit,
//! loss, statistics); a discipline only orders the cells (ns-3 `QueueDisc`).
//!
//! Two disciplines, as Ma & Ramakrishnan §3 compares them: one common first-in
//! first-out queue, and per-VC queues served round-robin (Ma & Ramakrishnan §3.1.2).

use crate::cell::atm::{Cell, CellKind, RmFields};
use std::collections::VecDeque;

/// A queued cell's header: 8 bytes, where a whole [`Cell`] is 40. RM fields,
/// which one cell in Nrm carries, wait in a FIFO of their own beside (the
/// queue keeps order), as on a wire. With a few hundred thousand cells
/// queued (`ma-500-vcs`) the queue is the run's largest structure, written
/// and read once per cell.
#[derive(Clone, Copy, Debug)]
struct Header {
    vc: u32,
    kind: CellKind,
    efci: bool,
    /// Whether the cell's RM fields are in the RM FIFO (else they are empty).
    rm: bool,
}

/// Whether `cell`'s RM fields must be kept: an RM cell's. Any other cell's
/// are [`RmFields::EMPTY`].
#[inline]
pub(super) fn keeps_rm(cell: &Cell) -> bool {
    debug_assert!(cell.is_rm() || cell.rm == RmFields::EMPTY, "only RM cells carry RM fields");
    cell.is_rm()
}

/// Cells in first-in first-out order, stored compactly.
#[derive(Clone, Debug, Default)]
pub struct CellFifo {
    cells: VecDeque<Header>,
    rm: VecDeque<RmFields>,
    /// Cells taken so far, and the number each RM cell waiting was pushed
    /// as (cells taken then plus cells waiting): how many cells are ahead
    /// of the first RM cell ([`CellFifo::first_rm`]).
    taken: u64,
    rm_at: VecDeque<u64>,
}

impl CellFifo {
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    #[inline]
    pub fn push_back(&mut self, cell: Cell) {
        let rm = keeps_rm(&cell);
        if rm {
            self.rm.push_back(cell.rm);
            self.rm_at.push_back(self.taken + self.cells.len() as u64);
        }
        self.cells.push_back(Header { vc: cell.vc, kind: cell.kind, efci: cell.efci, rm });
    }

    /// How many cells wait ahead of the first RM cell, if one waits.
    #[inline]
    pub fn first_rm(&self) -> Option<u64> {
        self.rm_at.front().map(|&at| at - self.taken)
    }

    #[inline]
    pub fn pop_front(&mut self) -> Option<Cell> {
        let mut cell = Cell::data(0);
        self.pop_into(&mut cell).then_some(cell)
    }

    /// Takes the first cell into `cell`; false (and `cell` untouched) when
    /// none waits. Written field by field where the caller keeps it: a cell
    /// returned in an `Option` went through a stack slot written narrow and
    /// read back wide, a failed store forwarding per cell served.
    #[inline]
    pub fn pop_into(&mut self, cell: &mut Cell) -> bool {
        let Some(h) = self.cells.pop_front() else { return false };
        self.taken += 1;
        cell.vc = h.vc;
        cell.kind = h.kind;
        cell.efci = h.efci;
        if h.rm {
            // In place, as `Wire::pop_front` does (a failed store forwarding otherwise).
            cell.rm = *self.rm.front().expect("an RM cell's fields are queued");
            self.rm.pop_front();
            self.rm_at.pop_front();
        } else {
            cell.rm = RmFields::EMPTY;
        }
        true
    }

    /// The cells, first first.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        let mut rm = self.rm.iter();
        self.cells.iter().map(move |h| {
            let fields = if h.rm { *rm.next().expect("fields") } else { RmFields::EMPTY };
            Cell { vc: h.vc, kind: h.kind, efci: h.efci, rm: fields }
        })
    }
}

/// How a port orders its ABR cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discipline {
    /// One first-in first-out queue.
    Fifo,
    /// One queue per VC, the non-empty ones served in round-robin order, one
    /// cell per turn (Ma & Ramakrishnan §3.1.2).
    PerVc,
}

impl Discipline {
    /// Every discipline a scenario may name in `queue`.
    pub const ALL: [Discipline; 2] = [Discipline::Fifo, Discipline::PerVc];

    pub fn as_str(self) -> &'static str {
        match self {
            Discipline::Fifo => "fifo",
            Discipline::PerVc => "per_vc",
        }
    }

    /// The discipline a scenario names `name`.
    pub fn from_name(name: &str) -> Option<Discipline> {
        Discipline::ALL.into_iter().find(|d| d.as_str() == name)
    }
}

/// Per-VC queues served round-robin. Each operation is O(1): the VCs with
/// cells waiting are kept in a ring in service order, so a turn never scans
/// empty queues. (Background cells never get here: the port keeps them apart
/// and serves them first.)
#[derive(Clone, Debug, Default)]
pub struct RoundRobin {
    /// Waiting ABR cells of each VC, indexed by VC; grown on first use.
    per_vc: Vec<CellFifo>,
    /// VCs with at least one cell waiting, in the order they will be served.
    ring: VecDeque<u32>,
    len: usize,
    /// RM cells waiting.
    rm: usize,
}

impl RoundRobin {
    fn push(&mut self, cell: Cell) {
        self.len += 1;
        self.rm += cell.is_rm() as usize;
        let vc = cell.vc as usize;
        if vc >= self.per_vc.len() {
            self.per_vc.resize_with(vc + 1, CellFifo::default);
        }
        let queue = &mut self.per_vc[vc];
        if queue.is_empty() {
            // A VC that had nothing waiting joins the end of the round.
            self.ring.push_back(cell.vc);
        }
        queue.push_back(cell);
    }

    fn pop_into(&mut self, cell: &mut Cell) -> bool {
        let Some(vc) = self.ring.pop_front() else { return false };
        let queue = &mut self.per_vc[vc as usize];
        let popped = queue.pop_into(cell);
        debug_assert!(popped, "a VC in the ring has a cell waiting");
        if !queue.is_empty() {
            // One cell per turn: the VC goes to the back of the round.
            self.ring.push_back(vc);
        }
        self.len -= 1;
        self.rm -= cell.is_rm() as usize;
        true
    }

    /// Cells served before a cell of `vc` joining its queue now: one of
    /// every VC in the round when `vc` has none waiting; else at most a
    /// whole round for each of its own cells ahead (VCs whose queues empty
    /// meanwhile drop out of the round).
    pub fn turns_before_new(&self, vc: u32) -> usize {
        self.ring.len() * self.vc_len(vc).max(1)
    }

    /// Cells of `vc` waiting.
    pub fn vc_len(&self, vc: u32) -> usize {
        self.per_vc.get(vc as usize).map_or(0, CellFifo::len)
    }
}

/// The cells waiting at a port, ordered by the port's discipline.
#[derive(Clone, Debug)]
pub enum PortQueue {
    Fifo(CellFifo),
    PerVc(RoundRobin),
}

impl PortQueue {
    pub fn new(discipline: Discipline) -> PortQueue {
        match discipline {
            Discipline::Fifo => PortQueue::Fifo(CellFifo::default()),
            Discipline::PerVc => PortQueue::PerVc(RoundRobin::default()),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            PortQueue::Fifo(q) => q.len(),
            PortQueue::PerVc(q) => q.len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The waiting cells, for drawing: a FIFO in order of service; per-VC
    /// queues VC by VC in the round's order (each VC's cells in its order).
    pub fn iter(&self) -> Box<dyn Iterator<Item = Cell> + '_> {
        match self {
            PortQueue::Fifo(q) => Box::new(q.iter()),
            PortQueue::PerVc(q) => {
                Box::new(q.ring.iter().flat_map(move |&vc| q.per_vc[vc as usize].iter()))
            }
        }
    }

    pub fn push(&mut self, cell: Cell) {
        match self {
            PortQueue::Fifo(q) => q.push_back(cell),
            PortQueue::PerVc(q) => q.push(cell),
        }
    }

    pub fn pop(&mut self) -> Option<Cell> {
        let mut cell = Cell::data(0);
        self.pop_into(&mut cell).then_some(cell)
    }

    /// Takes the next cell to serve into `cell` ([`CellFifo::pop_into`]).
    #[inline]
    pub fn pop_into(&mut self, cell: &mut Cell) -> bool {
        match self {
            PortQueue::Fifo(q) => q.pop_into(cell),
            PortQueue::PerVc(q) => q.pop_into(cell),
        }
    }

    /// If an RM cell waits, a lower bound of the cells served before the
    /// first: exact for a FIFO, 0 for per-VC queues (whose round decides).
    pub fn first_rm_ahead(&self) -> Option<u64> {
        match self {
            PortQueue::Fifo(q) => q.first_rm(),
            PortQueue::PerVc(q) => (q.rm > 0).then_some(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::net::CellKind;

    fn drain(q: &mut PortQueue) -> Vec<u32> {
        std::iter::from_fn(|| q.pop()).map(|c| c.vc).collect()
    }

    #[test]
    fn fifo_keeps_arrival_order() {
        let mut q = PortQueue::new(Discipline::Fifo);
        for vc in [3, 1, 2] {
            q.push(Cell::data(vc));
        }
        assert_eq!(drain(&mut q), vec![3, 1, 2]);
        assert!(q.is_empty());
    }

    #[test]
    fn per_vc_queues_are_served_one_cell_per_turn() {
        let mut q = PortQueue::new(Discipline::PerVc);
        // VC 0 has a backlog of four cells when VCs 1 and 2 arrive.
        for vc in [0, 0, 0, 0, 1, 2, 1] {
            q.push(Cell::data(vc));
        }
        assert_eq!(q.len(), 7);
        assert_eq!(drain(&mut q), vec![0, 1, 2, 0, 1, 0, 0]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_cell_of_a_vc_with_nothing_waiting_goes_after_one_round() {
        let mut q = RoundRobin::default();
        for vc in [0, 0, 0, 0, 1, 2, 1] {
            q.push(Cell::data(vc));
        }
        // VC 3 joins the end of the round: one cell of 0, 1 and 2 go first,
        // however long their queues; a cell of VC 1 waits a round per cell.
        assert_eq!(q.turns_before_new(3), 3);
        assert_eq!(q.turns_before_new(1), 6);
        let mut pq = PortQueue::PerVc(q);
        pq.push(Cell::data(3));
        assert_eq!(drain(&mut pq).iter().position(|&vc| vc == 3), Some(3));
    }

    #[test]
    fn a_marked_cell_waits_for_later_arrivals_of_other_vcs() {
        // Ma & Ramakrishnan §3.1.2: a cell arriving at a non-empty per-VC queue is
        // delayed by cells of other VCs that arrive after it.
        let mut q = PortQueue::new(Discipline::PerVc);
        q.push(Cell::data(0));
        q.push(Cell { kind: CellKind::Frm, ..Cell::data(0) }); // the "marked" arrival
        q.push(Cell::data(1));
        q.push(Cell::data(1));
        let order: Vec<(u32, CellKind)> =
            std::iter::from_fn(|| q.pop()).map(|c| (c.vc, c.kind)).collect();
        assert_eq!(order[..3], [(0, CellKind::Data), (1, CellKind::Data), (0, CellKind::Frm)]);
        // FIFO would have sent the FRM second.
        let mut f = PortQueue::new(Discipline::Fifo);
        f.push(Cell::data(0));
        f.push(Cell { kind: CellKind::Frm, ..Cell::data(0) });
        f.push(Cell::data(1));
        assert_eq!(f.pop().map(|c| c.kind), Some(CellKind::Data));
        assert_eq!(f.pop().map(|c| c.kind), Some(CellKind::Frm));
    }

    #[test]
    fn the_first_rm_cell_and_the_cells_ahead_of_it_are_known() {
        let frm = |vc| Cell { kind: CellKind::Frm, ..Cell::data(vc) };
        for d in Discipline::ALL {
            let mut q = PortQueue::new(d);
            q.push(Cell::data(0));
            assert_eq!(q.first_rm_ahead(), None);
            for c in [Cell::data(1), frm(1), Cell::data(1), frm(2)] {
                q.push(c);
            }
            let fifo = d == Discipline::Fifo;
            assert_eq!(q.first_rm_ahead(), Some(if fifo { 2 } else { 0 }));
            q.pop();
            q.pop();
            assert_eq!(q.first_rm_ahead(), Some(0));
            let served = q.pop().map(|c| c.kind);
            assert!(q.first_rm_ahead().is_some());
            if fifo {
                assert_eq!((served, q.first_rm_ahead()), (Some(CellKind::Frm), Some(1)));
            }
            while q.pop().is_some() {}
            assert_eq!(q.first_rm_ahead(), None);
        }
    }

    #[test]
    fn names_round_trip() {
        for d in Discipline::ALL {
            assert_eq!(Discipline::from_name(d.as_str()), Some(d));
        }
        assert_eq!(Discipline::from_name("wfq"), None);
    }
}
