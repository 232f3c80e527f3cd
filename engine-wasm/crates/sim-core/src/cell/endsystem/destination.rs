//! The ABR destination end system: counts data cells and turns each forward RM
//! cell around as a backward RM cell, setting CI when the last data cell seen
//! carried EFCI (Fahmy et al. §1).

use crate::cell::net::{Cell, CellKind};

/// A VC's destination.
#[derive(Clone, Debug, Default)]
pub struct Destination {
    /// EFCI of the last data cell received.
    pub efci_state: bool,
    pub data_received: u64,
    pub rm_received: u64,
}

impl Destination {
    /// Takes a forward cell. Returns the backward RM cell to send, for an FRM.
    pub fn receive(&mut self, cell: &Cell) -> Option<Cell> {
        match cell.kind {
            CellKind::Data => {
                self.data_received += 1;
                self.efci_state = cell.efci;
                None
            }
            CellKind::Frm => {
                self.rm_received += 1;
                let mut brm = *cell;
                brm.kind = CellKind::Brm;
                brm.efci = false;
                brm.rm.ci |= self.efci_state;
                Some(brm)
            }
            CellKind::Brm | CellKind::Background => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::net::RmFields;

    #[test]
    fn frm_is_turned_around_with_ci_from_the_last_efci() {
        let mut d = Destination::default();
        let frm = Cell {
            kind: CellKind::Frm,
            rm: RmFields { er: 9.0, ..RmFields::EMPTY },
            ..Cell::data(1)
        };
        let brm = d.receive(&frm).unwrap();
        assert_eq!((brm.kind, brm.rm.ci, brm.rm.er), (CellKind::Brm, false, 9.0));

        d.receive(&Cell { efci: true, ..Cell::data(1) });
        assert!(d.receive(&frm).unwrap().rm.ci);
        d.receive(&Cell::data(1));
        assert!(!d.receive(&frm).unwrap().rm.ci);
        assert_eq!(d.data_received, 2);
    }
}
