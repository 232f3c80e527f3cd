//! A VC: its path, ABR parameters (Fahmy et al. Table 1) over
//! `defaults.vc`, traffic model, start-up option (Ma & Ramakrishnan §3) and
//! direction; and the checks `set_param` runs on an edited VC parameter.

use super::params::spec;
use super::Defaults;
use super::{LinkSpec, NodeSpec, Startup, TrafficSpec, VcParams, VcSpec};
use crate::cell::net::NodeKind;
use crate::scenario::envelope::{element_path, read_id};
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::Scope;
use crate::scenario::topology::{read_node_path, PathTopology, PathWords};
use crate::scenario::ScenarioError;
use serde_json::Value;
use std::collections::HashMap;

fn read_vc_params(
    obj: &mut Obj<'_>,
    base: &VcParams,
    icr_given: &mut bool,
    errors: &mut Errors,
) -> VcParams {
    let mut p = base.clone();
    macro_rules! field {
        ($key:literal, $field:ident, $conv:expr) => {
            if let Some(x) = obj.param(spec(Scope::Vc, $key), errors) {
                p.$field = $conv(x);
            }
        };
    }
    field!("pcr_mbps", pcr_mbps, |x| x);
    field!("mcr_mbps", mcr_mbps, |x| x);
    if let Some(x) = obj.param(spec(Scope::Vc, "icr_mbps"), errors) {
        p.icr_mbps = x;
        *icr_given = true;
    }
    field!("tcr_cps", tcr_cps, |x| x);
    field!("nrm", nrm, |x: f64| x as u32);
    field!("mrm", mrm, |x: f64| x as u32);
    field!("trm_ms", trm_ms, |x| x);
    field!("rif", rif, |x| x);
    field!("rdf", rdf, |x| x);
    field!("adtf_s", adtf_s, |x| x);
    field!("tbe_cells", tbe_cells, |x| x);
    field!("cdf", cdf, |x| x);
    if let Some(x) = obj.param(spec(Scope::Vc, "crm"), errors) {
        p.crm = Some(x);
    }
    if let Some(b) = obj.flag("cdf_every_crm", errors) {
        p.cdf_every_crm = b;
    }
    if let Some(b) = obj.flag("switched", errors) {
        p.switched = b;
    }
    p
}

