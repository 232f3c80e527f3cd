//! The part of JSON Schema that the generated schema uses — `$ref` into `$defs`, `anyOf`,
//! `type` (null included), `const`, `enum`, `properties`, `required`, `additionalProperties`, `items`,
//! `minItems`/`maxItems`, `minimum`/`maximum`, `pattern` as the id pattern — enough to check
//! the library's files against it without a schema crate.

use serde_json::Value;

fn type_matches(ty: &str, v: &Value) -> bool {
    match ty {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.as_f64().is_some_and(|x| x.fract() == 0.0),
        _ => false,
    }
}

/// Every way `v` (at `at`) breaks `schema`, with `root` holding the `$defs`.
pub fn errors(root: &Value, schema: &Value, v: &Value, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        return errors(root, &root["$defs"][name], v, at);
    }
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        let all: Vec<Vec<String>> = branches.iter().map(|b| errors(root, b, v, at)).collect();
        if all.iter().any(Vec::is_empty) {
            return out;
        }
        let fewest = all.into_iter().min_by_key(Vec::len).unwrap_or_default();
        return fewest;
    }
    if let Some(ty) = schema.get("type").and_then(Value::as_str) {
        if !type_matches(ty, v) {
            return vec![format!("{at}: expected {ty}, found {v}")];
        }
    }
    if let Some(c) = schema.get("const") {
        if c != v {
            out.push(format!("{at}: expected {c}, found {v}"));
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        let same = |o: &Value| o == v || (o.as_f64().is_some() && o.as_f64() == v.as_f64());
        if !options.iter().any(same) {
            out.push(format!("{at}: {v} is not one of {options:?}"));
        }
    }
    if let Some(x) = v.as_f64() {
        if schema.get("minimum").and_then(Value::as_f64).is_some_and(|m| x < m) {
            out.push(format!("{at}: {x} is below the minimum"));
        }
        if schema.get("maximum").and_then(Value::as_f64).is_some_and(|m| x > m) {
            out.push(format!("{at}: {x} is above the maximum"));
        }
    }
    if let (Some(s), Some(_)) = (v.as_str(), schema.get("pattern")) {
        let ok = (1..=64).contains(&s.len())
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            out.push(format!("{at}: '{s}' is not an id"));
        }
    }
    if let Some(items) = v.as_array() {
        let len = items.len() as u64;
        if schema.get("minItems").and_then(Value::as_u64).is_some_and(|m| len < m)
            || schema.get("maxItems").and_then(Value::as_u64).is_some_and(|m| len > m)
        {
            out.push(format!("{at}: {len} items is out of bounds"));
        }
        if let Some(item) = schema.get("items") {
            for (i, x) in items.iter().enumerate() {
                out.extend(errors(root, item, x, &format!("{at}[{i}]")));
            }
        }
    }
    if let Some(map) = v.as_object() {
        for key in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
            if !map.contains_key(key.as_str().unwrap_or_default()) {
                out.push(format!("{at}: {key} is required"));
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (k, x) in map {
            let here = format!("{at}.{k}");
            match (props.and_then(|p| p.get(k)), schema.get("additionalProperties")) {
                (Some(s), _) => out.extend(errors(root, s, x, &here)),
                (None, Some(Value::Bool(false))) => out.push(format!("{here}: unknown key")),
                (None, Some(extra)) if extra.is_object() => {
                    out.extend(errors(root, extra, x, &here))
                }
                _ => {}
            }
        }
    }
    out
}
