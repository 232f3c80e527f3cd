//! The walk over a cell-model scenario: the envelope (shared with the
//! packet model, `crate::scenario::envelope`), then the defaults, nodes,
//! links, VCs and background sources, the claims, and the whole-run checks.

use super::background::read_background;
use super::vcs::read_vcs;
use super::{read_defaults, LinkSpec, NodeSpec, PortSpec, Scenario, VcSpec};
use crate::cell::net::NodeKind;
use crate::cell::switch_alg::ALGORITHMS;
use crate::scenario::apply_variant;
use crate::scenario::envelope::{array, check_run_limits, element_path, open_root, read_meta};
use crate::scenario::reader::Errors;
use crate::scenario::registry;
use crate::scenario::topology::{read_link_entries, read_node_entries};
use crate::scenario::{parse_checked, read_checked, ModelScenario};
use crate::scenario::{Limits, ScenarioError};
use serde_json::Value;
use std::collections::HashMap;

/// Parses and validates scenario text within the default [`Limits`] (other
/// limits: `crate::scenario::parse_checked`).
pub fn parse_scenario(text: &str) -> Result<Scenario, Vec<ScenarioError>> {
    parse_checked(text, &Limits::default())
}

/// Validates an already-parsed JSON value within the default limits (other
/// limits: `crate::scenario::read_checked`).
pub fn scenario_from_value(value: &Value) -> Result<Scenario, Vec<ScenarioError>> {
    read_checked(value, &Limits::default())
}

impl ModelScenario for Scenario {
    const PATH_LISTS: &'static [&'static str] = &["vcs", "background"];

    fn list_limits(limits: &Limits) -> Vec<(&'static str, usize)> {
        let Limits { max_nodes, max_links, max_vcs, max_background, max_variants, .. } = *limits;
        vec![
            ("nodes", max_nodes),
            ("links", max_links),
            ("vcs", max_vcs),
            ("background", max_background),
            ("variants", max_variants),
        ]
    }

    fn read(value: &Value, errors: &mut Errors) -> Option<Scenario> {
        read_scenario(value, errors)
    }

    /// VC loops, run length, and the cell slots the network offers over the run.
    fn check_limits(&self, limits: &Limits, errors: &mut Errors) {
        let loops: usize = self.vcs.iter().map(|v| 1 + v.bidirectional as usize).sum();
        if loops > limits.max_vcs {
            errors.push(ScenarioError::new("vcs", format!("{loops} VC loops (bidirectional VCs count twice) exceed the limit of {} (limits.max_vcs)", limits.max_vcs)));
        }
        check_run_limits(self.run.until_ms, self.links.iter().map(|l| l.rate_mbps), limits, errors);
    }

    fn check_cost(&self, limits: &Limits, errors: &mut Errors) {
        super::cost::cell_cost(self).check(self.run.until_ms, limits, errors);
    }
}

fn read_scenario(value: &Value, errors: &mut Errors) -> Option<Scenario> {
    let mut root = open_root(value, errors)?;
    let (mut meta, run) = read_meta(&mut root, errors);

    let defaults = read_defaults(root.get("defaults"), errors);
    let nodes = read_nodes(array(&mut root, "nodes", errors), errors);
    let node_index: HashMap<&str, usize> =
        nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let is_host = |n: usize| nodes[n].kind == NodeKind::Host;
    let port_defaults = [defaults.switch_port, defaults.host_port];
    let links = read_link_entries::<PortSpec>(
        array(&mut root, "links", errors),
        &node_index,
        &[],
        port_defaults,
        is_host,
        errors,
    );
    let vcs =
        read_vcs(array(&mut root, "vcs", errors), &node_index, &nodes, &links, &defaults, errors);
    let mut warnings = Vec::new();
    let background = match root.get("background") {
        None => Vec::new(),
        Some(_) => read_background(
            array(&mut root, "background", errors),
            &node_index,
            &nodes,
            &links,
            errors,
            &mut warnings,
        ),
    };
    crate::scenario::read_closing(value, root, &mut meta, errors);

    check_vcs(&vcs, &links, &mut warnings);
    Some(Scenario { meta, run: run?, nodes, links, vcs, background, warnings })
}

