//! Validation of scenario JSON into a [`Scenario`]. The walk never stops at the
//! first problem: it collects every error with its path (`vcs.vc2.rif: …`), so
//! a user fixes a file in one pass. Unknown keys are errors (tldraw validate).

use super::reader::{clip, describe, Errors, Obj};
use super::registry::{self, Scope};
use super::*;
use crate::cell::net::{Discipline, NodeKind};
use crate::cell::switch_alg::AlgorithmConfig;
use serde_json::Value;
use std::collections::HashMap;

/// Parses and validates scenario text within the default [`Limits`].
pub fn parse_scenario(text: &str) -> Result<Scenario, Vec<ScenarioError>> {
    parse_scenario_with(text, &Limits::default())
}

/// Parses and validates scenario text within `limits`.
pub fn parse_scenario_with(text: &str, limits: &Limits) -> Result<Scenario, Vec<ScenarioError>> {
    let value = strict_json::parse(text, limits.max_input_bytes)?;
    scenario_from_value_with(&value, limits)
}

/// Validates an already-parsed JSON value within the default limits.
pub fn scenario_from_value(value: &Value) -> Result<Scenario, Vec<ScenarioError>> {
    scenario_from_value_with(value, &Limits::default())
}

/// Validates an already-parsed JSON value within `limits`.
pub fn scenario_from_value_with(
    value: &Value,
    limits: &Limits,
) -> Result<Scenario, Vec<ScenarioError>> {
    let mut errors = Errors::new();
    let lists = [
        ("nodes", limits.max_nodes),
        ("links", limits.max_links),
        ("vcs", limits.max_vcs),
        ("background", limits.max_background),
        ("variants", limits.max_variants),
    ];
    refuse_oversized(value, &lists, &mut errors);
    refuse_long_paths(value, &["vcs", "background"], limits, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let scenario = read_scenario(value, &mut errors);
    if let Some(s) = &scenario {
        check_limits(s, limits, &mut errors);
        if errors.is_empty() {
            cost::cell_cost(s).check(s.run.until_ms, limits, &mut errors);
        }
        // The base is sound: each variant is applied and validated in turn (a
        // broken base is reported once, not once more under every variant).
        // A mistake in a thing to try itself does not stop the others being checked.
        if errors.iter().all(|e| e.path.starts_with("things_to_try")) {
            let check = |v: &Value| scenario_from_value_with(v, limits).map(|_| ());
            validate_variants(value, &mut errors, &check);
            validate_things_to_try(value, &mut errors, &check);
        }
    }
    finish(scenario, errors)
}

/// Refuses paths whose nodes, summed over the `lists`' elements, exceed
/// `limits.max_path_nodes` (VCs × path length), before any path is walked.
pub(crate) fn refuse_long_paths(
    value: &Value,
    lists: &[&str],
    limits: &Limits,
    errors: &mut Errors,
) {
    let total: usize = lists
        .iter()
        .filter_map(|key| value.get(*key).and_then(Value::as_array))
        .flatten()
        .filter_map(|item| item.get("path").and_then(Value::as_array).map(Vec::len))
        .sum();
    if total > limits.max_path_nodes {
        errors.push(ScenarioError::new(
            lists[0],
            format!(
                "the paths have {total} nodes in all, more than the limit of {} (limits.max_path_nodes)",
                limits.max_path_nodes
            ),
        ));
    }
}

/// Applies each variant to the whole file and validates the result with the
/// model's own `validate`, reporting a failure under `variants.ID.set`.
/// Checks each thing to try's change (a variant or a set of paths) once the base
/// is sound, as [`validate_variants`] does for variants: the change applied, and
/// the result validated without its own variants, things to try and claims,
/// which the base has already had checked.
pub(crate) fn validate_things_to_try(
    whole: &Value,
    errors: &mut Errors,
    validate: &dyn Fn(&Value) -> Result<(), Vec<ScenarioError>>,
) {
    if whole.get("things_to_try").is_none() {
        return;
    }
    let stripped = |applied: &Value| {
        let mut applied = applied.clone();
        if let Some(map) = applied.as_object_mut() {
            for key in ["variants", "things_to_try", "claims"] {
                map.remove(key);
            }
        }
        validate(&applied)
    };
    let mut scratch = Errors::new();
    let Some(mut root) = Obj::new(whole, "", &mut scratch) else { return };
    // The reading errors were reported when the scenario was read: keep the new ones only.
    read_things_to_try(whole, &mut root, &mut scratch, &stripped);
    for e in scratch {
        if !errors.contains(&e) {
            errors.push(e);
        }
    }
}

pub(crate) fn validate_variants(
    whole: &Value,
    errors: &mut Errors,
    validate: &dyn Fn(&Value) -> Result<(), Vec<ScenarioError>>,
) {
    let Some(items) = whole.get("variants").and_then(Value::as_array) else { return };
    let mut base = whole.clone();
    if let Some(map) = base.as_object_mut() {
        // A variant's document is checked as a scenario of its own: the
        // variants and things to try are the base's, checked once.
        map.remove("variants");
        map.remove("things_to_try");
        // The claims are checked once, against the file as it is.
        map.remove("claims");
    }
    for (i, item) in items.iter().enumerate() {
        let at = element_path("variants", i, item);
        let Some(sets) = item.get("set").and_then(Value::as_object) else { continue };
        let mut applied = base.clone();
        let mut ok = true;
        for (path, v) in sets {
            if let Err(e) = apply_set(&mut applied, path, &v.to_string()) {
                errors.push(ScenarioError::new(format!("{at}.set.{path}"), e.message));
                ok = false;
            }
        }
        if ok {
            if let Err(inner) = validate(&applied) {
                for e in inner {
                    errors.push(ScenarioError::new(format!("{at}.set"), format!("makes {e}")));
                }
            }
        }
    }
}

/// Refuses lists longer than their limit, before anything walks or expands them.
pub(crate) fn refuse_oversized(value: &Value, lists: &[(&str, usize)], errors: &mut Errors) {
    for &(key, max) in lists {
        if let Some(n) = value.get(key).and_then(Value::as_array).map(Vec::len).filter(|&n| n > max)
        {
            errors.push(ScenarioError::new(
                key,
                format!("{n} entries exceed the limit of {max} (limits.max_{key})"),
            ));
        }
    }
}

/// The outcome of reading a whole scenario: it, if it read with no error.
pub(crate) fn finish<S>(scenario: Option<S>, mut errors: Errors) -> Result<S, Vec<ScenarioError>> {
    match scenario {
        Some(s) if errors.is_empty() => Ok(s),
        _ => {
            if errors.is_empty() {
                errors.push(ScenarioError::new("", "the scenario is not an object"));
            }
            Err(errors)
        }
    }
}

/// The path of an array element: by its id when it has a usable one.
pub(crate) fn element_path(array_path: &str, index: usize, value: &Value) -> String {
    match value.get("id").and_then(Value::as_str) {
        Some(id) if valid_id(id) => format!("{array_path}.{id}"),
        _ => format!("{array_path}[{index}]"),
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

pub(crate) fn array<'a>(obj: &mut Obj<'a>, key: &'static str, errors: &mut Errors) -> &'a [Value] {
    match obj.get(key) {
        Some(Value::Array(items)) => items,
        Some(other) => {
            errors.push(ScenarioError::new(
                obj.at(key),
                format!("expected an array, found {}", describe(other)),
            ));
            &[]
        }
        None => {
            errors.push(ScenarioError::new(obj.at(key), "is required"));
            &[]
        }
    }
}

pub(crate) fn read_id(
    obj: &mut Obj<'_>,
    seen: &mut HashMap<String, usize>,
    index: usize,
    errors: &mut Errors,
) -> Option<String> {
    let id = obj.required_string("id", errors)?;
    if !valid_id(&id) {
        errors.push(ScenarioError::new(
            obj.at("id"),
            format!("'{}' is not a valid id: use 1–64 letters, digits, '-' or '_'", clip(&id)),
        ));
        return None;
    }
    if let Some(first) = seen.insert(id.clone(), index) {
        errors.push(ScenarioError::new(
            obj.at("id"),
            format!("duplicate id '{id}' (also element {first})"),
        ));
        return None;
    }
    Some(id)
}

fn read_scenario(value: &Value, errors: &mut Errors) -> Option<Scenario> {
    let mut root = Obj::new(value, "", errors)?;
    match root.get("format").map(|v| v.as_str()) {
        Some(Some(FORMAT)) => {}
        Some(_) => errors.push(ScenarioError::new("format", format!("must be \"{FORMAT}\""))),
        None => errors.push(ScenarioError::new("format", format!("is required: \"{FORMAT}\""))),
    }
    match root.get("version").map(Value::as_u64) {
        Some(Some(VERSION)) => {}
        Some(Some(v)) if v > VERSION => errors.push(ScenarioError::new(
            "version",
            format!("{v} is newer than this engine understands (up to {VERSION})"),
        )),
        Some(_) => errors.push(ScenarioError::new("version", format!("must be {VERSION}"))),
        None => errors.push(ScenarioError::new("version", format!("is required: {VERSION}"))),
    }
    let mut meta = Meta {
        id: root.string("id", errors).unwrap_or_default(),
        title: root.string("title", errors).unwrap_or_default(),
        paper: root.string("paper", errors).unwrap_or_default(),
        explanation: root.string("explanation", errors).unwrap_or_default(),
        things_to_try: Vec::new(),
        variants: Vec::new(),
    };
    read_tags(&mut root, errors);
    let run = read_run(root.get("run"), errors);

    let defaults = read_defaults(root.get("defaults"), errors);
    let nodes = read_nodes(array(&mut root, "nodes", errors), errors);
    let node_index: HashMap<&str, usize> =
        nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let links =
        read_links(array(&mut root, "links", errors), &node_index, &defaults, &nodes, errors);
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
    // Scenarios may carry view state for the UI; the engine ignores it.
    root.get("view");
    // Things to try are read here and checked with their change applied once the
    // whole base is sound (see `validate_things_to_try`), like the variants.
    meta.variants = read_variants(value, &mut root, errors);
    meta.things_to_try = read_things_to_try(value, &mut root, errors, &|_| Ok(()));
    crate::claims::read_root_claims(&mut root, &meta.variants, errors);
    root.finish(errors);

    check_vcs(&vcs, &links, &nodes, &mut warnings);
    Some(Scenario { meta, run: run?, nodes, links, vcs, background, warnings })
}

/// `variants`: `[{id, label, set: {path: value}}]`. Each variant is applied
/// to the scenario and the result validated, so a broken variant is reported
/// when the file loads, not when someone picks it.
fn read_variants(whole: &Value, root: &mut Obj<'_>, errors: &mut Errors) -> Vec<Variant> {
    // Each variant is validated after the base (see `validate_variants`).
    read_variants_checked(whole, root, errors, &|_| Ok(()))
}

/// [`read_variants`] with the model's own validation of each variant (the
/// packet model passes its parser).
pub(crate) fn read_variants_checked(
    whole: &Value,
    root: &mut Obj<'_>,
    errors: &mut Errors,
    validate: &dyn Fn(&Value) -> Result<(), Vec<ScenarioError>>,
) -> Vec<Variant> {
    let items = optional_array(root, "variants", errors);
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = element_path("variants", i, item);
        let Some(mut obj) = Obj::new(item, &at, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let label = obj.string("label", errors);
        let set_ok = match obj.get("set") {
            Some(Value::Object(_)) => true,
            _ => {
                errors.push(ScenarioError::new(
                    obj.at("set"),
                    "is required: an object of dotted paths to values",
                ));
                false
            }
        };
        obj.finish(errors);
        let Some(id) = id else { continue };
        if set_ok {
            let mut applied = whole.clone();
            if let Some(map) = applied.as_object_mut() {
                map.remove("variants");
                // The claims are checked once, against the file as it is.
                map.remove("claims");
                map.insert("variants".into(), Value::Array(vec![item.clone()]));
            }
            match apply_variant(&mut applied, &id) {
                Err(e) => errors.push(e),
                Ok(()) => check_applied(applied, &format!("{at}.set"), validate, errors),
            }
        }
        out.push(Variant { label: label.unwrap_or_else(|| id.clone()), id });
    }
    out
}

/// `tags`: topics a person would look a scenario up by ("RIF", "Satellite
/// links"), for the library's topic list. Short non-empty strings.
pub(crate) fn read_tags(root: &mut Obj<'_>, errors: &mut Errors) {
    let at = root.at("tags");
    for (i, tag) in read_strings(root, "tags", errors).iter().enumerate() {
        let len = tag.trim().chars().count();
        if len == 0 || len > 40 {
            errors.push(ScenarioError::new(
                format!("{at}[{i}]"),
                format!("'{tag}' is not a tag: use 1–40 characters"),
            ));
        }
    }
}

/// `things_to_try`: each a sentence, or `{text, variant?, set?}` where the
/// change the sentence suggests is one of the file's variants (by id) or a
/// map of dotted paths to values (the `--set` grammar). The change is applied
/// and the result validated, like a variant, so a suggestion that cannot run
/// is reported when the file loads. Returns the sentences.
pub(crate) fn read_things_to_try(
    whole: &Value,
    root: &mut Obj<'_>,
    errors: &mut Errors,
    validate: &dyn Fn(&Value) -> Result<(), Vec<ScenarioError>>,
) -> Vec<String> {
    let items = optional_array(root, "things_to_try", errors);
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("things_to_try[{i}]");
        if let Some(text) = item.as_str() {
            out.push(text.to_string());
            continue;
        }
        let Some(mut obj) = Obj::new(item, &at, errors) else { continue };
        let text = obj.required_string("text", errors);
        let variant = obj.string("variant", errors);
        let set = match obj.get("set") {
            None => None,
            Some(Value::Object(map)) if !map.is_empty() => Some(map),
            Some(_) => {
                errors.push(ScenarioError::new(
                    obj.at("set"),
                    "expected a non-empty object of dotted paths to values",
                ));
                None
            }
        };
        obj.finish(errors);
        if variant.is_some() && set.is_some() {
            errors.push(ScenarioError::new(at.clone(), "give a variant or a set, not both"));
        } else if variant.is_some() || set.is_some() {
            let mut applied = whole.clone();
            let result = match (&variant, set) {
                (Some(id), _) => apply_variant(&mut applied, id)
                    .map_err(|e| ScenarioError::new(format!("{at}.variant"), e.message)),
                (None, Some(map)) => map.iter().try_for_each(|(path, value)| {
                    apply_set(&mut applied, path, &value.to_string())
                        .map_err(|e| ScenarioError::new(format!("{at}.set.{path}"), e.message))
                }),
                (None, None) => Ok(()),
            };
            match result {
                Err(e) => errors.push(e),
                Ok(()) => check_applied(applied, &at, validate, errors),
            }
        }
        out.extend(text);
    }
    out
}

/// An optional array at `key`: empty when absent, an error when not an array.
fn optional_array<'a>(root: &mut Obj<'a>, key: &'static str, errors: &mut Errors) -> &'a [Value] {
    match root.get(key) {
        None => &[],
        Some(Value::Array(items)) => items,
        Some(other) => {
            errors.push(ScenarioError::new(
                key,
                format!("expected an array, found {}", describe(other)),
            ));
            &[]
        }
    }
}

/// Validates a scenario with a variant or a thing to try applied; each
/// problem is reported under `at` as "makes …". The variants and things to
/// try of the result are left out (each is checked on its own).
fn check_applied(
    mut applied: Value,
    at: &str,
    validate: &dyn Fn(&Value) -> Result<(), Vec<ScenarioError>>,
    errors: &mut Errors,
) {
    if let Some(map) = applied.as_object_mut() {
        map.remove("variants");
        map.remove("things_to_try");
    }
    if let Err(inner) = validate(&applied) {
        for e in inner {
            errors.push(ScenarioError::new(at, format!("makes {e}")));
        }
    }
}

pub(crate) fn read_strings(
    obj: &mut Obj<'_>,
    key: &'static str,
    errors: &mut Errors,
) -> Vec<String> {
    match obj.get(key) {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| match v.as_str() {
                Some(s) => Some(s.to_string()),
                None => {
                    errors.push(ScenarioError::new(
                        format!("{}[{i}]", obj.at(key)),
                        "expected a string",
                    ));
                    None
                }
            })
            .collect(),
        Some(other) => {
            errors.push(ScenarioError::new(
                obj.at(key),
                format!("expected an array of strings, found {}", describe(other)),
            ));
            Vec::new()
        }
    }
}

pub(crate) fn read_run(value: Option<&Value>, errors: &mut Errors) -> Option<RunSpec> {
    let default = |k| registry::spec(Scope::Run, k).default;
    let mut run = RunSpec {
        until_ms: default("until_ms"),
        seed: default("seed") as u64,
        sample_interval_ms: default("sample_interval_ms"),
    };
    if let Some(v) = value {
        let mut obj = Obj::new(v, "run", errors)?;
        if let Some(x) = obj.param(Scope::Run, "until_ms", errors) {
            run.until_ms = x;
        }
        if let Some(x) = obj.param(Scope::Run, "seed", errors) {
            run.seed = x as u64;
        }
        if let Some(x) = obj.param(Scope::Run, "sample_interval_ms", errors) {
            run.sample_interval_ms = x;
        }
        obj.finish(errors);
    }
    Some(run)
}

/// Defaults that VCs and ports inherit, already validated.
struct Defaults<'a> {
    vc: Option<&'a Value>,
    switch_port: Option<&'a Value>,
    host_port: Option<&'a Value>,
}