/// The parameters of the VCs a change of one VC parameter reaches, checked
/// as reading the whole scenario checks them (each value's range, MCR ≤ PCR),
/// for `set_param`: `only` is the id or index of the VC whose own value
/// changed, None for a change in `defaults.vc` (every VC). Each entry is the
/// VC's id and its parameters. A VC's parameters depend only on
/// `defaults.vc` and the VC's own object, so nothing else needs reading;
/// see [`variants_checked_with`] for the variants.
pub fn vc_params_after_edit(
    value: &Value,
    only: Option<&str>,
) -> Result<Vec<(String, VcParams)>, Vec<ScenarioError>> {
    let mut errors = Errors::new();
    let mut base = builtin_vc_params();
    let mut icr_default_given = false;
    if let Some(v) = value.get("defaults").and_then(|d| d.get("vc")) {
        if let Some(mut obj) = Obj::new(v, "defaults.vc", &mut errors) {
            base = read_vc_params(&mut obj, &base, &mut icr_default_given, &mut errors);
        }
    }
    let mut out = Vec::new();
    let items = value.get("vcs").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    for (i, item) in items.iter().enumerate() {
        let id = item.get("id").and_then(Value::as_str).unwrap_or_default();
        if only.is_some_and(|o| o != id && o.parse::<usize>().ok() != Some(i)) {
            continue;
        }
        let path = element_path("vcs", i, item);
        let Some(mut obj) = Obj::new(item, &path, &mut errors) else { continue };
        let mut icr_given = icr_default_given;
        let mut params = read_vc_params(&mut obj, &base, &mut icr_given, &mut errors);
        if !icr_given {
            params.icr_mbps = params.pcr_mbps; // Table 1: ICR defaults to PCR.
        }
        if params.mcr_mbps > params.pcr_mbps {
            errors.push(ScenarioError::new(
                obj.at("mcr_mbps"),
                format!("MCR {} Mbit/s exceeds PCR {} Mbit/s", params.mcr_mbps, params.pcr_mbps),
            ));
        }
        out.push((id.to_string(), params));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The other VC parameters a parameter is checked together with (MCR ≤ PCR).
/// A variant that sets none of them cannot be made invalid by a change of
/// `key`: `key`'s own range check does not depend on the variant, and where a
/// variant sets `key` itself, its value or the edited one reaches each VC,
/// both already checked. A variant that does set one is checked whole again.
pub fn vc_keys_checked_with(key: &str) -> &'static [&'static str] {
    match key {
        "pcr_mbps" => &["mcr_mbps"],
        "mcr_mbps" => &["pcr_mbps"],
        _ => &[],
    }
}

fn builtin_vc_params() -> VcParams {
    let d = |k| spec(Scope::Vc, k).default;
    VcParams {
        pcr_mbps: d("pcr_mbps"),
        mcr_mbps: d("mcr_mbps"),
        icr_mbps: f64::NAN,
        tcr_cps: d("tcr_cps"),
        nrm: d("nrm") as u32,
        mrm: d("mrm") as u32,
        trm_ms: d("trm_ms"),
        rif: d("rif"),
        rdf: d("rdf"),
        adtf_s: d("adtf_s"),
        tbe_cells: d("tbe_cells"),
        cdf: d("cdf"),
        crm: None,
        cdf_every_crm: false,
        switched: false,
    }
}

fn read_traffic(value: Option<&Value>, path: &str, errors: &mut Errors) -> TrafficSpec {
    let default = TrafficSpec::Persistent { start_ms: 0.0, stop_ms: None };
    let Some(v) = value else { return default };
    let Some(mut obj) = Obj::new(v, path, errors) else { return default };
    let start_ms = obj.param(spec(Scope::Traffic, "start_ms"), errors).unwrap_or(0.0);
    let stop_ms = obj.param(spec(Scope::Traffic, "stop_ms"), errors);
    if let Some(stop) = stop_ms {
        if stop <= start_ms {
            errors.push(ScenarioError::new(
                obj.at("stop_ms"),
                format!("{stop} ms is not after start_ms {start_ms} ms"),
            ));
        }
    }
    let mut num = |key: &'static str, obj: &mut Obj<'_>| {
        obj.param(spec(Scope::Traffic, key), errors).unwrap_or(spec(Scope::Traffic, key).default)
    };
    let spec = match obj.get("kind").map(|v| v.as_str()) {
        None | Some(Some("persistent")) => TrafficSpec::Persistent { start_ms, stop_ms },
        Some(Some("bottlenecked")) => TrafficSpec::Bottlenecked {
            start_ms,
            stop_ms,
            rate_mbps: num("rate_mbps", &mut obj),
            for_ms: num("for_ms", &mut obj),
        },
        Some(Some("on_off")) => TrafficSpec::OnOff {
            start_ms,
            stop_ms,
            on_ms: num("on_ms", &mut obj),
            off_ms: num("off_ms", &mut obj),
        },
        Some(Some("request_response")) => TrafficSpec::RequestResponse {
            start_ms,
            stop_ms,
            request_cells: num("request_cells", &mut obj) as u64,
            response_cells: num("response_cells", &mut obj) as u64,
        },
        Some(_) => {
            errors.push(ScenarioError::new(
                obj.at("kind"),
                "unknown traffic model (expected one of: \"persistent\", \"bottlenecked\", \"on_off\", \"request_response\")",
            ));
            default
        }
    };
    obj.finish(errors);
    spec
}

/// A VC's start-up option; `base` when absent (`defaults.vc.startup`, else ATM Forum).
fn read_startup(obj: &mut Obj<'_>, base: Startup, errors: &mut Errors) -> Startup {
    match obj.get("startup").map(|v| v.as_str()) {
        None => base,
        Some(Some("atm_forum")) => Startup::AtmForum,
        Some(Some("rate")) => Startup::Rate,
        Some(Some("rm")) => Startup::Rm,
        Some(_) => {
            errors.push(ScenarioError::new(
                obj.at("startup"),
                "must be \"atm_forum\", \"rate\" or \"rm\" (Ma & Ramakrishnan §3)",
            ));
            base
        }
    }
}

pub(super) fn read_vcs(
    items: &[Value],
    node_index: &HashMap<&str, usize>,
    nodes: &[NodeSpec],
    links: &[LinkSpec],
    defaults: &Defaults<'_>,
    errors: &mut Errors,
) -> Vec<VcSpec> {
    let mut base = builtin_vc_params();
    let mut icr_default_given = false;
    let mut base_startup = Startup::AtmForum;
    if let Some(v) = defaults.vc {
        if let Some(mut obj) = Obj::new(v, "defaults.vc", errors) {
            base = read_vc_params(&mut obj, &base, &mut icr_default_given, errors);
            base_startup = read_startup(&mut obj, Startup::AtmForum, errors);
            obj.finish(errors);
        }
    }
    let mut seen = HashMap::new();
    let mut vcs = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = element_path("vcs", i, item);
        let Some(mut obj) = Obj::new(item, &path, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let route = read_path(&mut obj, node_index, nodes, links, errors);
        let mut icr_given = icr_default_given;
        let mut params = read_vc_params(&mut obj, &base, &mut icr_given, errors);
        if !icr_given {
            params.icr_mbps = params.pcr_mbps; // Table 1: ICR defaults to PCR.
        }
        if params.mcr_mbps > params.pcr_mbps {
            errors.push(ScenarioError::new(
                obj.at("mcr_mbps"),
                format!("MCR {} Mbit/s exceeds PCR {} Mbit/s", params.mcr_mbps, params.pcr_mbps),
            ));
        }
        let traffic = read_traffic(obj.get("traffic"), &obj.at("traffic"), errors);
        let startup = read_startup(&mut obj, base_startup, errors);
        let mut bidirectional = obj.flag("bidirectional", errors).unwrap_or(false);
        let reverse_traffic = obj
            .get("reverse_traffic")
            .map(|v| read_traffic(Some(v), &obj.at("reverse_traffic"), errors));
        if matches!(traffic, TrafficSpec::RequestResponse { .. }) {
            // The response comes back on the reverse direction.
            bidirectional = true;
            if reverse_traffic.is_some() {
                errors.push(ScenarioError::new(obj.at("reverse_traffic"), "request_response traffic sets the reverse direction itself; remove reverse_traffic"));
            }
        } else if reverse_traffic.is_some() && !bidirectional {
            errors.push(ScenarioError::new(
                obj.at("reverse_traffic"),
                "is only used with \"bidirectional\": true",
            ));
        }
        obj.get("label");
        obj.finish(errors);
        if let (Some(id), Some(path)) = (id, route) {
            vcs.push(VcSpec { id, path, params, traffic, startup, bidirectional, reverse_traffic });
        }
    }
    vcs
}

/// A VC's path: host, switches…, host, each consecutive pair joined by a link.
pub(super) fn read_path(
    obj: &mut Obj<'_>,
    node_index: &HashMap<&str, usize>,
    nodes: &[NodeSpec],
    links: &[LinkSpec],
    errors: &mut Errors,
) -> Option<Vec<usize>> {
    let topology = PathTopology {
        words: PathWords {
            what: "VCs",
            middle: "switches",
            required: "source host to destination host",
        },
        node_id: &|n| nodes[n].id.clone(),
        is_host: &|n| nodes[n].kind == NodeKind::Host,
        joined: &|x, y| links.iter().any(|l| (l.a == x && l.b == y) || (l.a == y && l.b == x)),
    };
    read_node_path(obj, node_index, &topology, errors)
}
