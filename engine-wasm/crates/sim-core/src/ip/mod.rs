//! The packet-level model of Pletka et al. (Pletka, Kind, Waldvogel & Mannel, "AQM
//! for Fair Bandwidth Allocation of Mixed Responsive and Non-Responsive
//! Traffic Using a Closed-Loop Congestion Control Scheme"): IP
//! packets through router output ports running the BAT rate-based AQM, with
//! the CLCC controller on top; greedy TCP NewReno connections and UDP CBR
//! sources at the hosts; the weighted fairness index of equation 2.
//!
//! It runs on the same event kernel as the cell model (`EventQueue<IpEvent>`)
//! with its own node types, and reads the same scenario file family
//! (`"model": "ip"`). [`crate::model::Model`] puts the two behind one face.

pub mod aqm;
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

pub use scenario::params::registry_json;
pub use scenario::IpScenario;
pub use sim::{IpEvent, IpSimulation};
