//! The description of a built scenario that the page and the runner read
//! (`Engine.layout()`), for either model: one set of types, serialised to
//! JSON by serde and exported to TypeScript by ts-rs (`ts_types.rs`), so the
//! page's `Layout` is generated from these structs, not mirrored by hand.
//! Fields only one model has are optional and left out by the other.

use super::Recorder;
use crate::scenario::lecture::{Question, Stop};
use crate::scenario::topology::{Link, PortEnds};
use crate::scenario::{Meta, RunSpec, ScenarioError};
use serde::Serialize;

/// Scenario metadata shown beside the charts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ScenarioInfo {
    pub id: String,
    pub title: String,
    pub paper: String,
    pub explanation: String,
    pub things_to_try: Vec<String>,
    /// Named sets of overrides the scenario file offers (e.g. "Nrm = 8").
    pub variants: Vec<VariantInfo>,
    /// Narrated stops on the timeline.
    pub stops: Vec<Stop>,
    /// Predict-then-play questions, each answered by a figure of the run.
    pub questions: Vec<Question>,
}

impl ScenarioInfo {
    pub fn of(meta: &Meta) -> ScenarioInfo {
        ScenarioInfo {
            id: meta.id.clone(),
            title: meta.title.clone(),
            paper: meta.paper.clone(),
            explanation: meta.explanation.clone(),
            things_to_try: meta.things_to_try.clone(),
            variants: meta
                .variants
                .iter()
                .map(|v| VariantInfo { id: v.id.clone(), label: v.label.clone() })
                .collect(),
            stops: meta.stops.clone(),
            questions: meta.questions.clone(),
        }
    }
}

/// A variant's id and label.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct VariantInfo {
    pub id: String,
    pub label: String,
}

/// What a node is: an end system, or the cell model's switch / the packet model's router.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "lowercase"))]
pub enum NodeKind {
    Host,
    Switch,
    Router,
}

/// A node at its position from the scenario file.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LayoutNode"))]
pub struct LayoutNode {
    pub id: String,
    pub kind: NodeKind,
    pub x: f64,
    pub y: f64,
}

impl LayoutNode {
    pub fn new(id: &str, kind: NodeKind, x: f64, y: f64) -> LayoutNode {
        LayoutNode { id: id.to_string(), kind, x, y }
    }
}

/// A full-duplex link between nodes `a` and `b`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LayoutLink {
    pub id: String,
    pub a: String,
    pub b: String,
    pub rate_mbps: f64,
    pub delay_ms: f64,
}

/// A virtual circuit from `source` to `destination` along `path` (node ids,
/// both ends included); the packet model has none.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LayoutVc {
    pub id: String,
    /// For the reverse loop of a bidirectional VC (`<id>:rev`), the forward VC's id.
    #[cfg_attr(test, ts(optional = nullable))]
    pub reverse_of: Option<String>,
    pub source: String,
    pub destination: String,
    pub path: Vec<String>,
    /// PCR after negotiation down to the slowest link, Mbit/s.
    pub pcr_mbps: f64,
    /// The start-up option (Ma & Ramakrishnan §3): `atm_forum`, `rate` or `rm`.
    pub startup: String,
}

/// A CBR/VBR background source along `path`; its cells have priority and get no feedback.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LayoutBackground {
    pub id: String,
    pub kind: String,
    pub rate_mbps: f64,
    pub path: Vec<String>,
}

/// One direction of a link: `<link id>` for a→b, `<link id>:rev` for b→a;
/// it owns the queue at `from`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LayoutPort {
    pub id: String,
    pub link: String,
    pub from: String,
    pub to: String,
    pub from_kind: NodeKind,
    /// Cell model: the port's switch algorithm ("none" when it only queues).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub algorithm: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub buffer_cells: Option<u32>,
    /// Packet model: the port's AQM (`drop_tail`, `bat`, `bat+clcc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub aqm: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub buffer_pkts: Option<u32>,
}

