//! CBR and VBR background sources: constant, or a square wave, on a path
//! of their own; capped at their first link's rate with a warning.

use super::params::spec;
use super::vcs::read_path;
use super::{BackgroundSpec, LinkSpec, NodeSpec};
use crate::scenario::envelope::{element_path, read_id};
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::Scope;
use crate::scenario::ScenarioError;
use serde_json::Value;
use std::collections::HashMap;

pub(super) fn read_background(
    items: &[Value],
    node_index: &HashMap<&str, usize>,
    nodes: &[NodeSpec],
    links: &[LinkSpec],
    errors: &mut Errors,
    warnings: &mut Vec<ScenarioError>,
) -> Vec<BackgroundSpec> {
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = element_path("background", i, item);
        let Some(mut obj) = Obj::new(item, &at, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let kind = match obj.get("kind").map(|v| v.as_str()) {
            None => "cbr".to_string(),
            Some(Some(k @ ("cbr" | "vbr"))) => k.to_string(),
            Some(_) => {
                errors.push(ScenarioError::new(obj.at("kind"), "must be \"cbr\" or \"vbr\""));
                "cbr".to_string()
            }
        };
        let route = read_path(&mut obj, node_index, nodes, links, errors);
        let rate = obj.param(spec(Scope::Background, "rate_mbps"), errors);
        if rate.is_none() && !obj.map.contains_key("rate_mbps") {
            errors.push(ScenarioError::new(obj.at("rate_mbps"), "is required"));
        }
        let on_ms = obj.param(spec(Scope::Background, "on_ms"), errors);
        let off_ms = obj.param(spec(Scope::Background, "off_ms"), errors).unwrap_or(0.0);
        let phase_ms = obj.param(spec(Scope::Background, "phase_ms"), errors).unwrap_or(0.0);
        let start_ms = obj.param(spec(Scope::Background, "start_ms"), errors).unwrap_or(0.0);
        let stop_ms = obj.param(spec(Scope::Background, "stop_ms"), errors);
        if let Some(stop) = stop_ms.filter(|&stop| stop <= start_ms) {
            errors.push(ScenarioError::new(
                obj.at("stop_ms"),
                format!("{stop} ms is not after start_ms {start_ms} ms"),
            ));
        }
        if on_ms.is_none() && off_ms > 0.0 {
            errors.push(ScenarioError::new(obj.at("on_ms"), "is required when off_ms is given"));
        }
        obj.get("label");
        obj.finish(errors);
        if let (Some(id), Some(path), Some(rate)) = (id, route, rate) {
            let rate_mbps = cap_at_first_link(rate, &path, links, &at, warnings);
            out.push(BackgroundSpec {
                id,
                kind,
                path,
                rate_mbps,
                on_ms,
                off_ms,
                phase_ms,
                start_ms,
                stop_ms,
            });
        }
    }
    out
}

/// A source cannot send faster than its first link: a host's interface
/// serialises at the link rate, so a faster source is capped there, with a
/// warning, rather than simulated cell by cell into a host queue
/// that grows for the whole run.
fn cap_at_first_link(
    rate_mbps: f64,
    path: &[usize],
    links: &[LinkSpec],
    at: &str,
    warnings: &mut Vec<ScenarioError>,
) -> f64 {
    let first = links
        .iter()
        .find(|l| (l.a == path[0] && l.b == path[1]) || (l.a == path[1] && l.b == path[0]));
    match first {
        Some(l) if rate_mbps > l.rate_mbps => {
            warnings.push(ScenarioError::new(
                format!("{at}.rate_mbps"),
                format!(
                    "{rate_mbps} Mbit/s exceeds its first link {} ({} Mbit/s); it is capped at the link rate",
                    l.id, l.rate_mbps
                ),
            ));
            l.rate_mbps
        }
        _ => rate_mbps,
    }
}
