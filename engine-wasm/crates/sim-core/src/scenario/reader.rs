//! A JSON object reader that validates as it goes: typed getters that record
//! errors with their path (a registry parameter is read by `Obj::param`, beside
//! the registry), and a final check that
//! reports every key nobody asked for as unknown. Algorithms use it to read
//! their own configuration.

use super::ScenarioError;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Errors collected during a walk.
pub type Errors = Vec<ScenarioError>;

pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

pub fn describe(v: &Value) -> String {
    clip(&v.to_string())
}

pub use super::echo::clip;

/// A JSON object being read: records which keys were used so that the rest can
/// be reported as unknown.
pub struct Obj<'a> {
    pub path: String,
    pub map: &'a Map<String, Value>,
    known: Vec<&'static str>,
}

impl<'a> Obj<'a> {
    pub fn new(value: &'a Value, path: &str, errors: &mut Errors) -> Option<Obj<'a>> {
        match value.as_object() {
            Some(map) => Some(Obj { path: path.to_string(), map, known: Vec::new() }),
            None => {
                errors.push(ScenarioError::new(
                    path,
                    format!("expected an object, found {}", describe(value)),
                ));
                None
            }
        }
    }

    pub fn at(&self, key: &str) -> String {
        join(&self.path, key)
    }

    pub fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        self.known.push(key);
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub fn string(&mut self, key: &'static str, errors: &mut Errors) -> Option<String> {
        let v = self.get(key)?;
        match v.as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                errors.push(ScenarioError::new(
                    self.at(key),
                    format!("expected a string, found {}", describe(v)),
                ));
                None
            }
        }
    }

    pub fn required_string(&mut self, key: &'static str, errors: &mut Errors) -> Option<String> {
        let s = self.string(key, errors);
        if s.is_none() && self.map.get(key).is_none_or(Value::is_null) {
            errors.push(ScenarioError::new(self.at(key), "is required"));
        }
        s
    }

    pub fn plain_number(&mut self, key: &'static str, errors: &mut Errors) -> Option<f64> {
        let v = self.get(key)?;
        match v.as_f64() {
            Some(x) if x.is_finite() => Some(x),
            _ => {
                errors.push(ScenarioError::new(
                    self.at(key),
                    format!("expected a number, found {}", describe(v)),
                ));
                None
            }
        }
    }

    /// An on/off registry parameter.
    pub fn flag(&mut self, key: &'static str, errors: &mut Errors) -> Option<bool> {
        let v = self.get(key)?;
        match v.as_bool() {
            Some(b) => Some(b),
            None => {
                errors.push(ScenarioError::new(
                    self.at(key),
                    format!("expected true or false, found {}", describe(v)),
                ));
                None
            }
        }
    }

    pub fn finish(self, errors: &mut Errors) {
        for key in self.map.keys() {
            if !self.known.iter().any(|k| k == key) {
                let mut expected: Vec<&str> = self.known.clone();
                expected.sort_unstable();
                expected.dedup();
                errors.push(ScenarioError::new(
                    join(&self.path, &clip(key)),
                    format!(
                        "unknown key '{}' (expected one of: {})",
                        clip(key),
                        expected.join(", ")
                    ),
                ));
            }
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

/// An element's `id`: required, a valid id, and not already in `seen` (id → index).
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
