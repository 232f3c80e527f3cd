//! The walk over a packet-model scenario: the envelope (shared with the cell
//! model, `crate::scenario::envelope`), then the defaults, nodes, links and
//! their ports, flows (flows.rs), the claims, and the whole-run checks.

use super::flows::read_flows;
use super::params::spec;
use super::{
    link_between, Defaults, FlowKindSpec, IpFlowSpec, IpLinkSpec, IpNodeKind, IpNodeSpec,
    IpPortSpec, IpScenario, MODEL,
};
use crate::ip::aqm::{AqmConfig, AQMS};
use crate::ip::bat::Grouping;
use crate::scenario::envelope::{array, check_run_limits, open_root, read_meta};
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{self, Scope::IpPort as P};
use crate::scenario::topology::{read_link_entries, read_node_entries, PortRead};
use crate::scenario::{read_checked, ModelScenario};
use crate::scenario::{Limits, ScenarioError};
use serde_json::Value;
use std::collections::HashMap;

/// Validates an already-parsed JSON value within the default limits (other
/// limits, or text: `crate::scenario::{read_checked, parse_checked}`). The
/// limits are the cell model's: flows count against `max_vcs`, packets
/// against the cell slots a link could carry, which bounds them from above.
pub fn ip_scenario_from_value(value: &Value) -> Result<IpScenario, Vec<ScenarioError>> {
    read_checked(value, &Limits::default())
}

impl ModelScenario for IpScenario {
    const PATH_LISTS: &'static [&'static str] = &["flows"];

    /// Nodes, links and variants by their length (flows by the hosts they
    /// expand to, `refuse_expanded`).
    fn list_limits(l: &Limits) -> Vec<(&'static str, usize)> {
        vec![("nodes", l.max_nodes), ("links", l.max_links), ("variants", l.max_variants)]
    }

    /// Flows by the hosts they expand to (an entry's `count`), against `max_vcs`.
    fn refuse_expanded(value: &Value, limits: &Limits, errors: &mut Errors) {
        let Some(items) = value.get("flows").and_then(Value::as_array) else { return };
        let flows: u64 =
            items.iter().map(|f| f.get("count").and_then(Value::as_u64).unwrap_or(1).max(1)).sum();
        if flows > limits.max_vcs as u64 {
            errors.push(ScenarioError::new(
                "flows",
                format!("{flows} flows exceed the limit of {} (limits.max_vcs)", limits.max_vcs),
            ));
        }
    }

    fn read(value: &Value, errors: &mut Errors) -> Option<IpScenario> {
        read_scenario(value, errors)
    }

    /// Run length and the transmissions the links allow.
    fn check_limits(&self, limits: &Limits, errors: &mut Errors) {
        check_run_limits(self.run.until_ms, self.links.iter().map(|l| l.rate_mbps), limits, errors);
    }

    fn check_cost(&self, limits: &Limits, errors: &mut Errors) {
        super::ip_cost(self).check(self.run.until_ms, limits, errors);
    }
}

fn read_scenario(value: &Value, errors: &mut Errors) -> Option<IpScenario> {
    let mut root = open_root(value, errors)?;
    if root.get("model").and_then(Value::as_str) != Some(MODEL) {
        errors.push(ScenarioError::new(
            "model",
            format!("must be \"{MODEL}\" for a packet-level scenario"),
        ));
    }
    let (meta, run) = read_meta(&mut root, errors);
    let mut defaults = Defaults { tcp: None, udp: None, router_port: None, host_port: None };
    if let Some(v) = root.get("defaults") {
        if let Some(mut obj) = Obj::new(v, "defaults", errors) {
            defaults.tcp = obj.get("tcp");
            defaults.udp = obj.get("udp");
            defaults.router_port = obj.get("router_port");
            defaults.host_port = obj.get("host_port");
            obj.finish(errors);
        }
    }
    let nodes = read_nodes(array(&mut root, "nodes", errors), errors);
    let node_index: HashMap<&str, usize> =
        nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let links = read_link_entries::<IpPortSpec>(
        array(&mut root, "links", errors),
        &node_index,
        &["label"],
        [defaults.router_port, defaults.host_port],
        |n| nodes[n].kind == IpNodeKind::Host,
        errors,
    );
    let seed = run.as_ref().map_or(1, |r| r.seed);
    let flows = read_flows(
        array(&mut root, "flows", errors),
        &node_index,
        &nodes,
        &links,
        &defaults,
        seed,
        errors,
    );
    check_bat_overrides(&links, &flows, errors);
    let mut meta = meta;
    crate::scenario::read_closing(value, root, &mut meta, errors);
    let mut warnings = Vec::new();
    let mut flows = flows;
    check_flows(&flows, &links, &nodes, &mut warnings);
    cap_udp_at_access_link(&mut flows, &links);
    Some(IpScenario { meta, run: run?, nodes, links, flows, warnings })
}

fn read_nodes(items: &[Value], errors: &mut Errors) -> Vec<IpNodeSpec> {
    read_node_entries(items, [("host", IpNodeKind::Host), ("router", IpNodeKind::Router)], errors)
        .into_iter()
        .map(|(id, kind, x, y)| IpNodeSpec { id, kind, x, y })
        .collect()
}