/// A packet-level flow (`"model": "ip"`): TCP or UDP along `path`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LayoutFlow {
    pub id: String,
    /// The group it is counted in at the AQM (a TCP bundle of `count` connections, or the flow).
    pub group: String,
    pub kind: String,
    pub source: String,
    pub destination: String,
    pub path: Vec<String>,
    pub rtt_ms: f64,
    pub packet_bytes: u32,
    pub start_ms: f64,
}

/// Which model a layout describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "lowercase", rename = "ModelName"))]
pub enum ModelName {
    Cell,
    Ip,
}

/// A built scenario as the page and the runner read it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Layout {
    /// Which model runs: ABR cells (absent) or IP packets (Pletka et al.).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub model: Option<ModelName>,
    pub scenario: ScenarioInfo,
    pub until_ms: f64,
    #[cfg_attr(test, ts(type = "number"))]
    pub seed: u64,
    pub sample_interval_ms: f64,
    pub nodes: Vec<LayoutNode>,
    pub links: Vec<LayoutLink>,
    /// The cell model's VCs (the packet model's list is empty).
    pub vcs: Vec<LayoutVc>,
    /// Background sources (the packet model has none).
    pub background: Vec<LayoutBackground>,
    pub ports: Vec<LayoutPort>,
    /// Packet model: the flows.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub flows: Option<Vec<LayoutFlow>>,
    /// Packet model: the port with the BAT AQM, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub bat_port: Option<Option<String>>,
    /// Packet model: the traffic classes (`tcp`, `udp`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub classes: Option<Vec<String>>,
    /// Names of the sample columns, in row order (`t_ms`, `vc.<id>.acr`, `port.<id>.queue`, ...).
    pub columns: Vec<String>,
    /// Packet model: names of the live frame's entries, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub frame_columns: Option<Vec<String>>,
    /// Legal but suspicious settings, each with a suggested fix.
    pub warnings: Vec<ScenarioError>,
}

impl Layout {
    /// What both models' layouts hold: the scenario and its run, the nodes,
    /// the links between them, the ports (each link's two directions, as
    /// both models build them: `PortEnds::of_link`), the sample columns and
    /// the warnings; the model's own parts start empty, for it to fill.
    pub fn base(
        (meta, run, warnings): (&Meta, &RunSpec, &[ScenarioError]),
        rec: &Recorder,
        nodes: Vec<LayoutNode>,
        links: &[Link],
    ) -> Layout {
        let node = |n: u32| nodes[n as usize].id.clone();
        let mut ports: Vec<(u32, LayoutPort)> = Vec::with_capacity(2 * links.len());
        for (li, l) in links.iter().enumerate() {
            let ends = PortEnds::of_link(&l.id, li, l.a as usize, l.b as usize);
            for (index, PortEnds { id, from, to, .. }) in l.ports.into_iter().zip(ends) {
                let port = LayoutPort {
                    id,
                    link: l.id.clone(),
                    from: node(from),
                    to: node(to),
                    from_kind: nodes[from as usize].kind,
                    algorithm: None,
                    buffer_cells: None,
                    aqm: None,
                    buffer_pkts: None,
                };
                ports.push((index, port));
            }
        }
        ports.sort_by_key(|&(index, _)| index);
        let ports = ports.into_iter().map(|(_, p)| p).collect();
        let links = links
            .iter()
            .map(|l| LayoutLink {
                id: l.id.clone(),
                a: node(l.a),
                b: node(l.b),
                rate_mbps: l.rate_mbps,
                delay_ms: l.delay.as_ms(),
            })
            .collect();
        Layout {
            model: None,
            scenario: ScenarioInfo::of(meta),
            until_ms: run.until_ms,
            seed: run.seed,
            sample_interval_ms: rec.interval_ms(),
            nodes,
            links,
            vcs: Vec::new(),
            background: Vec::new(),
            ports,
            flows: None,
            bat_port: None,
            classes: None,
            columns: rec.columns().to_vec(),
            frame_columns: None,
            warnings: warnings.to_vec(),
        }
    }

    /// As JSON, for the wasm layer and the runner.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a layout is plain data")
    }
}
