//! The cell-level network: switch and host output ports (each owning its
//! queue, its link's in-flight FIFO and its statistics), and the topology.

pub mod port;
pub mod queue;

pub use crate::cell::atm::{Cell, CellKind, RmFields};
pub use port::{NextHop, Offer, Port, PortStats, Starts, Wire};
pub use queue::{Discipline, PortQueue};

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An end system: ABR sources and destinations live here.
    Host,
    /// An ATM switch: output ports with queues and a switch algorithm each.
    Switch,
}

impl NodeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Host => "host",
            NodeKind::Switch => "switch",
        }
    }
}

/// A node of the topology.
#[derive(Clone, Debug)]
pub struct Node {
    pub id: String,
    pub kind: NodeKind,
    pub x: f64,
    pub y: f64,
}

/// A full-duplex link; each direction is served by its own [`Port`].
pub use crate::scenario::topology::Link;