impl PortRead for IpPortSpec {
    const DEFAULT_KEYS: [&'static str; 2] = ["router_port", "host_port"];

    fn builtin() -> [IpPortSpec; 2] {
        let buffer_pkts = spec(P, "buffer_pkts").default as u32;
        [
            IpPortSpec { buffer_pkts, aqm: AqmConfig::DropTail },
            IpPortSpec { buffer_pkts: 10_000, aqm: AqmConfig::DropTail },
        ]
    }

    fn read_keys(&mut self, obj: &mut Obj<'_>, errors: &mut Errors) {
        if let Some(x) = obj.param(spec(P, "buffer_pkts"), errors) {
            self.buffer_pkts = x as u32;
        }
        if let Some(a) = obj.get("aqm") {
            if let Some(aqm) = registry::read_kind(a, &obj.at("aqm"), "AQM", AQMS, errors) {
                self.aqm = aqm;
            }
        }
    }
}

/// The links' propagation delay along `path` and back, ms.
pub fn path_round_trip_ms(links: &[IpLinkSpec], path: &[usize]) -> f64 {
    path.windows(2)
        .filter_map(|w| link_between(links, w[0], w[1]))
        .map(|(l, _)| 2.0 * links[l].delay_ms)
        .sum()
}

/// Every enumerated choice a packet-level scenario can make, for the UI's menus.
pub fn choices_json() -> Value {
    serde_json::json!({
        "nodes": ["host", "router"],
        "flows": ["tcp", "udp"],
        "aqm": ["drop_tail", "bat"],
        "grouping": ["class", "flow"],
        "rtt_spread": ["even", "random"],
    })
}

/// BAT's per-flow settings must name a flow (or flow entry) crossing the port.
fn check_bat_overrides(links: &[IpLinkSpec], flows: &[IpFlowSpec], errors: &mut Errors) {
    for (li, link) in links.iter().enumerate() {
        for (dir, port) in link.ports.iter().enumerate() {
            let AqmConfig::Bat(bat) = &port.aqm else { continue };
            let crossing: Vec<&IpFlowSpec> = flows
                .iter()
                .filter(|f| {
                    f.path.windows(2).any(|w| link_between(links, w[0], w[1]) == Some((li, dir)))
                })
                .collect();
            for o in &bat.overrides {
                if !crossing.iter().any(|f| f.id == o.key || f.group == o.key) {
                    errors.push(ScenarioError::new(
                        o.path.clone(),
                        format!("no flow or flow entry '{}' crosses this port", o.key),
                    ));
                    continue;
                }
                if bat.grouping == Grouping::Flow {
                    // Validate the values now, so that building never meets a bad one.
                    crate::ip::bat::validate_override(o, errors);
                }
            }
        }
    }
}

/// A UDP source cannot send faster than its access link: the host's
/// interface serialises at the link rate, so both its rates are
/// capped there (`check_flows` has warned) rather than simulated packet by
/// packet into a host queue that overflows for the whole run.
fn cap_udp_at_access_link(flows: &mut [IpFlowSpec], links: &[IpLinkSpec]) {
    for f in flows {
        let Some((l, _)) = link_between(links, f.path[0], f.path[1]) else { continue };
        let cap = links[l].rate_mbps;
        if let FlowKindSpec::Udp { rate_mbps, alt_rate_mbps, .. } = &mut f.kind {
            *rate_mbps = rate_mbps.min(cap);
            if let Some(alt) = alt_rate_mbps {
                *alt = alt.min(cap);
            }
        }
    }
}

/// Legal but suspicious settings: warn and suggest a fix.
fn check_flows(
    flows: &[IpFlowSpec],
    links: &[IpLinkSpec],
    nodes: &[IpNodeSpec],
    warnings: &mut Vec<ScenarioError>,
) {
    for f in flows {
        let base = path_round_trip_ms(links, &f.path);
        if let Some(rtt) = f.rtt_ms {
            if rtt + 1e-9 < base {
                warnings.push(ScenarioError::new(
                    format!("flows.{}.rtt_ms", f.group),
                    format!("flow {}: RTT {rtt} ms is below the links' own round trip {base} ms; it gets {base} ms", f.id),
                ));
            }
        }
        if let FlowKindSpec::Udp { rate_mbps, alt_rate_mbps, .. } = f.kind {
            let peak = alt_rate_mbps.map_or(rate_mbps, |a| a.max(rate_mbps));
            if let Some((l, _)) = link_between(links, f.path[0], f.path[1]) {
                if peak > links[l].rate_mbps * (1.0 + 1e-9) {
                    warnings.push(ScenarioError::new(
                        format!("flows.{}.rate_mbps", f.group),
                        format!(
                            "flow {}: {peak} Mbit/s exceeds its access link {} from {} ({} Mbit/s); it is capped at the link rate",
                            f.id, links[l].id, nodes[f.path[0]].id, links[l].rate_mbps
                        ),
                    ));
                }
            }
        }
    }
}
