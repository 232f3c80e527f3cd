//! An ATM cell as the simulation sees it: which VC, what kind, and the RM-cell
//! fields that sources, switches and destinations read and write (Fahmy et al. §1).

/// The kind of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// An ABR data cell (forward).
    Data,
    /// A forward RM cell, source → destination.
    Frm,
    /// A backward RM cell, destination → source (DIR = 1).
    Brm,
    /// A CBR or VBR cell: higher priority than ABR, no feedback. `Cell::vc`
    /// then indexes the background sources, not the VCs.
    Background,
}

/// The fields of an RM cell. Rates are in cells per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RmFields {
    /// Current cell rate: the source's ACR when it sent the FRM.
    pub ccr: f64,
    /// Explicit rate: set to PCR by the source, only ever lowered by switches.
    pub er: f64,
    /// Minimum cell rate of the connection.
    pub mcr: f64,
    /// Congestion indication.
    pub ci: bool,
    /// No increase.
    pub ni: bool,
}

impl RmFields {
    pub const EMPTY: RmFields = RmFields { ccr: 0.0, er: 0.0, mcr: 0.0, ci: false, ni: false };
}

/// One cell in a queue or on a wire.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// Index of the VC the cell belongs to.
    pub vc: u32,
    pub kind: CellKind,
    /// Explicit forward congestion indication, in the header of data cells.
    pub efci: bool,
    /// RM fields; meaningful for FRM and BRM cells only.
    pub rm: RmFields,
}

impl Cell {
    pub fn data(vc: u32) -> Cell {
        Cell { vc, kind: CellKind::Data, efci: false, rm: RmFields::EMPTY }
    }

    pub fn is_rm(&self) -> bool {
        matches!(self.kind, CellKind::Frm | CellKind::Brm)
    }

    /// Whether the cell belongs to an ABR VC (data or RM).
    pub fn is_abr(&self) -> bool {
        !matches!(self.kind, CellKind::Background)
    }
}
