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
    // A byte-order mark (as some editors save UTF-8) is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Node { at: At::Root }.deserialize(&mut de).and_then(|v| {
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

/// Where a value is being read: its parent's place and its key or index. The
/// dotted path (`[i]` for array elements) is spelled out only when an error is
/// reported, so reading costs the same whatever the keys' lengths and the
/// arrays' sizes: building each element's path up front made a long key over
/// a long array quadratic.
#[derive(Clone, Copy)]
enum At<'p> {
    Root,
    Key(&'p At<'p>, &'p str),
    Index(&'p At<'p>, usize),
}

impl At<'_> {
    fn path(&self) -> String {
        match self {
            At::Root => String::new(),
            At::Key(parent, key) => super::reader::join(&parent.path(), &super::reader::clip(key)),
            At::Index(parent, i) => format!("{}[{i}]", parent.path()),
        }
    }
}

/// A value being read at `at`.
struct Node<'p> {
    at: At<'p>,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
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
            let seed = Node { at: At::Index(&self.at, items.len()) };
            match seq.next_element_seed(seed)? {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            if map.contains_key(&key) {
                let path = At::Key(&self.at, &key).path();
                let shown = super::reader::describe(&Value::String(key));
                return Err(de::Error::custom(format!(
                    "{path}\tthe key {shown} is given twice in one object; keep one"
                )));
            }
            let value = access.next_value_seed(Node { at: At::Key(&self.at, &key) })?;
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
