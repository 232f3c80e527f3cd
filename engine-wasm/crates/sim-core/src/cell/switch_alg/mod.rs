//! Switch algorithms, one per output port, behind one trait with no-op default
//! hooks and dispatched through an enum (smoltcp `AnyController`). The port
//! owns queueing and statistics; an algorithm reads the cells passing through
//! and may write RM-cell fields.

#[macro_use]
mod any;
pub mod efci;
pub mod erica;
pub mod explicit_maxmin;
#[cfg(test)]
pub mod half_rate;
pub mod maxmin_table;

pub use efci::{Efci, EfciConfig};
pub use erica::{Erica, EricaConfig};
pub use explicit_maxmin::{ExplicitMaxMin, ExplicitMaxMinConfig};

use crate::cell::atm::Cell;
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{self, ParamSpec, Registered, Registration};
use crate::time::SimTime;
use serde_json::Value;

// Every algorithm a port can run, one registration line each: its enum
// variant, the algorithm and its configuration. The `kind` names, parameters,
// reader, construction and hooks are in each algorithm's own file; the
// enums, the registry list and the dispatch follow from this list.
algorithms! {
    /// ERICA; also `kind: "erica_plus"`, ERICA with extension 12 on.
    Erica(Erica, EricaConfig),
    Efci(Efci, EfciConfig),
    ExplicitMaxMin(ExplicitMaxMin, ExplicitMaxMinConfig),
    /// The worked example of docs/architecture.md's recipe, for the unit tests only.
    #[cfg(test)]
    HalfRate(half_rate::HalfRate, half_rate::HalfRateConfig),
}

/// The names a scenario may give in `algorithm.kind`.
pub fn algorithm_kinds() -> Vec<&'static str> {
    registry::kinds(ALGORITHMS)
}

/// What an algorithm's own file supplies besides its hooks, for
/// `algorithms!` to build and dispatch it.
pub trait Algorithm: SwitchAlgorithm + Sized {
    /// Its configuration as a scenario gives it.
    type Config;
    /// The instance for a port, before its members are known.
    fn build(config: &Self::Config) -> Self;
    /// The `kind` it runs as.
    fn name(&self) -> &'static str;
    /// Takes the knobs of `other` (built from an edited scenario) while
    /// keeping its measurements.
    fn reconfigure(&mut self, other: &Self);
    /// Told before the run which loops' forward cells can pass its port
    /// (ascending), so that per-VC state and work are sized by them.
    fn set_members(&mut self, _members: Vec<u32>) {}
}

/// No feedback, as a registration: the port only queues and forwards.
pub struct NoAlgorithm;

impl Registration for NoAlgorithm {
    type Config = AlgorithmConfig;
    const KINDS: &'static [&'static str] = &["none"];
    const PARAMS: &'static [ParamSpec] = &[];
    fn read(_kind: &str, _obj: &mut Obj<'_>, _errors: &mut Errors) -> AlgorithmConfig {
        AlgorithmConfig::None
    }
}

impl AlgorithmConfig {
    /// Reads an `algorithm` object (`{"kind": "erica", …}`).
    pub(crate) fn read(value: &Value, path: &str, errors: &mut Errors) -> Option<AlgorithmConfig> {
        registry::read_kind(value, path, "algorithm", ALGORITHMS, errors)
    }
}

/// What an algorithm may know about its port when a hook runs.
#[derive(Clone, Copy, Debug)]
pub struct PortView {
    pub now: SimTime,
    /// The link's rate in cells per second.
    pub link_cps: f64,
    /// Cells waiting in the port's queue (ABR and background).
    pub queue_len: u32,
    /// The port's buffer limit in cells.
    pub buffer_cells: u32,
}

/// A connection set-up message crossing a port (Ma & Ramakrishnan §3, the
/// RATE and RM start-up options). The simulation carries it hop by hop —
/// each switch's processing time, then the link's propagation — and calls
/// [`SwitchAlgorithm::on_setup`] as it leaves each switch by the VC's port;
/// the VC's data waits for the connect to come back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The rate offered so far; each switch may only lower it. Starts at PCR.
    pub er: f64,
    /// The rate the source will start at, as far as it knows (its PCR).
    pub ccr: f64,
    pub pcr: f64,
    pub mcr: f64,
    /// RM option: treat the set-up as an RM cell and allocate now ("early
    /// warning"); RATE option: only compute the share, allocate on the first RM cell.
    pub allocate: bool,
}

/// The hooks a switch algorithm may implement.
pub trait SwitchAlgorithm {
    /// A cell is about to enter this port's queue (any direction of VC).
    fn on_arrival(&mut self, _port: &PortView, _cell: &mut Cell) {}

    /// A backward RM cell of a VC whose forward cells leave through this port
    /// passes the switch on its way back to the source.
    fn on_backward_rm(&mut self, _port: &PortView, _cell: &mut Cell) {}

    /// A cell leaves the queue and starts transmission on the link. Called
    /// only when [`SwitchAlgorithm::sees_departures`] says so.
    fn on_departure(&mut self, _port: &PortView, _cell: &mut Cell) {}

    /// Whether [`SwitchAlgorithm::on_departure`] does anything: a port skips
    /// building its view for each cell it sends when not.
    fn sees_departures(&self) -> bool {
        false
    }

    /// A connection set-up for VC `vc` crosses this port (RATE / RM start-up).
    fn on_setup(&mut self, _port: &PortView, _vc: u32, _setup: &mut Setup) {}

    /// Whether [`SwitchAlgorithm::on_setup`] computes anything.
    fn supports_setup(&self) -> bool {
        false
    }

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