fn read_defaults<'a>(value: Option<&'a Value>, errors: &mut Errors) -> Defaults<'a> {
    let mut d = Defaults { vc: None, switch_port: None, host_port: None };
    if let Some(v) = value {
        if let Some(mut obj) = Obj::new(v, "defaults", errors) {
            d.vc = obj.get("vc");
            d.switch_port = obj.get("switch_port");
            d.host_port = obj.get("host_port");
            obj.finish(errors);
        }
    }
    d
}

fn read_nodes(items: &[Value], errors: &mut Errors) -> Vec<NodeSpec> {
    read_node_entries(items, [("host", NodeKind::Host), ("switch", NodeKind::Switch)], errors)
        .into_iter()
        .map(|(id, kind, x, y)| NodeSpec { id, kind, x, y })
        .collect()
}

/// Reads `nodes` for either model: each an `id`, one of the model's two
/// `kinds` (a host and its forwarding node), a position and an optional
/// label. Returns (id, kind, x, y) of each node that reads whole.
pub(crate) fn read_node_entries<K: Copy>(
    items: &[Value],
    kinds: [(&'static str, K); 2],
    errors: &mut Errors,
) -> Vec<(String, K, f64, f64)> {
    let choices = format!("\"{}\" or \"{}\"", kinds[0].0, kinds[1].0);
    let mut seen = HashMap::new();
    let mut nodes = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = element_path("nodes", i, item);
        let Some(mut obj) = Obj::new(item, &path, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let kind = match obj.get("kind").map(|v| v.as_str()) {
            Some(name) => {
                let kind = kinds.iter().find(|&&(k, _)| Some(k) == name).map(|&(_, kind)| kind);
                if kind.is_none() {
                    errors.push(ScenarioError::new(obj.at("kind"), format!("must be {choices}")));
                }
                kind
            }
            None => {
                errors.push(ScenarioError::new(obj.at("kind"), format!("is required: {choices}")));
                None
            }
        };
        let x = obj.plain_number("x", errors).unwrap_or(0.0);
        let y = obj.plain_number("y", errors).unwrap_or(0.0);
        obj.get("label");
        obj.finish(errors);
        if let (Some(id), Some(kind)) = (id, kind) {
            nodes.push((id, kind, x, y));
        }
    }
    nodes
}

/// Reads a port object over `base`; keys present in the object win.
fn read_port(value: Option<&Value>, path: &str, base: &PortSpec, errors: &mut Errors) -> PortSpec {
    let mut port = base.clone();
    let Some(v) = value else { return port };
    let Some(mut obj) = Obj::new(v, path, errors) else { return port };
    if let Some(x) = obj.param(Scope::Port, "buffer_cells", errors) {
        port.buffer_cells = x as u32;
    }
    if let Some(x) = obj.param(Scope::Port, "setup_ms", errors) {
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

/// The fields every link has in either model: its two ends (node ids that
/// must exist and differ), its rate and its propagation delay (given as
/// length_km or delay_ms, not both). Each is None when missing or invalid.
pub(crate) struct LinkBasics {
    pub a: Option<usize>,
    pub b: Option<usize>,
    pub rate_mbps: Option<f64>,
    pub delay_ms: Option<f64>,
}

/// Reads [`LinkBasics`] from a link object, recording every problem.
pub(crate) fn read_link_basics(
    obj: &mut Obj<'_>,
    node_index: &HashMap<&str, usize>,
    errors: &mut Errors,
) -> LinkBasics {
    let mut end = |key: &'static str, obj: &mut Obj<'_>| -> Option<usize> {
        let name = obj.required_string(key, errors)?;
        match node_index.get(name.as_str()) {
            Some(&n) => Some(n),
            None => {
                errors.push(ScenarioError::new(
                    obj.at(key),
                    format!("no node with id '{}'", clip(&name)),
                ));
                None
            }
        }
    };
    let a = end("a", obj);
    let b = end("b", obj);
    if let (Some(a), Some(b)) = (a, b) {
        if a == b {
            errors.push(ScenarioError::new(obj.at("b"), "a link cannot connect a node to itself"));
        }
    }
    let rate = obj.param(Scope::Link, "rate_mbps", errors);
    if rate.is_none() && obj.map.get("rate_mbps").is_none() {
        errors.push(ScenarioError::new(obj.at("rate_mbps"), "is required"));
    }
    let length = obj.param(Scope::Link, "length_km", errors);
    let delay = obj.param(Scope::Link, "delay_ms", errors);
    let delay_ms = match (length, delay) {
        (Some(_), Some(_)) => {
            errors.push(ScenarioError::new(
                obj.at("delay_ms"),
                "give length_km or delay_ms, not both",
            ));
            None
        }
        (Some(km), None) => Some(km * 0.005),
        (None, Some(ms)) => Some(ms),
        (None, None) => {
            if !obj.map.contains_key("length_km") && !obj.map.contains_key("delay_ms") {
                errors.push(ScenarioError::new(obj.at("length_km"), "is required (or delay_ms)"));
            }
            None
        }
    };
    LinkBasics { a, b, rate_mbps: rate, delay_ms }
}

fn read_links(
    items: &[Value],
    node_index: &HashMap<&str, usize>,
    defaults: &Defaults<'_>,
    nodes: &[NodeSpec],
    errors: &mut Errors,
) -> Vec<LinkSpec> {
    let builtin = PortSpec {
        buffer_cells: registry::spec(Scope::Port, "buffer_cells").default as u32,
        setup_ms: registry::spec(Scope::Port, "setup_ms").default,
        discipline: Discipline::Fifo,
        algorithm: AlgorithmConfig::None,
    };
    let switch_port = read_port(defaults.switch_port, "defaults.switch_port", &builtin, errors);
    let host_base = PortSpec { buffer_cells: 4_000_000, setup_ms: 0.0, ..builtin };
    let host_port = read_port(defaults.host_port, "defaults.host_port", &host_base, errors);

    let mut seen = HashMap::new();
    let mut links = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = element_path("links", i, item);
        let Some(mut obj) = Obj::new(item, &path, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let LinkBasics { a, b, rate_mbps: rate, delay_ms } =
            read_link_basics(&mut obj, node_index, errors);
        let base_for = |n: Option<usize>| match n.map(|n| nodes[n].kind) {
            Some(NodeKind::Host) => &host_port,
            _ => &switch_port,
        };
        let ab = read_port(obj.get("a_to_b"), &obj.at("a_to_b"), base_for(a), errors);
        let ba = read_port(obj.get("b_to_a"), &obj.at("b_to_a"), base_for(b), errors);
        obj.finish(errors);
        if let (Some(id), Some(a), Some(b), Some(rate_mbps), Some(delay_ms)) =
            (id, a, b, rate, delay_ms)
        {
            links.push(LinkSpec { id, a, b, rate_mbps, delay_ms, ports: [ab, ba] });
        }
    }
    links
}

fn read_vc_params(
    obj: &mut Obj<'_>,
    base: &VcParams,
    icr_given: &mut bool,
    errors: &mut Errors,
) -> VcParams {
    let mut p = base.clone();
    macro_rules! field {
        ($key:literal, $field:ident, $conv:expr) => {
            if let Some(x) = obj.param(Scope::Vc, $key, errors) {
                p.$field = $conv(x);
            }
        };
    }
    field!("pcr_mbps", pcr_mbps, |x| x);
    field!("mcr_mbps", mcr_mbps, |x| x);
    if let Some(x) = obj.param(Scope::Vc, "icr_mbps", errors) {
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
    if let Some(x) = obj.param(Scope::Vc, "crm", errors) {
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

fn builtin_vc_params() -> VcParams {
    let d = |k| registry::spec(Scope::Vc, k).default;
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
        "algorithms": crate::cell::switch_alg::ALGORITHM_KINDS,
        "queues": QUEUE_DISCIPLINES,
        "traffic": TRAFFIC_MODELS.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
        "traffic_keys": TRAFFIC_MODELS.iter().map(|(m, keys)| (m.to_string(), serde_json::json!(keys))).collect::<serde_json::Map<_, _>>(),
        "startup": STARTUP_OPTIONS,
        "background": BACKGROUND_KINDS,
    })
}

fn read_traffic(value: Option<&Value>, path: &str, errors: &mut Errors) -> TrafficSpec {
    let default = TrafficSpec::Persistent { start_ms: 0.0, stop_ms: None };
    let Some(v) = value else { return default };
    let Some(mut obj) = Obj::new(v, path, errors) else { return default };
    let start_ms = obj.param(Scope::Traffic, "start_ms", errors).unwrap_or(0.0);
    let stop_ms = obj.param(Scope::Traffic, "stop_ms", errors);
    if let Some(stop) = stop_ms {
        if stop <= start_ms {
            errors.push(ScenarioError::new(
                obj.at("stop_ms"),
                format!("{stop} ms is not after start_ms {start_ms} ms"),
            ));
        }
    }
    let mut num = |key: &'static str, obj: &mut Obj<'_>| {
        obj.param(Scope::Traffic, key, errors)
            .unwrap_or(registry::spec(Scope::Traffic, key).default)
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

fn read_background(
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
        let rate = obj.param(Scope::Background, "rate_mbps", errors);
        if rate.is_none() && !obj.map.contains_key("rate_mbps") {
            errors.push(ScenarioError::new(obj.at("rate_mbps"), "is required"));
        }
        let on_ms = obj.param(Scope::Background, "on_ms", errors);
        let off_ms = obj.param(Scope::Background, "off_ms", errors).unwrap_or(0.0);
        let phase_ms = obj.param(Scope::Background, "phase_ms", errors).unwrap_or(0.0);
        let start_ms = obj.param(Scope::Background, "start_ms", errors).unwrap_or(0.0);
        let stop_ms = obj.param(Scope::Background, "stop_ms", errors);
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

fn read_vcs(
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
pub(crate) fn read_path(
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

/// How a model names the things on a path, for its messages.
pub(crate) struct PathWords {
    /// What travels the path ("VCs", "flows").
    pub what: &'static str,
    /// What may stand between the hosts ("switches", "routers").
    pub middle: &'static str,
    /// The ends, as the "is required" message names them.
    pub required: &'static str,
}

/// What a path check needs to know of a model's topology.
pub(crate) struct PathTopology<'a> {
    pub words: PathWords,
    pub node_id: &'a dyn Fn(usize) -> String,
    pub is_host: &'a dyn Fn(usize) -> bool,
    pub joined: &'a dyn Fn(usize, usize) -> bool,
}

/// A path of node ids, in either model: 2 to 64 known nodes, hosts at both
/// ends and only there, no node twice, each consecutive pair joined by a link.
pub(crate) fn read_node_path(
    obj: &mut Obj<'_>,
    node_index: &HashMap<&str, usize>,
    t: &PathTopology<'_>,
    errors: &mut Errors,
) -> Option<Vec<usize>> {
    let at = obj.at("path");
    let items = match obj.get("path") {
        Some(Value::Array(items)) => items,
        Some(other) => {
            errors.push(ScenarioError::new(
                at,
                format!("expected an array of node ids, found {}", describe(other)),
            ));
            return None;
        }
        None => {
            errors.push(ScenarioError::new(
                at,
                format!("is required: the node ids from {}", t.words.required),
            ));
            return None;
        }
    };
    if items.len() < 2 || items.len() > 64 {
        errors.push(ScenarioError::new(
            at,
            format!(
                "has {} nodes; needs 2 to 64 (a source, a destination, and what lies between)",
                items.len()
            ),
        ));
        return None;
    }
    let mut path = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.as_str().and_then(|s| node_index.get(s)) {
            Some(&n) => path.push(n),
            None => {
                errors.push(ScenarioError::new(
                    format!("{at}[{i}]"),
                    format!("{} is not a node id", describe(item)),
                ));
                return None;
            }
        }
    }
    let last = path.len() - 1;
    for (i, &n) in path.iter().enumerate() {
        let host = (t.is_host)(n);
        let problem = if (i == 0 || i == last) && !host {
            Some(format!(
                "'{}' must be a host ({} start and end at hosts)",
                (t.node_id)(n),
                t.words.what
            ))
        } else if i != 0 && i != last && host {
            Some(format!(
                "'{}' is a host; only {} may be in the middle of a path",
                (t.node_id)(n),
                t.words.middle
            ))
        } else if path[..i].contains(&n) {
            Some(format!("'{}' appears twice: a path may not loop", (t.node_id)(n)))
        } else {
            None
        };
        if let Some(message) = problem {
            errors.push(ScenarioError::new(format!("{at}[{i}]"), message));
            return None;
        }
    }
    for (i, pair) in path.windows(2).enumerate() {
        if !(t.joined)(pair[0], pair[1]) {
            errors.push(ScenarioError::new(
                format!("{at}[{}]", i + 1),
                format!("no link joins '{}' and '{}'", (t.node_id)(pair[0]), (t.node_id)(pair[1])),
            ));
            return None;
        }
    }
    Some(path)
}

/// A source cannot send faster than its first link: a host's interface
/// serialises at the link rate, so a faster source is capped there, with a
/// warning (SPEC §12), rather than simulated cell by cell into a host queue
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

/// The whole-run ceilings: VC loops, run length, and the cell slots the
/// network offers over the run.
fn check_limits(s: &Scenario, limits: &Limits, errors: &mut Errors) {
    let loops: usize = s.vcs.iter().map(|v| 1 + v.bidirectional as usize).sum();
    if loops > limits.max_vcs {
        errors.push(ScenarioError::new("vcs", format!("{loops} VC loops (bidirectional VCs count twice) exceed the limit of {} (limits.max_vcs)", limits.max_vcs)));
    }
    check_run_limits(s.run.until_ms, s.links.iter().map(|l| l.rate_mbps), limits, errors);
}

/// The ceilings on a run of either model: its length, and the cell slots
/// (transmissions of a cell's size) its links offer over it, both ways.
pub(crate) fn check_run_limits(
    until_ms: f64,
    link_rates_mbps: impl Iterator<Item = f64>,
    limits: &Limits,
    errors: &mut Errors,
) {
    if until_ms > limits.max_until_ms {
        errors.push(ScenarioError::new(
            "run.until_ms",
            format!(
                "{until_ms} ms exceeds the limit of {} ms of simulated time (limits.max_until_ms)",
                limits.max_until_ms
            ),
        ));
    }
    let slots: f64 =
        link_rates_mbps.map(|r| 2.0 * crate::time::mbps_to_cells_per_s(r)).sum::<f64>() * until_ms
            / 1000.0;
    if slots > limits.max_cell_slots {
        errors.push(ScenarioError::new(
            "run.until_ms",
            format!(
                "the links could carry {slots:.2e} cells over {until_ms} ms, more than the limit of {:.2e} (limits.max_cell_slots): shorten the run or slow the links",
                limits.max_cell_slots
            ),
        ));
    }
}

/// Legal but suspicious settings: warn and suggest a fix (Observable Plot warnings).
fn check_vcs(
    vcs: &[VcSpec],
    links: &[LinkSpec],
    nodes: &[NodeSpec],
    warnings: &mut Vec<ScenarioError>,
) {
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
        let _ = nodes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn minimal() -> Value {
        json!({
            "format": FORMAT, "version": 1, "id": "t",
            "nodes": [
                {"id": "S1", "kind": "host"}, {"id": "SW1", "kind": "switch"}, {"id": "D1", "kind": "host"}
            ],
            "links": [
                {"id": "l1", "a": "S1", "b": "SW1", "rate_mbps": 155.52, "length_km": 1},
                {"id": "l2", "a": "SW1", "b": "D1", "rate_mbps": 155.52, "delay_ms": 1}
            ],
            "vcs": [ {"id": "vc1", "path": ["S1", "SW1", "D1"]} ]
        })
    }

    fn errors_of(v: Value) -> Vec<String> {
        scenario_from_value(&v).unwrap_err().iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn things_to_try_carry_a_checked_change_and_tags_are_read() {
        let mut v = minimal();
        v["variants"] = json!([{"id": "nrm8", "label": "Nrm 8", "set": {"defaults.vc.nrm": 8}}]);
        v["tags"] = json!(["RIF", "Two-source WAN"]);
        v["things_to_try"] = json!([
            "Just read this.",
            {"text": "Use Nrm 8.", "variant": "nrm8"},
            {"text": "RIF 1/512.", "set": {"vcs.vc1.rif": 0.001953125}}
        ]);
        let s = scenario_from_value(&v).unwrap();
        assert_eq!(s.meta.things_to_try, ["Just read this.", "Use Nrm 8.", "RIF 1/512."]);

        let mut bad_tag = v.clone();
        bad_tag["tags"] = json!([""]);
        let errs = errors_of(bad_tag);
        assert!(errs.iter().any(|e| e.starts_with("tags[0]: '' is not a tag")), "{errs:?}");

        v["things_to_try"] = json!([
            {"text": "No such variant.", "variant": "nope"},
            {"text": "A bad value.", "set": {"vcs.vc1.rif": 0.3}},
            {"text": "Both.", "variant": "nrm8", "set": {"vcs.vc1.rif": 1}},
            {"set": {"vcs.vc1.rif": 1}}
        ]);
        let errs = errors_of(v.clone());
        assert!(
            errs.iter().any(|e| e.starts_with("things_to_try[0].variant: no variant 'nope'")),
            "{errs:?}"
        );
        assert!(
            errs.iter()
                .any(|e| e
                    .starts_with("things_to_try[1]: makes vcs.vc1.rif: 0.3 is not a power of two")),
            "{errs:?}"
        );
        assert!(
            errs.iter().any(|e| e == "things_to_try[2]: give a variant or a set, not both"),
            "{errs:?}"
        );
        assert!(
            errs.iter().any(|e| e.starts_with("things_to_try[3].text: is required")),
            "{errs:?}"
        );

        // A broken base is reported once, not again under every thing to try.
        v["things_to_try"] = json!([{"text": "RIF 1.", "set": {"vcs.vc1.rif": 1}}]);
        v["vcs"][0]["nrm"] = json!("banana");
        let errs = errors_of(v);
        assert_eq!(errs.len(), 1, "{errs:?}");
    }

    #[test]
    fn a_minimal_scenario_gets_table_1_defaults() {
        let s = scenario_from_value(&minimal()).unwrap();
        let p = &s.vcs[0].params;
        assert_eq!((p.nrm, p.mrm, p.rif, p.icr_mbps), (32, 2, 1.0 / 16.0, 155.52));
        assert_eq!(s.links[0].delay_ms, 0.005);
        // l1 a→b leaves host S1; l2 b→a leaves host D1; the others leave SW1.
        assert_eq!(s.links[0].ports[0].buffer_cells, 4_000_000);
        assert_eq!(s.links[1].ports[1].buffer_cells, 4_000_000);
        assert_eq!(s.links[0].ports[1].buffer_cells, 100_000);
        assert_eq!(s.links[1].ports[0].buffer_cells, 100_000);
    }

    #[test]
    fn every_error_is_reported_with_its_path() {
        let mut v = minimal();
        v["vcs"][0]["rif"] = json!(0.3);
        v["vcs"][0]["nrm"] = json!(33);
        v["links"][1]["rate_mbps"] = json!(0);
        v["links"][0]["colour"] = json!("red");
        let errs = errors_of(v);
        assert!(
            errs.contains(
                &"vcs.vc1.rif: 0.3 is not a power of two between 1/32768 and 1".to_string()
            ),
            "{errs:?}"
        );
        assert!(
            errs.iter().any(|e| e.starts_with("vcs.vc1.nrm: 33 is not a power of two")),
            "{errs:?}"
        );
        assert!(errs.iter().any(|e| e.starts_with("links.l2.rate_mbps: 0")), "{errs:?}");
        assert!(
            errs.iter().any(|e| e.starts_with("links.l1.colour: unknown key 'colour'")),
            "{errs:?}"
        );
    }

    #[test]
    fn bad_paths_are_refused() {
        let mut v = minimal();
        v["vcs"][0]["path"] = json!(["S1", "D1"]);
        assert!(errors_of(v)[0].contains("no link joins 'S1' and 'D1'"));
        let mut v = minimal();
        v["vcs"][0]["path"] = json!(["SW1", "D1"]);
        assert!(errors_of(v)[0].contains("must be a host"));
        let mut v = minimal();
        v["vcs"][0]["path"] = json!(["S1", "SW1", "S1"]);
        assert!(errors_of(v)[0].contains("appears twice"));
    }

    #[test]
    fn duplicate_ids_and_wrong_types() {
        let mut v = minimal();
        v["nodes"][2]["id"] = json!("S1");
        assert!(errors_of(v).iter().any(|e| e.contains("duplicate id 'S1'")));
        let mut v = minimal();
        v["links"] = json!("none");
        assert!(errors_of(v).iter().any(|e| e == "links: expected an array, found \"none\""));
        assert!(errors_of(json!([1, 2]))[0].contains("expected an object"));
        assert!(parse_scenario("{ nope").unwrap_err()[0].message.starts_with("not valid JSON"));
    }

    #[test]
    fn unknown_algorithm_and_version() {
        let mut v = minimal();
        v["defaults"] = json!({"switch_port": {"algorithm": {"kind": "magic"}}});
        v["version"] = json!(9);
        let errs = errors_of(v);
        assert!(
            errs.iter().any(|e| e
                .starts_with("defaults.switch_port.algorithm.kind: unknown algorithm \"magic\"")),
            "{errs:?}"
        );
        assert!(errs.iter().any(|e| e.starts_with("version: 9 is newer")), "{errs:?}");
    }

    #[test]
    fn mcr_above_pcr_is_impossible_and_pcr_above_the_link_warns() {
        let mut v = minimal();
        v["vcs"][0]["mcr_mbps"] = json!(200);
        assert!(errors_of(v).iter().any(|e| e.starts_with("vcs.vc1.mcr_mbps: MCR 200")));
        let mut v = minimal();
        v["vcs"][0]["pcr_mbps"] = json!(622.08);
        v["vcs"][0]["mcr_mbps"] = json!(1);
        let s = scenario_from_value(&v).unwrap();
        assert!(s.warnings[0].message.contains("negotiated down"));
    }
}
