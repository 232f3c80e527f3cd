//! The cell model's layout: the topology, ids and sample columns, for the
//! page and the runner (the types are `crate::session::layout`'s, shared with
//! the packet model and generated for TypeScript).

use super::Simulation;
use crate::cell::net::NodeKind as CellNodeKind;
use crate::session::layout::{
    Layout, LayoutBackground, LayoutLink, LayoutNode, LayoutPort, LayoutVc, NodeKind, ScenarioInfo,
};
use crate::time::cells_per_s_to_mbps;
use serde_json::Value;

impl Simulation {
    /// The topology, ids and sample columns, for the UI and the runner.
    pub fn layout(&self) -> Value {
        let node_id = |n: u32| self.nodes[n as usize].id.clone();
        let kind = |n: u32| match self.nodes[n as usize].kind {
            CellNodeKind::Host => NodeKind::Host,
            CellNodeKind::Switch => NodeKind::Switch,
        };
        Layout {
            model: None,
            scenario: ScenarioInfo::of(&self.meta),
            until_ms: self.run.until_ms,
            seed: self.run.seed,
            sample_interval_ms: self.rec.interval_ms(),
            nodes: (0..self.nodes.len() as u32)
                .map(|n| {
                    let node = &self.nodes[n as usize];
                    LayoutNode { id: node.id.clone(), kind: kind(n), x: node.x, y: node.y }
                })
                .collect(),
            links: self
                .links
                .iter()
                .map(|l| LayoutLink {
                    id: l.id.clone(),
                    a: node_id(l.a),
                    b: node_id(l.b),
                    rate_mbps: l.rate_mbps,
                    delay_ms: l.delay.as_ms(),
                })
                .collect(),
            vcs: self
                .vcs
                .iter()
                .map(|v| LayoutVc {
                    id: v.id.clone(),
                    reverse_of: v.reverse_of.map(|r| self.vcs[r as usize].id.clone()),
                    source: node_id(v.nodes[0]),
                    destination: node_id(*v.nodes.last().expect("path")),
                    path: v.nodes.iter().map(|&n| node_id(n)).collect(),
                    pcr_mbps: cells_per_s_to_mbps(v.source.params.pcr),
                    startup: v.startup.as_str().to_string(),
                })
                .collect(),
            background: self
                .background
                .iter()
                .map(|b| LayoutBackground {
                    id: b.id.clone(),
                    kind: b.kind.clone(),
                    rate_mbps: cells_per_s_to_mbps(b.rate_cps),
                    path: b.nodes.iter().map(|&n| node_id(n)).collect(),
                })
                .collect(),
            ports: self
                .ports
                .iter()
                .map(|p| LayoutPort {
                    id: p.id.clone(),
                    link: self.links[p.link as usize].id.clone(),
                    from: node_id(p.from),
                    to: node_id(p.to),
                    from_kind: kind(p.from),
                    algorithm: Some(p.algorithm.name().to_string()),
                    buffer_cells: Some(p.buffer_cells),
                    aqm: None,
                    buffer_pkts: None,
                })
                .collect(),
            flows: None,
            bat_port: None,
            classes: None,
            columns: self.rec.columns().to_vec(),
            frame_columns: None,
            warnings: self.warnings.clone(),
        }
        .to_json()
    }
}
