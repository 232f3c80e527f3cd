//! Scenarios: the JSON format (documented in `scenarios/README.md`), its
//! validation into typed values with every error reported at once by path,
//! `--set` overrides by dotted path, and the build into a [`Simulation`].
//!
//! [`Simulation`]: crate::cell::sim::Simulation

pub mod cost;
pub mod parse;
pub mod reader;
pub mod registry;
pub mod set;
pub mod strict_json;

pub use parse::{parse_scenario, parse_scenario_with};
pub use set::{apply_set, apply_variant};

use std::fmt;

/// The format tag every scenario file carries.
pub const FORMAT: &str = "abr-lab/scenario";
/// The format version this engine writes and reads.
pub const VERSION: u64 = 1;

/// Ceilings that keep a run within what a browser tab (or a CI machine) can
/// do. A scenario over any of them is refused with a message naming the
/// limit; the embedding program may raise them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// VC loops (a bidirectional VC counts twice).
    pub max_vcs: usize,
    pub max_nodes: usize,
    pub max_links: usize,
    pub max_background: usize,
    /// Longest simulated run.
    pub max_until_ms: f64,
    /// Σ over ports of link rate × run length, in cells: an upper bound on the
    /// transmissions a run can make.
    pub max_cell_slots: f64,
    /// Estimated events of a run (SPEC §12): every source's offered cells or
    /// packets per second, capped by its links, × its time on × the events
    /// each costs along its path, plus the sampling. The estimate bounds what
    /// a run handles, and the engine handles 8–13 million events a second
    /// natively on a two-core machine, so a legal run ends within about 10 s.
    pub max_events: f64,
    /// Estimated memory of a run in MB: the sample rows a viewer keeps
    /// (ports × columns × samples) and the cells the queues can hold.
    pub max_memory_mb: f64,
    /// Variants a file may offer.
    pub max_variants: usize,
    /// Σ over VCs, background sources and flows of their path's nodes.
    pub max_path_nodes: usize,
    /// Grid points of one sweep.
    pub max_sweep_points: usize,
    /// Size of a scenario's text (a file, a share link, a paste).
    pub max_input_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_vcs: 2000,
            max_nodes: 5000,
            max_links: 10_000,
            max_background: 1000,
            max_until_ms: 600_000.0,
            max_cell_slots: 2e10,
            max_events: 8e7,
            max_memory_mb: 800.0,
            max_variants: 64,
            max_path_nodes: 50_000,
            max_sweep_points: 10_000,
            max_input_bytes: 4_000_000,
        }
    }
}

impl Limits {
    /// The names `set` knows, in the order the README lists them.
    pub const NAMES: &'static [&'static str] = &[
        "max_vcs",
        "max_nodes",
        "max_links",
        "max_background",
        "max_until_ms",
        "max_cell_slots",
        "max_events",
        "max_memory_mb",
        "max_variants",
        "max_path_nodes",
        "max_sweep_points",
        "max_input_bytes",
    ];

    /// Every limit by name, as JSON (the page reads the same figures).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "max_vcs": self.max_vcs,
            "max_nodes": self.max_nodes,
            "max_links": self.max_links,
            "max_background": self.max_background,
            "max_until_ms": self.max_until_ms,
            "max_cell_slots": self.max_cell_slots,
            "max_events": self.max_events,
            "max_memory_mb": self.max_memory_mb,
            "max_variants": self.max_variants,
            "max_path_nodes": self.max_path_nodes,
            "max_sweep_points": self.max_sweep_points,
            "max_input_bytes": self.max_input_bytes,
        })
    }

    /// Refuses text longer than `max_input_bytes` before anything parses it.
    pub fn check_input(&self, bytes: usize) -> Result<(), ScenarioError> {
        if bytes > self.max_input_bytes {
            return Err(ScenarioError::new(
                "",
                format!(
                    "the scenario text is {bytes} bytes, more than the limit of {} (limits.max_input_bytes)",
                    self.max_input_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Sets one limit by name (`max_vcs=5000`); for the runner's `--limit`.
    pub fn set(&mut self, key: &str, value: f64) -> Result<(), String> {
        if !(value.is_finite() && value > 0.0) {
            return Err(format!("limit {key}: {value} must be a positive number"));
        }
        match key {
            "max_vcs" => self.max_vcs = value as usize,
            "max_nodes" => self.max_nodes = value as usize,
            "max_links" => self.max_links = value as usize,
            "max_background" => self.max_background = value as usize,
            "max_until_ms" => self.max_until_ms = value,
            "max_cell_slots" => self.max_cell_slots = value,
            "max_events" => self.max_events = value,
            "max_memory_mb" => self.max_memory_mb = value,
            "max_variants" => self.max_variants = value as usize,
            "max_path_nodes" => self.max_path_nodes = value as usize,
            "max_sweep_points" => self.max_sweep_points = value.min(usize::MAX as f64) as usize,
            "max_input_bytes" => self.max_input_bytes = value.min(usize::MAX as f64) as usize,
            _ => {
                return Err(format!(
                    "unknown limit '{key}' (expected one of: {})",
                    Limits::NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }
}

/// A problem with a scenario, located by a dotted path such as `vcs.vc2.rif`.
#[cfg_attr(test, derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Every error, formatted one per line.
pub fn format_errors(errors: &[ScenarioError]) -> String {
    errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
}

/// A named set of overrides a scenario offers (e.g. "Nrm = 8").
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variant {
    pub id: String,
    pub label: String,
}

/// Text shown beside a scenario.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta {
    pub id: String,
    pub title: String,
    pub paper: String,
    pub explanation: String,
    pub things_to_try: Vec<String>,
    pub variants: Vec<Variant>,
}

/// How long and how the run goes.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    pub until_ms: f64,
    pub seed: u64,
    pub sample_interval_ms: f64,
}

/// A node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeSpec {
    pub id: String,
    pub kind: crate::cell::net::NodeKind,
    pub x: f64,
    pub y: f64,
}

/// One output port's configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct PortSpec {
    pub buffer_cells: u32,
    /// Set-up / connect processing before a message leaves by this port, ms.
    pub setup_ms: f64,
    pub discipline: crate::cell::net::Discipline,
    pub algorithm: crate::cell::switch_alg::AlgorithmConfig,
}

/// A full-duplex link.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkSpec {
    pub id: String,
    pub a: usize,
    pub b: usize,
    pub rate_mbps: f64,
    pub delay_ms: f64,
    /// Ports for a→b and b→a.
    pub ports: [PortSpec; 2],
}

/// A VC's traffic (SPEC §3 ABR traffic models).
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
