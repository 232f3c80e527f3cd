//! The cell model's layout: the topology, ids and sample columns, for the
//! page and the runner (the types are `crate::session::layout`'s, shared with
//! the packet model and generated for TypeScript).

use super::Simulation;
use crate::cell::net::{Node, NodeKind as CellNodeKind};
use crate::session::layout::{Layout, LayoutBackground, LayoutNode, LayoutVc, NodeKind};
use crate::time::cells_per_s_to_mbps;
use serde_json::Value;

impl Simulation {
    /// The topology, ids and sample columns, for the UI and the runner.
    pub fn layout(&self) -> Value {
        let node_id = |n: u32| self.nodes[n as usize].id.clone();
        let kind = |n: &Node| match n.kind {
            CellNodeKind::Host => NodeKind::Host,
            CellNodeKind::Switch => NodeKind::Switch,
        };
        let nodes = self.nodes.iter().map(|n| LayoutNode::new(&n.id, kind(n), n.x, n.y)).collect();
        let base = (&self.meta, &self.run, &self.warnings[..]);
        let mut layout = Layout {
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
            ..Layout::base(base, &self.rec, nodes, &self.links)
        };
        for (lp, p) in layout.ports.iter_mut().zip(&self.ports) {
            lp.algorithm = Some(p.algorithm.name().to_string());
            lp.buffer_cells = Some(p.buffer_cells);
        }
        layout.to_json()
    }
}
