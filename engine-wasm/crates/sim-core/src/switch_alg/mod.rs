//! Switch algorithms, one per output port, behind one trait with no-op default
//! hooks and dispatched through an enum (smoltcp `AnyController`). The port
//! owns queueing and statistics; an algorithm reads the cells passing through
//! and may write RM-cell fields (SPEC §5).

pub mod erica;

pub use erica::{Erica, EricaConfig};

use crate::net::Cell;
use crate::time::SimTime;

/// What an algorithm may know about its port when a hook runs.
#[derive(Clone, Copy, Debug)]
pub struct PortView {
    pub now: SimTime,
    /// The link's rate in cells per second.
    pub link_cps: f64,
    /// Cells waiting in the port's queue.
    pub queue_len: u32,
}

/// The hooks a switch algorithm may implement.
pub trait SwitchAlgorithm {
    /// A cell is about to enter this port's queue (any direction of VC).
    fn on_arrival(&mut self, _port: &PortView, _cell: &mut Cell) {}

    /// A backward RM cell of a VC whose forward cells leave through this port
    /// passes the switch on its way back to the source.
    fn on_backward_rm(&mut self, _port: &PortView, _cell: &mut Cell) {}

    /// The first periodic tick, if the algorithm wants any.
    fn first_tick(&self, _now: SimTime) -> Option<SimTime> {
        None
    }

    /// A periodic tick; returns when the next one is due.
    fn on_tick(&mut self, _port: &PortView) -> Option<SimTime> {
        None
    }

    /// The capacity, in cells per second, this algorithm aims to give ABR
    /// traffic on a link of `link_cps`: what the max-min oracle divides.
    fn abr_capacity_cps(&self, link_cps: f64) -> f64 {
        link_cps
    }
}

/// Every algorithm a port can run.
#[derive(Clone, Debug)]
pub enum AnyAlgorithm {
    /// No feedback: the port only queues and forwards (hosts, plain ports).
    None,
    Erica(Erica),
}

impl AnyAlgorithm {
    pub fn name(&self) -> &'static str {
        match self {
            AnyAlgorithm::None => "none",
            AnyAlgorithm::Erica(_) => "erica",
        }
    }

    fn inner(&mut self) -> Option<&mut dyn SwitchAlgorithm> {
        match self {
            AnyAlgorithm::None => None,
            AnyAlgorithm::Erica(a) => Some(a),
        }
    }

    fn inner_ref(&self) -> Option<&dyn SwitchAlgorithm> {
        match self {
            AnyAlgorithm::None => None,
            AnyAlgorithm::Erica(a) => Some(a),
        }
    }
}

impl SwitchAlgorithm for AnyAlgorithm {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) {
        if let Some(a) = self.inner() {
            a.on_arrival(port, cell)
        }
    }
    fn on_backward_rm(&mut self, port: &PortView, cell: &mut Cell) {
        if let Some(a) = self.inner() {
            a.on_backward_rm(port, cell)
        }
    }
    fn first_tick(&self, now: SimTime) -> Option<SimTime> {
        self.inner_ref().and_then(|a| a.first_tick(now))
    }
    fn on_tick(&mut self, port: &PortView) -> Option<SimTime> {
        self.inner().and_then(|a| a.on_tick(port))
    }
    fn abr_capacity_cps(&self, link_cps: f64) -> f64 {
        self.inner_ref().map_or(link_cps, |a| a.abr_capacity_cps(link_cps))
    }
}
