//! JSON parsing that refuses a key given twice in one object. `serde_json`
//! keeps the last of duplicate keys without a word, so `{"rif": 1, "rif": 0.5}`
//! would run with 0.5 while a reader of the file sees 1 first; a scenario is
//! refused instead, naming the path of the repeated key.

use super::ScenarioError;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// Parses `text` as JSON, refusing duplicate keys and text over `max_bytes`.
pub fn parse(text: &str, max_bytes: usize) -> Result<Value, Vec<ScenarioError>> {
    if text.len() > max_bytes {
        return Err(vec![ScenarioError::new(
            "",
            format!(
                "the scenario text is {} bytes, more than the limit of {max_bytes} (limits.max_input_bytes)",
                text.len()
            ),
        )]);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Node { path: String::new() }.deserialize(&mut de).and_then(|v| {
        de.end()?;
        Ok(v)
    });
    value.map_err(|e| {
        let message = e.to_string();
        // A duplicate key's error carries its path before a tab.
        match message.split_once('\t') {
            Some((path, rest)) => vec![ScenarioError::new(path, rest.to_string())],
            None => vec![ScenarioError::new("", format!("not valid JSON: {message}"))],
        }
    })
}

/// A value being read at `path` (dotted, `[i]` for array elements).
struct Node {
    path: String,
}

impl<'de> DeserializeSeed<'de> for Node {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl<'de> Visitor<'de> for Node {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, x: i64) -> Result<Value, E> {
        Ok(Value::Number(x.into()))
    }

    fn visit_u64<E>(self, x: u64) -> Result<Value, E> {
        Ok(Value::Number(x.into()))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Number::from_f64(x).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let seed = Node { path: format!("{}[{}]", self.path, items.len()) };
            match seq.next_element_seed(seed)? {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let path = child(&self.path, &key);
            if map.contains_key(&key) {
                let shown = super::reader::describe(&Value::String(key));
                return Err(de::Error::custom(format!(
                    "{path}\tthe key {shown} is given twice in one object; keep one"
                )));
            }
            let value = access.next_value_seed(Node { path })?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_refused_with_their_path() {
        let e = parse(r#"{"vcs": [{"id": "a", "rif": 1, "rif": 0.5}]}"#, 1000).unwrap_err();
        assert_eq!(e[0].path, "vcs[0].rif");
        assert!(e[0].message.contains("given twice"), "{e:?}");
        let e = parse(r#"{"a": 1, "a": 1}"#, 1000).unwrap_err();
        assert_eq!(e[0].path, "a");
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"a": [1, -2, 0.5, "x", null, true, {"b": {}}], "c": 1e300}"#;
        assert_eq!(parse(text, 1000).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        assert!(parse("{ nope", 1000).unwrap_err()[0].message.starts_with("not valid JSON"));
        assert!(parse("{} x", 1000).is_err());
    }

    #[test]
    fn oversized_text_is_refused_before_parsing() {
        let e = parse(&" ".repeat(2000), 1000).unwrap_err();
        assert!(e[0].message.contains("limits.max_input_bytes"), "{e:?}");
    }
}
