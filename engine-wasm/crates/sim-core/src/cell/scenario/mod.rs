//! The cell model's scenarios (`"model": "cell"`, the default): the typed
//! values a file validates into, and the walk that reads them — nodes, links
//! and their ports (read.rs, port.rs), VCs and their traffic (vcs.rs),
//! background sources (background.rs), the cell model's parameters
//! (params.rs) and its cost estimate (cost.rs). The envelope every model
//! shares (format, version, meta, run, variants, things to try) is read by
//! `crate::scenario`.

mod background;
pub mod cost;
pub mod params;
mod port;
mod read;
#[cfg(test)]
mod tests;
mod vcs;

pub use read::{
    choices_json, parse_scenario, scenario_from_value, variants_checked_with, BACKGROUND_KINDS,
    QUEUE_DISCIPLINES, STARTUP_OPTIONS, TRAFFIC_MODELS,
};
pub use vcs::{vc_keys_checked_with, vc_params_after_edit};

use crate::cell::net::{Discipline, NodeKind};
use crate::cell::switch_alg::AlgorithmConfig;
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::{Meta, RunSpec, ScenarioError};
use serde_json::Value;

/// A node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeSpec {
    pub id: String,
    pub kind: NodeKind,
    pub x: f64,
    pub y: f64,
}

/// One output port's configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct PortSpec {
    pub buffer_cells: u32,
    /// Set-up / connect processing before a message leaves by this port, ms.
    pub setup_ms: f64,
    /// Whether set-up / connect messages wait behind the cells queued here.
    pub setup_in_band: bool,
    pub discipline: Discipline,
    pub algorithm: AlgorithmConfig,
}

/// A full-duplex link.
pub type LinkSpec = crate::scenario::topology::LinkSpec<PortSpec>;

/// A VC's traffic.
#[derive(Clone, Debug, PartialEq)]
pub enum TrafficSpec {
    Persistent { start_ms: f64, stop_ms: Option<f64> },
    Bottlenecked { start_ms: f64, stop_ms: Option<f64>, rate_mbps: f64, for_ms: f64 },
    OnOff { start_ms: f64, stop_ms: Option<f64>, on_ms: f64, off_ms: f64 },
    RequestResponse { start_ms: f64, stop_ms: Option<f64>, request_cells: u64, response_cells: u64 },
}

impl TrafficSpec {
    /// When the traffic starts.
    pub fn start_ms(&self) -> f64 {
        match *self {
            TrafficSpec::Persistent { start_ms, .. }
            | TrafficSpec::Bottlenecked { start_ms, .. }
            | TrafficSpec::OnOff { start_ms, .. }
            | TrafficSpec::RequestResponse { start_ms, .. } => start_ms,
        }
    }
}

/// How a source picks its initial rate (Ma & Ramakrishnan §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Startup {
    /// A statically chosen ICR.
    AtmForum,
    /// ICR = the max-min share computed as set-up crosses the switches; the
    /// switches allocate on the first RM cell.
    Rate,
    /// As RATE, and the set-up is treated as an RM cell: switches allocate at
    /// set-up ("early warning").
    Rm,
}

impl Startup {
    pub fn as_str(self) -> &'static str {
        match self {
            Startup::AtmForum => "atm_forum",
            Startup::Rate => "rate",
            Startup::Rm => "rm",
        }
    }
}

/// A CBR or VBR source: constant, or a square wave; strict priority, no feedback.
#[derive(Clone, Debug, PartialEq)]
pub struct BackgroundSpec {
    pub id: String,
    /// "cbr" or "vbr": a label; both are square waves (constant without on/off).
    pub kind: String,
    pub path: Vec<usize>,
    pub rate_mbps: f64,
    pub on_ms: Option<f64>,
    pub off_ms: f64,
    pub phase_ms: f64,
    pub start_ms: f64,
    pub stop_ms: Option<f64>,
}

/// A VC's ABR parameters in scenario units (see the registry).
#[derive(Clone, Debug, PartialEq)]
pub struct VcParams {
    pub pcr_mbps: f64,
    pub mcr_mbps: f64,
    pub icr_mbps: f64,
    pub tcr_cps: f64,
    pub nrm: u32,
    pub mrm: u32,
    pub trm_ms: f64,
    pub rif: f64,
    pub rdf: f64,
    pub adtf_s: f64,
    pub tbe_cells: f64,
    pub cdf: f64,
    /// Rule 6's count when set directly; None means ⌈TBE/Nrm⌉.
    pub crm: Option<f64>,
    /// Rule 6 cuts once per CRM FRMs (pre-TM 4.0) instead of at every FRM.
    pub cdf_every_crm: bool,
    /// Set up by signalling when its traffic starts (else a permanent VC).
    pub switched: bool,
}

/// A virtual circuit from the first node of its path to the last.
#[derive(Clone, Debug, PartialEq)]
pub struct VcSpec {
    pub id: String,
    pub path: Vec<usize>,
    pub params: VcParams,
    pub traffic: TrafficSpec,
    pub startup: Startup,
    /// The destination also sends, with its own RM loop, `reverse_traffic`.
    pub bidirectional: bool,
    pub reverse_traffic: Option<TrafficSpec>,
}

/// A validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub meta: Meta,
    pub run: RunSpec,
    pub nodes: Vec<NodeSpec>,
    pub links: Vec<LinkSpec>,
    pub vcs: Vec<VcSpec>,
    pub background: Vec<BackgroundSpec>,
    /// Legal but suspicious settings, each with a suggested fix.
    pub warnings: Vec<ScenarioError>,
}

/// Defaults that VCs and ports inherit, already validated.
pub(crate) struct Defaults<'a> {
    pub vc: Option<&'a Value>,
    pub switch_port: Option<&'a Value>,
    pub host_port: Option<&'a Value>,
}

pub(crate) fn read_defaults<'a>(value: Option<&'a Value>, errors: &mut Errors) -> Defaults<'a> {
    let mut d = Defaults { vc: None, switch_port: None, host_port: None };
    if let Some(v) = value {
        if let Some(mut obj) = Obj::new(v, "defaults", errors) {
            d.vc = obj.get("vc");
            d.switch_port = obj.get("switch_port");
            d.host_port = obj.get("host_port");
            obj.finish(errors);
        }
    }
    d
}
