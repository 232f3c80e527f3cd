//! `--set PATH=VALUE` overrides: a dotted path into the scenario JSON, where an
//! array element is named by its id (`vcs.vc1.rif`) or its index (`vcs.0.rif`).
//! The value is JSON, or a fraction such as `1/16`, or else a bare string.
//! A path through something that does not exist is an error; a new final key
//! is inserted and then judged by validation like any other key.

use super::ScenarioError;
use serde_json::{Map, Value};

/// Objects `--set` may create on the way when a scenario leaves them out
/// (the last five are the packet model's: `defaults.tcp`, `defaults.udp`,
/// `defaults.router_port`, a port's `aqm` and its `clcc`).
const CREATABLE: &[&str] = &[
    "defaults",
    "vc",
    "switch_port",
    "host_port",
    "a_to_b",
    "b_to_a",
    "run",
    "traffic",
    "algorithm",
    "tcp",
    "udp",
    "router_port",
    "aqm",
    "clcc",
];

/// Parses a `--set` value.
pub fn parse_value(raw: &str) -> Value {
    if let Some((num, den)) = raw.split_once('/') {
        if let (Ok(n), Ok(d)) = (num.trim().parse::<f64>(), den.trim().parse::<f64>()) {
            if d != 0.0 && (n / d).is_finite() {
                if let Some(v) = serde_json::Number::from_f64(n / d) {
                    return Value::Number(v);
                }
            }
        }
    }
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

/// Applies `path = raw` to `root`.
pub fn apply_set(root: &mut Value, path: &str, raw: &str) -> Result<(), ScenarioError> {
    let segments: Vec<&str> = path.split('.').collect();
    if path.is_empty() || segments.iter().any(|s| s.is_empty()) {
        return Err(ScenarioError::new(path, "is not a dotted path such as vcs.vc1.rif"));
    }
    let mut here = root;
    let mut walked = String::new();
    for (i, seg) in segments.iter().enumerate() {
        let last = i == segments.len() - 1;
        let at = if walked.is_empty() { seg.to_string() } else { format!("{walked}.{seg}") };
        here = match here {
            Value::Object(map) => {
                if last {
                    map.insert(seg.to_string(), parse_value(raw));
                    return Ok(());
                }
                if !map.contains_key(*seg) {
                    if CREATABLE.contains(seg) {
                        map.insert(seg.to_string(), Value::Object(Map::new()));
                    } else {
                        return Err(ScenarioError::new(at, "does not exist"));
                    }
                }
                map.get_mut(*seg).expect("present")
            }
            Value::Array(items) => {
                let found = items
                    .iter()
                    .position(|v| v.get("id").and_then(Value::as_str) == Some(seg))
                    .or_else(|| seg.parse::<usize>().ok().filter(|&i| i < items.len()));
                match found {
                    Some(idx) if last => {
                        items[idx] = parse_value(raw);
                        return Ok(());
                    }
                    Some(idx) => &mut items[idx],
                    None => {
                        return Err(ScenarioError::new(
                            at,
                            format!("no element with id or index '{seg}' in {walked}"),
                        ))
                    }
                }
            }
            _ => return Err(ScenarioError::new(at, format!("{walked} is not an object or array"))),
        };
        walked = at;
    }
    Ok(())
}

/// Applies the overrides of the variant `id` (`variants[…].set`, a map of
/// dotted paths to JSON values) to a scenario value.
pub fn apply_variant(root: &mut Value, id: &str) -> Result<(), ScenarioError> {
    let variants = root.get("variants").and_then(Value::as_array).cloned().unwrap_or_default();
    let Some(variant) = variants.iter().find(|v| v.get("id").and_then(Value::as_str) == Some(id))
    else {
        let known: Vec<&str> =
            variants.iter().filter_map(|v| v.get("id").and_then(Value::as_str)).collect();
        return Err(ScenarioError::new(
            "--variant",
            format!(
                "no variant '{id}' (this scenario has: {})",
                if known.is_empty() { "none".into() } else { known.join(", ") }
            ),
        ));
    };
    let sets = variant.get("set").and_then(Value::as_object).cloned().unwrap_or_default();
    for (path, value) in sets {
        apply_set(root, &path, &value.to_string())
            .map_err(|e| ScenarioError::new(format!("variants.{id}.set.{path}"), e.message))?;
    }
    Ok(())
}

/// Expands `*` segments into one concrete path per array element (named by id when it has one,
/// else by index). Paths without `*` come back unchanged; what they name is checked by `--set`.
pub fn expand_path(scenario: &Value, path: &str) -> Result<Vec<String>, ScenarioError> {
    fn walk(
        here: Option<&Value>,
        rest: &[&str],
        prefix: String,
        out: &mut Vec<String>,
    ) -> Result<(), ScenarioError> {
        let Some((seg, tail)) = rest.split_first() else {
            out.push(prefix);
            return Ok(());
        };
        let join =
            |s: &str| if prefix.is_empty() { s.to_string() } else { format!("{prefix}.{s}") };
        if *seg != "*" {
            let next = match here {
                Some(Value::Object(map)) => map.get(*seg),
                Some(Value::Array(items)) => items
                    .iter()
                    .find(|v| v.get("id").and_then(Value::as_str) == Some(seg))
                    .or_else(|| seg.parse::<usize>().ok().and_then(|i| items.get(i))),
                _ => None,
            };
            return walk(next, tail, join(seg), out);
        }
        let Some(Value::Array(items)) = here else {
            return Err(ScenarioError::new(
                join("*"),
                format!(
                    "'*' needs an array, and {} is not one",
                    if prefix.is_empty() { "the scenario" } else { &prefix }
                ),
            ));
        };
        if items.is_empty() {
            return Err(ScenarioError::new(join("*"), format!("{prefix} is empty")));
        }
        for (i, item) in items.iter().enumerate() {
            let name = item
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| i.to_string());
            walk(Some(item), tail, join(&name), out)?;
        }
        Ok(())
    }
    let segments: Vec<&str> = path.split('.').collect();
    let mut out = Vec::new();
    walk(Some(scenario), &segments, String::new(), &mut out)?;
    Ok(out)
}

