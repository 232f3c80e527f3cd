//! The envelope every scenario has, whichever model it describes: `format`
//! and `version`, the meta text, `tags`, `run`, `variants` and
//! `things_to_try`, and the whole-document guards (list sizes, path lengths,
//! the run's ceilings). Each model's walk reads its own keys between
//! [`read_format`]/[`read_meta`] and the variants, and passes its own
//! validation to the checks that apply a variant or a thing to try.

use super::claims::checks::read_checks;
use super::reader::{describe, Errors, Obj};
pub(crate) use super::reader::{element_path, read_id};
use super::registry::{self, Scope};
use super::{
    apply_set, apply_variant, Limits, Meta, RunSpec, ScenarioError, Variant, FORMAT, VERSION,
};
use serde_json::Value;
use std::collections::HashMap;

/// Checks `format` and `version`, the first keys of every scenario.
pub fn read_format(root: &mut Obj<'_>, errors: &mut Errors) {
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
}

/// Reads the text shown beside a scenario (`id`, `title`, `paper`,
/// `explanation`, `tags`) and its `run`; the variants and things to try are
/// read after the model's own keys.
pub fn read_meta(root: &mut Obj<'_>, errors: &mut Errors) -> (Meta, Option<RunSpec>) {
    let meta = Meta {
        id: root.string("id", errors).unwrap_or_default(),
        title: root.string("title", errors).unwrap_or_default(),
        paper: root.string("paper", errors).unwrap_or_default(),
        explanation: root.string("explanation", errors).unwrap_or_default(),
        things_to_try: Vec::new(),
        variants: Vec::new(),
        stops: Vec::new(),
        questions: Vec::new(),
    };
    read_tags(root, errors);
    let run = read_run(root.get("run"), errors);
    (meta, run)
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

/// The root object of a scenario file of either model, its `format` and
/// `version` read.
pub(crate) fn open_root<'a>(value: &'a Value, errors: &mut Errors) -> Option<Obj<'a>> {
    let mut root = Obj::new(value, "", errors)?;
    read_format(&mut root, errors);
    Some(root)
}

/// Checks, once the base is sound, each variant and each thing to try of
/// `whole` with its change applied ([`validate_variants`],
/// [`validate_things_to_try`]), by `validate`: the model's own reader.
pub(crate) fn validate_alternatives(
    whole: &Value,
    errors: &mut Errors,
    validate: &dyn Fn(&Value) -> Result<(), Vec<ScenarioError>>,
) {
    validate_variants(whole, errors, validate);
    validate_things_to_try(whole, errors, validate);
}

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

/// Applies each variant to the whole file and validates the result with the
/// model's own `validate`, reporting a failure under `variants.ID.set`.
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

/// `things_to_try`: each a sentence, or `{text, variant?, set?, checks?}` where the
/// change the sentence suggests is one of the file's variants (by id) or a
/// map of dotted paths to values (the `--set` grammar). The change is applied
/// and the result validated, like a variant, so a suggestion that cannot run
/// is reported when the file loads; `checks` are read as
/// [`read_checks`] says. Returns the sentences.
pub(crate) fn read_things_to_try(
    whole: &Value,
    root: &mut Obj<'_>,
    errors: &mut Errors,
    validate: &dyn Fn(&Value) -> Result<(), Vec<ScenarioError>>,
) -> Vec<String> {
    let items = optional_array(root, "things_to_try", errors);
    let variant_ids = super::claims::variant_ids(whole);
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
        // As with claims, a window past the end is left unjudged here (a run
        // shortened with --until); the library's test holds each to its run.
        let checks = obj.get("checks");
        let sentence = text.as_deref().unwrap_or("");
        read_checks(checks, &at, sentence, &variant_ids, None, errors);
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
    let default = |k| registry::shared(Scope::Run, k).default;
    let mut run = RunSpec {
        until_ms: default("until_ms"),
        seed: default("seed") as u64,
        sample_interval_ms: default("sample_interval_ms"),
    };
    if let Some(v) = value {
        let mut obj = Obj::new(v, "run", errors)?;
        if let Some(x) = obj.param(registry::shared(Scope::Run, "until_ms"), errors) {
            run.until_ms = x;
        }
        if let Some(x) = obj.param(registry::shared(Scope::Run, "seed"), errors) {
            run.seed = x as u64;
        }
        if let Some(x) = obj.param(registry::shared(Scope::Run, "sample_interval_ms"), errors) {
            run.sample_interval_ms = x;
        }
        obj.finish(errors);
    }
    Some(run)
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
