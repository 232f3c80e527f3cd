//! Queue disciplines of an output port. The port keeps the books (buffer limit,
//! loss, statistics); a discipline only orders the cells (ns-3 `QueueDisc`).

use super::cell::Cell;
use std::collections::VecDeque;

/// How a port orders its ABR cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discipline {
    /// One first-in first-out queue.
    Fifo,
}

impl Discipline {
    pub fn as_str(self) -> &'static str {
        match self {
            Discipline::Fifo => "fifo",
        }
    }
}

/// The cells waiting at a port, ordered by the port's discipline.
#[derive(Clone, Debug)]
pub enum PortQueue {
    Fifo(VecDeque<Cell>),
}

impl PortQueue {
    pub fn new(discipline: Discipline) -> PortQueue {
        match discipline {
            Discipline::Fifo => PortQueue::Fifo(VecDeque::new()),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            PortQueue::Fifo(q) => q.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn push(&mut self, cell: Cell) {
        match self {
            PortQueue::Fifo(q) => q.push_back(cell),
        }
    }

    pub fn pop(&mut self) -> Option<Cell> {
        match self {
            PortQueue::Fifo(q) => q.pop_front(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_keeps_arrival_order() {
        let mut q = PortQueue::new(Discipline::Fifo);
        for vc in [3, 1, 2] {
            q.push(Cell::data(vc));
        }
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|c| c.vc).collect();
        assert_eq!(order, vec![3, 1, 2]);
        assert!(q.is_empty());
    }
}