/// Applies overrides in order, each path possibly with `*` ([`expand_path`]) and each value as
/// typed ([`parse_value`]): what `abrsim sweep` and the page's sweep and compare do to a scenario.
pub fn apply_overrides(
    root: &mut Value,
    overrides: &[(String, String)],
) -> Result<(), ScenarioError> {
    for (path, raw) in overrides {
        for concrete in expand_path(root, path)? {
            apply_set(root, &concrete, raw)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sets_by_id_by_index_and_creates_known_objects() {
        let mut v = json!({"vcs": [{"id": "vc1", "rif": 1}], "links": [{"id": "l1"}]});
        apply_set(&mut v, "vcs.vc1.rif", "1/16").unwrap();
        apply_set(&mut v, "vcs.0.nrm", "8").unwrap();
        apply_set(&mut v, "links.l1.a_to_b.buffer_cells", "500").unwrap();
        apply_set(&mut v, "defaults.vc.nrm", "256").unwrap();
        assert_eq!(v["vcs"][0]["rif"], json!(0.0625));
        assert_eq!(v["vcs"][0]["nrm"], json!(8));
        assert_eq!(v["links"][0]["a_to_b"]["buffer_cells"], json!(500));
        assert_eq!(v["defaults"]["vc"]["nrm"], json!(256));
    }

    #[test]
    fn paths_that_do_not_exist_are_errors() {
        let mut v = json!({"vcs": [{"id": "vc1"}]});
        assert_eq!(apply_set(&mut v, "vcs.vc9.rif", "1").unwrap_err().path, "vcs.vc9");
        assert_eq!(apply_set(&mut v, "nodes.x.y", "1").unwrap_err().path, "nodes");
        assert!(apply_set(&mut v, "vcs..rif", "1").is_err());
        assert!(apply_set(&mut v, "vcs.vc1.id.x", "1").is_err());
    }

    #[test]
    fn variants_apply_their_overrides() {
        let mut v = json!({"vcs": [{"id": "vc1", "nrm": 32}], "variants": [{"id": "nrm8", "label": "Nrm 8", "set": {"vcs.vc1.nrm": 8}}]});
        apply_variant(&mut v, "nrm8").unwrap();
        assert_eq!(v["vcs"][0]["nrm"], json!(8));
        assert!(apply_variant(&mut v, "nope")
            .unwrap_err()
            .message
            .contains("this scenario has: nrm8"));
    }

    #[test]
    fn values_are_json_fractions_or_strings() {
        assert_eq!(parse_value("true"), json!(true));
        assert_eq!(parse_value("erica"), json!("erica"));
        assert_eq!(parse_value("{\"kind\":\"none\"}"), json!({"kind": "none"}));
        assert_eq!(parse_value("1/0"), json!("1/0"));
    }
}
