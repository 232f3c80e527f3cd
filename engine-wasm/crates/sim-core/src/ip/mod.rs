//! The packet-level model of Pletka et al. (Pletka, Kind, Waldvogel & Mannel, "AQM
//! for Fair Bandwidth Allocation of Mixed Responsive and Non-Responsive
//! Traffic Using a Closed-Loop Congestion Control Scheme"; SPEC §6): IP
//! packets through router output ports running the BAT rate-based AQM, with
//! the CLCC controller on top; greedy TCP NewReno connections and UDP CBR
//! sources at the hosts; the weighted fairness index of equation 2.
//!
//! It runs on the same event kernel as the cell model (`EventQueue<IpEvent>`)
//! with its own node types, and reads the same scenario file family
//! (`"model": "ip"`). [`crate::model::Model`] puts the two behind one face.

pub mod bat;
pub mod clcc;
pub mod fairness;
pub mod packet;
pub mod port;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod tcp;
pub mod timer;
pub mod udp;

pub use scenario::{parse_ip_scenario, IpScenario};
pub use sim::{IpEvent, IpSimulation};

use crate::scenario::registry::ParamSpec;

/// Every registry entry of the packet model, each list kept beside its code.
pub static PARAMS: &[&[ParamSpec]] = &[
    scenario::FLOW_PARAMS,
    scenario::TCP_PARAMS,
    scenario::PORT_PARAMS,
    bat::PARAMS,
    clcc::PARAMS,
];

/// The packet model's registry entries as JSON (scopes `ip_flow`, `tcp`,
/// `ip_port`, `bat`, `clcc`; links and the run share the cell model's).
pub fn registry_json() -> serde_json::Value {
    serde_json::Value::Array(PARAMS.iter().flat_map(|p| p.iter()).map(ParamSpec::to_json).collect())
}
