//! The cells on a link, in the order they reach its far end: a compact
//! header per cell, and the RM fields of RM cells in a FIFO beside.

use super::queue::keeps_rm;
use crate::cell::atm::{Cell, CellKind, RmFields};
use crate::time::SimTime;
use std::collections::VecDeque;

/// A cell on a link: when it reaches the far end, and its header. 16 bytes
/// rather than a whole 48-byte (time, [`Cell`]): RM fields, which one cell in
/// Nrm carries, wait in a FIFO of their own beside (the link keeps order).
/// The links hold most of the cells in the network, written when a cell is
/// sent and read back a propagation delay later, long out of the cache; with
/// many VCs each link's few cells are one stream among hundreds, which the
/// prefetcher does not follow, so the bytes per cell are what is paid for
/// (a third of the cost per cell at 200 sources).
#[derive(Clone, Copy, Debug)]
pub(super) struct OnWire {
    at: SimTime,
    vc: u32,
    kind: CellKind,
    efci: bool,
    /// Whether the cell's RM fields are in `Wire::rm` (else they are empty).
    rm: bool,
    /// Whether its arrival is an event (else it lands without one; see [`Wire::lazy`]).
    due: bool,
}

/// The cells on a link, in the order they arrive. Laid out as written
/// (`repr(C)`): what every cell reads first (see [`Port`]).
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub struct Wire {
    pub(super) cells: VecDeque<OnWire>,
    /// Whether a data or background cell's arrival needs no event of its
    /// own: on a link that ends at a host, where it only counts,
    /// on a last trunk whose far switch sends it on without queueing, or on
    /// a host link into a last trunk (see [`Port::feeders`]). Such a cell
    /// lands when the next cell that is an
    /// event arrives, or when the run reads what it reaches
    /// ([`Wire::pop_landed`]). RM cells are always events.
    pub(super) lazy: bool,
    rm: VecDeque<RmFields>,
    /// On a lazy link, the arrival times of the cells whose arrival is an
    /// event, first first. (On any other link every cell's arrival is one,
    /// and the first cell says when: reading it there also brings it into
    /// the cache for its arrival, one cell time later on a busy link, where
    /// a FIFO of times beside cost a cache miss of its own per cell.)
    due: VecDeque<SimTime>,
}

impl Wire {
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Marks the link as ending where data and background cells only count.
    pub fn set_lazy(&mut self, lazy: bool) {
        debug_assert!(self.cells.is_empty(), "set before any cell is sent");
        self.lazy = lazy;
    }

    /// Puts `cell` on the link, to reach the far end at `at`. Returns whether
    /// its arrival is now the first event the link has pending (schedule it).
    #[inline]
    pub fn push_back(&mut self, at: SimTime, cell: &Cell) -> bool {
        let rm = keeps_rm(cell);
        if rm {
            self.rm.push_back(cell.rm);
        }
        let (due, first) = if !self.lazy {
            (true, self.cells.is_empty())
        } else if matches!(cell.kind, CellKind::Frm | CellKind::Brm) {
            self.due.push_back(at);
            (true, self.due.len() == 1)
        } else {
            (false, false)
        };
        self.cells.push_back(OnWire { at, vc: cell.vc, kind: cell.kind, efci: cell.efci, rm, due });
        first
    }

    /// When the next cell whose arrival is an event reaches the far end.
    #[inline]
    pub fn next_due(&self) -> Option<SimTime> {
        if self.lazy {
            self.due.front().copied()
        } else {
            self.cells.front().map(|c| c.at)
        }
    }

    /// When the first cell on the link reaches the far end, and whether
    /// that arrival is an event.
    #[inline]
    pub fn head(&self) -> Option<(SimTime, bool)> {
        self.cells.front().map(|c| (c.at, c.due))
    }

    /// When the last cell reaches the far end.
    #[inline]
    pub fn back_time(&self) -> Option<SimTime> {
        self.cells.back().map(|c| c.at)
    }

    /// Takes the first cell off the link, with its arrival time and whether
    /// that arrival is an event.
    #[inline]
    pub fn pop_front(&mut self) -> Option<(SimTime, Cell, bool)> {
        let c = self.cells.pop_front()?;
        if c.due && self.lazy {
            self.due.pop_front();
        }
        let mut cell = Cell { vc: c.vc, kind: c.kind, efci: c.efci, rm: RmFields::EMPTY };
        if c.rm {
            // Copied from the FIFO in place: an `Option<RmFields>` taken off
            // it was moved field by field through a stack slot.
            cell.rm = *self.rm.front().expect("an RM cell's fields are on the wire");
            self.rm.pop_front();
        }
        Some((c.at, cell, c.due))
    }