/// Re-validates, each whole, the variants of `value` that set a parameter
/// named in `keys` (the last segment of a `set` path), as loading the file
/// does (see `read_variants_checked`).
pub fn variants_checked_with(value: &Value, keys: &[&str]) -> Result<(), Vec<ScenarioError>> {
    let mut errors = Errors::new();
    let Some(items) = value.get("variants").and_then(Value::as_array) else { return Ok(()) };
    for (i, item) in items.iter().enumerate() {
        let touches = item.get("set").and_then(Value::as_object).is_some_and(|set| {
            set.keys().any(|path| keys.contains(&path.rsplit('.').next().unwrap_or_default()))
        });
        let Some(id) = item.get("id").and_then(Value::as_str).filter(|_| touches) else {
            continue;
        };
        let at = element_path("variants", i, item);
        let mut applied = value.clone();
        if let Some(map) = applied.as_object_mut() {
            // The claims are checked once, against the file as it is.
            map.remove("claims");
            map.insert("variants".into(), Value::Array(vec![item.clone()]));
        }
        match apply_variant(&mut applied, id) {
            Err(e) => errors.push(e),
            Ok(()) => {
                if let Some(map) = applied.as_object_mut() {
                    map.remove("variants");
                }
                if let Err(inner) = scenario_from_value(&applied) {
                    for e in inner {
                        errors.push(ScenarioError::new(format!("{at}.set"), format!("makes {e}")));
                    }
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn read_nodes(items: &[Value], errors: &mut Errors) -> Vec<NodeSpec> {
    read_node_entries(items, [("host", NodeKind::Host), ("switch", NodeKind::Switch)], errors)
        .into_iter()
        .map(|(id, kind, x, y)| NodeSpec { id, kind, x, y })
        .collect()
}

/// The traffic models a scenario may name, with the keys each reads.
pub const TRAFFIC_MODELS: &[(&str, &[&str])] = &[
    ("persistent", &["start_ms", "stop_ms"]),
    ("bottlenecked", &["start_ms", "stop_ms", "rate_mbps", "for_ms"]),
    ("on_off", &["start_ms", "stop_ms", "on_ms", "off_ms"]),
    ("request_response", &["start_ms", "stop_ms", "request_cells", "response_cells"]),
];

/// The start-up options a VC may name (Ma & Ramakrishnan §3).
pub const STARTUP_OPTIONS: &[&str] = &["atm_forum", "rate", "rm"];

/// The queue disciplines a port may name (the names of `Discipline::ALL`).
pub const QUEUE_DISCIPLINES: &[&str] = &["fifo", "per_vc"];

/// The kinds a background source may name.
pub const BACKGROUND_KINDS: &[&str] = &["cbr", "vbr"];

/// Every enumerated choice a scenario can make, for the UI's menus.
pub fn choices_json() -> Value {
    serde_json::json!({
        "algorithms": registry::kinds(ALGORITHMS),
        "queues": QUEUE_DISCIPLINES,
        "traffic": TRAFFIC_MODELS.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
        "traffic_keys": TRAFFIC_MODELS.iter().map(|(m, keys)| (m.to_string(), serde_json::json!(keys))).collect::<serde_json::Map<_, _>>(),
        "startup": STARTUP_OPTIONS,
        "background": BACKGROUND_KINDS,
    })
}

/// Legal but suspicious settings: warn and suggest a fix (Observable Plot warnings).
fn check_vcs(vcs: &[VcSpec], links: &[LinkSpec], warnings: &mut Vec<ScenarioError>) {
    for vc in vcs {
        let slowest = vc
            .path
            .windows(2)
            .filter_map(|w| {
                links.iter().find(|l| (l.a == w[0] && l.b == w[1]) || (l.a == w[1] && l.b == w[0]))
            })
            .map(|l| l.rate_mbps)
            .fold(f64::INFINITY, f64::min);
        if vc.params.pcr_mbps > slowest * (1.0 + 1e-9) {
            warnings.push(ScenarioError::new(
                format!("vcs.{}.pcr_mbps", vc.id),
                format!(
                    "PCR {} Mbit/s exceeds the slowest link on the path ({slowest} Mbit/s); it is negotiated down to {slowest} (Fahmy et al. §3.2)",
                    vc.params.pcr_mbps
                ),
            ));
        }
        if vc.params.icr_mbps > vc.params.pcr_mbps {
            warnings.push(ScenarioError::new(
                format!("vcs.{}.icr_mbps", vc.id),
                format!(
                    "ICR {} Mbit/s exceeds PCR; ICR is negotiated down to PCR",
                    vc.params.icr_mbps
                ),
            ));
        }
    }
}
