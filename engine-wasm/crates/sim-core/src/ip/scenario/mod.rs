//! Packet-level scenarios: the same file family as the cell model's
//! (`"format": "abr-lab/scenario"`, `"version": 1`) with `"model": "ip"`,
//! routers instead of switches and `flows` instead of `vcs`. Validation
//! collects every error with its path and rejects unknown keys, like the cell
//! model's (`cell/scenario/read.rs`), through the same reader and registry.
//!
//! ```json
//! { "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": "…",
//!   "run": { "until_ms": 20000, "seed": 1, "sample_interval_ms": 100 },
//!   "defaults": { "tcp": { "packet_bytes": 1500, "rwnd_pkts": 64 }, "udp": { … },
//!                 "router_port": { "buffer_pkts": 300, "aqm": { "kind": "bat", … } },
//!                 "host_port": { "buffer_pkts": 10000 } },
//!   "nodes": [ { "id": "R1", "kind": "router", "x": 300, "y": 200 }, … ],
//!   "links": [ { "id": "bottleneck", "a": "R1", "b": "R2", "rate_mbps": 100, "delay_ms": 0.1,
//!                "a_to_b": { "aqm": { "kind": "bat", "clcc": { "r_ref": 0.4286 } } } }, … ],
//!   "flows": [ { "id": "udp", "kind": "udp", "path": ["U", "R1", "R2", "D"], "rate_mbps": 90 },
//!              { "id": "tcp", "kind": "tcp", "count": 100, "path": ["T", "R1", "R2", "D"],
//!                "rtt_min_ms": 2, "rtt_max_ms": 200 } ] }
//! ```
//!
//! A flow entry with `count` N stands for N flows `<id>-1` … `<id>-N`, their
//! round-trip times spread over [rtt_min_ms, rtt_max_ms] (evenly, or drawn
//! from the run's random stream) and their starts spread over
//! [start_ms, start_ms + start_spread_ms]. A flow's round-trip time is made up
//! of the links' propagation both ways plus a fixed delay in front of its
//! receiver — the DummyNet emulator of Pletka et al.'s testbed (§III-C).

mod cost;
mod flows;
pub mod params;
mod read;
#[cfg(test)]
mod tests;

pub use cost::ip_cost;
pub use read::{choices_json, ip_scenario_from_value, path_round_trip_ms};

use super::aqm::AqmConfig;
use super::tcp::TcpParams;
use crate::scenario::{Meta, RunSpec, ScenarioError};
use serde_json::Value;

/// The model tag of packet-level scenarios.
pub const MODEL: &str = "ip";

/// What a node is in the packet model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpNodeKind {
    /// An end system: TCP/UDP senders and receivers.
    Host,
    /// An IP router: output ports with an AQM each.
    Router,
}

impl IpNodeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            IpNodeKind::Host => "host",
            IpNodeKind::Router => "router",
        }
    }
}

/// A node.
#[derive(Clone, Debug, PartialEq)]
pub struct IpNodeSpec {
    pub id: String,
    pub kind: IpNodeKind,
    pub x: f64,
    pub y: f64,
}

/// One output port's configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct IpPortSpec {
    pub buffer_pkts: u32,
    pub aqm: AqmConfig,
}

/// A full-duplex link.
pub type IpLinkSpec = crate::scenario::topology::LinkSpec<IpPortSpec>;

/// What a flow sends.
#[derive(Clone, Debug, PartialEq)]
pub enum FlowKindSpec {
    /// A greedy (FTP-like) TCP NewReno connection.
    Tcp(TcpParams),
    /// A UDP CBR source, optionally alternating between two rates.
    Udp { rate_mbps: f64, alt_rate_mbps: Option<f64>, alt_period_ms: f64 },
}

impl FlowKindSpec {
    pub fn class(&self) -> &'static str {
        match self {
            FlowKindSpec::Tcp(_) => "tcp",
            FlowKindSpec::Udp { .. } => "udp",
        }
    }
}

/// One flow (after `count` expansion).
#[derive(Clone, Debug, PartialEq)]
pub struct IpFlowSpec {
    pub id: String,
    /// The entry it came from.
    pub group: String,
    pub path: Vec<usize>,
    pub kind: FlowKindSpec,
    pub packet_bytes: u32,
    pub start_ms: f64,
    pub stop_ms: Option<f64>,
    /// The round trip wanted; `None` keeps the links' own.
    pub rtt_ms: Option<f64>,
}

/// A validated packet-level scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct IpScenario {
    pub meta: Meta,
    pub run: RunSpec,
    pub nodes: Vec<IpNodeSpec>,
    pub links: Vec<IpLinkSpec>,
    pub flows: Vec<IpFlowSpec>,
    pub warnings: Vec<ScenarioError>,
}

/// The `defaults` entries that flows and ports inherit, as given.
pub(crate) struct Defaults<'a> {
    pub tcp: Option<&'a Value>,
    pub udp: Option<&'a Value>,
    pub router_port: Option<&'a Value>,
    pub host_port: Option<&'a Value>,
}

/// The link joining `from` and `to` and the direction (0: a→b, 1: b→a).
pub fn link_between(links: &[IpLinkSpec], from: usize, to: usize) -> Option<(usize, usize)> {
    links.iter().enumerate().find_map(|(i, l)| {
        if l.a == from && l.b == to {
            Some((i, 0))
        } else if l.b == from && l.a == to {
            Some((i, 1))
        } else {
            None
        }
    })
}