    /// Takes the first cell off the link, with its arrival time, if it lands
    /// without an event and has arrived by `now`.
    #[inline(always)]
    pub fn pop_landed(&mut self, now: SimTime) -> Option<(SimTime, Cell)> {
        match self.cells.front() {
            Some(c) if !c.due && c.at <= now => self.pop_front().map(|(at, cell, _)| (at, cell)),
            _ => None,
        }
    }

    /// When the first cell on the link arrives, if it lands without an
    /// event and has arrived by `now` (what [`Wire::pop_landed`] would take).
    #[inline]
    pub fn landed_head(&self, now: SimTime) -> Option<SimTime> {
        match self.cells.front() {
            Some(c) if !c.due && c.at <= now => Some(c.at),
            _ => None,
        }
    }

    /// Whether any cell on the link lands without an event.
    pub fn is_lazy(&self) -> bool {
        self.lazy
    }

    /// The cells on the link, first first, with their arrival times.
    pub fn iter(&self) -> impl Iterator<Item = (SimTime, Cell)> + '_ {
        let mut rm = self.rm.iter();
        self.cells.iter().map(move |c| {
            let fields = if c.rm { *rm.next().expect("fields") } else { RmFields::EMPTY };
            (c.at, Cell { vc: c.vc, kind: c.kind, efci: c.efci, rm: fields })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lazy_wire_makes_events_of_rm_cells_only_and_lands_the_rest() {
        let mut w = Wire::default();
        w.set_lazy(true);
        let frm = Cell {
            kind: CellKind::Frm,
            rm: RmFields { ccr: 1.0, ..RmFields::EMPTY },
            ..Cell::data(1)
        };
        // Data first: no event; the FRM behind it is the first due.
        assert!(!w.push_back(SimTime(10), &Cell::data(1)));
        assert!(w.push_back(SimTime(20), &frm));
        assert!(!w.push_back(SimTime(30), &Cell { efci: true, ..Cell::data(1) }));
        assert!(!w.push_back(SimTime(40), &Cell { kind: CellKind::Brm, ..frm }));
        assert_eq!(w.next_due(), Some(SimTime(20)));
        // Nothing lands before its time, and never past a cell that is due.
        assert_eq!(w.pop_landed(SimTime(9)), None);
        assert_eq!(w.pop_landed(SimTime(35)), Some((SimTime(10), Cell::data(1))));
        assert_eq!(w.pop_landed(SimTime(35)), None);
        assert_eq!(
            w.pop_front().map(|(at, c, due)| (at, c.kind, due)),
            Some((SimTime(20), CellKind::Frm, true))
        );
        assert_eq!(w.next_due(), Some(SimTime(40)));
        assert!(w.pop_landed(SimTime(35)).is_some_and(|(_, c)| c.efci));
        assert_eq!(w.pop_landed(SimTime(45)), None);
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn the_wire_gives_back_every_cell_whole_in_order() {
        let mut w = Wire::default();
        let rm = |x: f64| RmFields { ccr: x, er: 2.0 * x, mcr: -0.0, ci: x > 1.0, ni: true };
        let cells = [
            Cell::data(3),
            Cell { kind: CellKind::Frm, rm: rm(1.0), ..Cell::data(4) },
            Cell { efci: true, ..Cell::data(5) },
            Cell { kind: CellKind::Brm, rm: rm(2.0), ..Cell::data(6) },
            // An empty-looking RM field set whose −0 must survive bit for bit.
            Cell {
                kind: CellKind::Brm,
                rm: RmFields { mcr: -0.0, ..RmFields::EMPTY },
                ..Cell::data(7)
            },
        ];
        for (i, c) in cells.iter().enumerate() {
            w.push_back(SimTime(i as u64), c);
        }
        assert_eq!(w.iter().map(|(_, c)| c).collect::<Vec<_>>(), cells);
        assert_eq!((w.next_due(), w.back_time()), (Some(SimTime(0)), Some(SimTime(4))));
        for (i, c) in cells.iter().enumerate() {
            let (at, got, due) = w.pop_front().unwrap();
            assert!(due);
            assert_eq!(at, SimTime(i as u64));
            assert_eq!(got, *c);
            assert_eq!(got.rm.mcr.to_bits(), c.rm.mcr.to_bits());
        }
        assert!(w.is_empty() && w.pop_front().is_none());
    }
}
