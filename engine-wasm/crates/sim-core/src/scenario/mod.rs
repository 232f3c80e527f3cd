//! The scenario file family, whichever model it describes: the document
//! envelope (`format`, `version`, meta, `run`, variants, things to try —
//! envelope.rs), the validating reader every model's walk uses (reader.rs,
//! strict_json.rs), the shapes both models' topologies share (topology.rs),
//! the parameter registry each model fills (registry.rs), `--set` overrides
//! by dotted path (set.rs), the ceilings a run must stay under ([`Limits`])
//! and the cost model's arithmetic (cost.rs). It imports no model: the cell
//! model's scenarios are read in `crate::cell::scenario`, the packet model's in
//! `crate::ip::scenario`.

pub mod claims;
pub mod cost;
mod document;
pub mod echo;
pub mod envelope;
pub mod lecture;
pub mod reader;
pub mod registry;
pub mod set;
pub mod strict_json;
pub mod topology;

pub(crate) use document::read_closing;
pub use document::{parse_checked, read_checked, ModelScenario};
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
    /// Estimated events of a run: every source's offered cells or
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
    /// Whether the runner streams the sample rows to a file rather than holding them (`abrsim run
    /// --samples`): `max_memory_mb` then leaves them out. Not a limit by name; the runner sets it.
    pub samples_on_disk: bool,
    /// Report windows a run may be asked for (`--window`, each summing every column).
    pub max_windows: usize,
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
            max_events: 1.5e8,
            max_memory_mb: 800.0,
            samples_on_disk: false,
            max_variants: 64,
            max_path_nodes: 50_000,
            max_sweep_points: 10_000,
            max_input_bytes: 4_000_000,
            max_windows: 1000,
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
        "max_windows",
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
            "max_windows": self.max_windows,
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
            "max_windows" => self.max_windows = value.min(usize::MAX as f64) as usize,
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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        // Everything a refusal echoes passes here: no raw control characters,
        // no 309-digit numbers.
        ScenarioError { path: echo::escape(&path.into()), message: echo::tame(&message.into()) }
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
    /// Narrated stops on the timeline, in the file's order.
    pub stops: Vec<lecture::Stop>,
    /// Predict-then-play questions.
    pub questions: Vec<lecture::Question>,
}

/// How long and how the run goes.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    pub until_ms: f64,
    pub seed: u64,
    pub sample_interval_ms: f64,
}
