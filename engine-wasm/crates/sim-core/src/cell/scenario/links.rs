//! A cell-model link and its two ports: buffer, set-up time, queue
//! discipline and switch algorithm, over the defaults for switch and host ports.

use super::params::spec;
use super::Defaults;
use super::{LinkSpec, NodeSpec, PortSpec};
use crate::cell::net::{Discipline, NodeKind};
use crate::cell::switch_alg::AlgorithmConfig;
use crate::scenario::reader::{describe, Errors, Obj};
use crate::scenario::registry::Scope;
use crate::scenario::topology::read_link_entries;
use crate::scenario::ScenarioError;
use serde_json::Value;
use std::collections::HashMap;

/// Reads a port object over `base`; keys present in the object win.
fn read_port(value: Option<&Value>, path: &str, base: &PortSpec, errors: &mut Errors) -> PortSpec {
    let mut port = base.clone();
    let Some(v) = value else { return port };
    let Some(mut obj) = Obj::new(v, path, errors) else { return port };
    if let Some(x) = obj.param(spec(Scope::Port, "buffer_cells"), errors) {
        port.buffer_cells = x as u32;
    }
    if let Some(x) = obj.param(spec(Scope::Port, "setup_ms"), errors) {
        port.setup_ms = x;
    }
    if let Some(v) = obj.get("queue") {
        match v.as_str().and_then(Discipline::from_name) {
            Some(d) => port.discipline = d,
            None => {
                let names: Vec<String> =
                    Discipline::ALL.iter().map(|d| format!("\"{}\"", d.as_str())).collect();
                errors.push(ScenarioError::new(
                    obj.at("queue"),
                    format!(
                        "unknown queue discipline {} (expected one of: {})",
                        describe(v),
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    if let Some(a) = obj.get("algorithm") {
        if let Some(alg) = AlgorithmConfig::read(a, &obj.at("algorithm"), errors) {
            port.algorithm = alg;
        }
    }
    obj.finish(errors);
    port
}

pub(super) fn read_links(
    items: &[Value],
    node_index: &HashMap<&str, usize>,
    defaults: &Defaults<'_>,
    nodes: &[NodeSpec],
    errors: &mut Errors,
) -> Vec<LinkSpec> {
    let builtin = PortSpec {
        buffer_cells: spec(Scope::Port, "buffer_cells").default as u32,
        setup_ms: spec(Scope::Port, "setup_ms").default,
        discipline: Discipline::Fifo,
        algorithm: AlgorithmConfig::None,
    };
    let switch_port = read_port(defaults.switch_port, "defaults.switch_port", &builtin, errors);
    let host_base = PortSpec { buffer_cells: 4_000_000, setup_ms: 0.0, ..builtin };
    let host_port = read_port(defaults.host_port, "defaults.host_port", &host_base, errors);

    let base_for = |n: Option<usize>| match n.map(|n| nodes[n].kind) {
        Some(NodeKind::Host) => &host_port,
        _ => &switch_port,
    };
    let port = |v: Option<&Value>, path: &str, n, errors: &mut Errors| {
        read_port(v, path, base_for(n), errors)
    };
    read_link_entries(items, node_index, &[], port, errors)
}
