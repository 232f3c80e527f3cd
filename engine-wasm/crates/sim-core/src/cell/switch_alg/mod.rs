//! Switch algorithms, one per output port, behind one trait with no-op default
//! hooks and dispatched through an enum (smoltcp `AnyController`). The port
//! owns queueing and statistics; an algorithm reads the cells passing through
//! and may write RM-cell fields (SPEC §5).

pub mod efci;
pub mod erica;
pub mod explicit_maxmin;

pub use efci::{Efci, EfciConfig};
pub use erica::{Erica, EricaConfig};
pub use explicit_maxmin::{ExplicitMaxMin, ExplicitMaxMinConfig};

use crate::cell::net::Cell;
use crate::scenario::reader::{describe, Errors, Obj};
use crate::scenario::registry::ParamSpec;
use crate::scenario::ScenarioError;
use crate::time::SimTime;
use serde_json::Value;

/// Every algorithm's registry entries, each list kept beside its algorithm.
pub static ALGORITHM_PARAMS: &[&[ParamSpec]] =
    &[erica::PARAMS, efci::PARAMS, explicit_maxmin::PARAMS];

/// The names a scenario may give in `algorithm.kind`.
pub const ALGORITHM_KINDS: &[&str] = &["none", "erica", "erica_plus", "efci", "explicit_maxmin"];

/// A port's algorithm as a scenario configures it.
#[derive(Clone, Debug, PartialEq)]
pub enum AlgorithmConfig {
    None,
    /// ERICA; also `kind: "erica_plus"`, ERICA with extension 12 on.
    Erica(EricaConfig),
    Efci(EfciConfig),
    ExplicitMaxMin(ExplicitMaxMinConfig),
}

impl AlgorithmConfig {
    /// Reads an `algorithm` object (`{"kind": "erica", …}`).
    pub(crate) fn read(value: &Value, path: &str, errors: &mut Errors) -> Option<AlgorithmConfig> {
        let mut obj = Obj::new(value, path, errors)?;
        let config = match obj.get("kind").map(|v| v.as_str()) {
            Some(Some("none")) => Some(AlgorithmConfig::None),
            Some(Some("erica")) => {
                Some(AlgorithmConfig::Erica(EricaConfig::read(&mut obj, errors, false)))
            }
            Some(Some("erica_plus")) => {
                Some(AlgorithmConfig::Erica(EricaConfig::read(&mut obj, errors, true)))
            }
            Some(Some("efci")) => Some(AlgorithmConfig::Efci(EfciConfig::read(&mut obj, errors))),
            Some(Some("explicit_maxmin")) => {
                Some(AlgorithmConfig::ExplicitMaxMin(ExplicitMaxMinConfig::read(&mut obj, errors)))
            }
            Some(other) => {
                let given = other.map_or_else(
                    || describe(obj.map.get("kind").unwrap_or(&Value::Null)),
                    |s| format!("\"{s}\""),
                );
                let expected: Vec<String> =
                    ALGORITHM_KINDS.iter().map(|k| format!("\"{k}\"")).collect();
                errors.push(ScenarioError::new(
                    obj.at("kind"),
                    format!("unknown algorithm {given} (expected one of: {})", expected.join(", ")),
                ));
                None
            }
            None => {
                errors.push(ScenarioError::new(
                    obj.at("kind"),
                    format!("is required (one of: {})", ALGORITHM_KINDS.join(", ")),
                ));
                None
            }
        };
        obj.finish(errors);
        config
    }

    /// The algorithm instance for a port that up to `vc_count` VCs may cross.
    pub fn build(&self, vc_count: usize) -> AnyAlgorithm {
        match self {
            AlgorithmConfig::None => AnyAlgorithm::None,
            AlgorithmConfig::Erica(c) => AnyAlgorithm::Erica(Erica::new(*c, vc_count)),
            AlgorithmConfig::Efci(c) => AnyAlgorithm::Efci(Efci::new(*c)),
            AlgorithmConfig::ExplicitMaxMin(c) => {
                AnyAlgorithm::ExplicitMaxMin(ExplicitMaxMin::new(*c))
            }
        }
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

/// A connection set-up message crossing a port (seed 000 §3, the RATE and RM
/// start-up options). Set-up takes no simulated time: it happens at the VC's
/// start, before its first cell.
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

    /// A cell leaves the queue and starts transmission on the link.
    fn on_departure(&mut self, _port: &PortView, _cell: &mut Cell) {}

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

/// Every algorithm a port can run.
#[allow(
    clippy::large_enum_variant,
    reason = "one per port, a few hundred bytes: boxing the large variants buys nothing"
)]
#[derive(Clone, Debug)]
pub enum AnyAlgorithm {
    /// No feedback: the port only queues and forwards (hosts, plain ports).
    None,
    Erica(Erica),
    Efci(Efci),
    ExplicitMaxMin(ExplicitMaxMin),
}

impl AnyAlgorithm {
    pub fn name(&self) -> &'static str {
        match self {
            AnyAlgorithm::None => "none",
            AnyAlgorithm::Erica(a) if a.config.erica_plus => "erica_plus",
            AnyAlgorithm::Erica(_) => "erica",
            AnyAlgorithm::Efci(_) => "efci",
            AnyAlgorithm::ExplicitMaxMin(_) => "explicit_maxmin",
        }
    }

    /// Takes the knobs of `other` (built from an edited scenario) while
    /// keeping this algorithm's measurements; false when the kind changed and
    /// the port must be rebuilt.
    pub fn reconfigure_from(&mut self, other: &AnyAlgorithm) -> bool {
        match (self, other) {
            (AnyAlgorithm::None, AnyAlgorithm::None) => true,
            (AnyAlgorithm::Erica(a), AnyAlgorithm::Erica(b)) => {
                a.config = b.config;
                true
            }
            (AnyAlgorithm::Efci(a), AnyAlgorithm::Efci(b)) => {
                a.config = b.config;
                true
            }
            (AnyAlgorithm::ExplicitMaxMin(a), AnyAlgorithm::ExplicitMaxMin(b)) => {
                a.config = b.config;
                true
            }
            _ => false,
        }
    }

    fn inner(&mut self) -> Option<&mut dyn SwitchAlgorithm> {
        match self {
            AnyAlgorithm::None => None,
            AnyAlgorithm::Erica(a) => Some(a),
            AnyAlgorithm::Efci(a) => Some(a),
            AnyAlgorithm::ExplicitMaxMin(a) => Some(a),
        }
    }

    fn inner_ref(&self) -> Option<&dyn SwitchAlgorithm> {
        match self {
            AnyAlgorithm::None => None,
            AnyAlgorithm::Erica(a) => Some(a),
            AnyAlgorithm::Efci(a) => Some(a),
            AnyAlgorithm::ExplicitMaxMin(a) => Some(a),
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
    fn on_departure(&mut self, port: &PortView, cell: &mut Cell) {
        if let Some(a) = self.inner() {
            a.on_departure(port, cell)
        }
    }
    fn on_setup(&mut self, port: &PortView, vc: u32, setup: &mut Setup) {
        if let Some(a) = self.inner() {
            a.on_setup(port, vc, setup)
        }
    }
    fn supports_setup(&self) -> bool {
        self.inner_ref().is_some_and(|a| a.supports_setup())
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
