//! What both models' topologies share: nodes of two kinds (a host and its
//! forwarding node), links with two ends, a rate and a delay (read here and
//! built as a [`Link`]), and paths of node ids from host to host.

use super::envelope::{element_path, read_id};
use super::reader::{clip, describe, Errors, Obj};
use super::registry::{self, Scope};
use super::ScenarioError;
use crate::time::SimTime;
use serde_json::Value;
use std::collections::HashMap;

/// One direction of a link as either model builds its output port: the
/// port's id (the link's own for a → b, with `:rev` for b → a), the link's
/// index, and the node indices it leaves and enters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortEnds {
    pub id: String,
    pub link: u32,
    pub from: u32,
    pub to: u32,
}

impl PortEnds {
    /// The two directions of link `link`, named `id`, between the nodes
    /// `a` and `b`: a → b, then b → a.
    pub fn of_link(id: &str, link: usize, a: usize, b: usize) -> [PortEnds; 2] {
        let link = link as u32;
        let (a, b) = (a as u32, b as u32);
        [
            PortEnds { id: id.to_string(), link, from: a, to: b },
            PortEnds { id: format!("{id}:rev"), link, from: b, to: a },
        ]
    }
}

/// A full-duplex link as built, in either model; each direction is served
/// by its own port.
#[derive(Clone, Debug)]
pub struct Link {
    pub id: String,
    /// Node indices of its ends.
    pub a: u32,
    pub b: u32,
    pub rate_mbps: f64,
    pub delay: SimTime,
    /// Port indices: a→b, then b→a.
    pub ports: [u32; 2],
}

impl Link {
    /// The link `id` between the nodes `(a, b)`, served by `ports` (a→b, b→a).
    pub fn new(
        id: &str,
        (a, b): (usize, usize),
        rate_mbps: f64,
        delay: SimTime,
        ports: [u32; 2],
    ) -> Link {
        Link { id: id.to_string(), a: a as u32, b: b as u32, rate_mbps, delay, ports }
    }
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

/// A full-duplex link as a scenario states it, in either model: its ends
/// (node indices), rate and delay, and a port `P` of the model's for a→b and
/// for b→a.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkSpec<P> {
    pub id: String,
    pub a: usize,
    pub b: usize,
    pub rate_mbps: f64,
    pub delay_ms: f64,
    /// Ports for a→b and b→a.
    pub ports: [P; 2],
}

/// A model's port as a scenario states it. Each port of a link is read over
/// the defaults for the node that sends on it, and those defaults over the
/// model's built-in port for a forwarding node (switch or router) or a host.
pub(crate) trait PortRead: Clone {
    /// The `defaults` keys of a forwarding node's ports and of a host's.
    const DEFAULT_KEYS: [&'static str; 2];
    /// The built-in ports of a forwarding node and of a host.
    fn builtin() -> [Self; 2];
    /// Reads the keys of `obj`, a port object, over `self`.
    fn read_keys(&mut self, obj: &mut Obj<'_>, errors: &mut Errors);

    /// `self` with the keys of `value` (a port object at `path`, if any) read over it.
    fn read_over(&self, value: Option<&Value>, path: &str, errors: &mut Errors) -> Self {
        let mut port = self.clone();
        if let Some(mut obj) = value.and_then(|v| Obj::new(v, path, errors)) {
            port.read_keys(&mut obj, errors);
            obj.finish(errors);
        }
        port
    }
}

/// Reads `links` for either model: each an `id`, its [`LinkBasics`] and a
/// port object per direction (`a_to_b`, `b_to_a`), read over the defaults
/// for its sender; `defaults` are the scenario's objects under the keys
/// [`PortRead::DEFAULT_KEYS`] and `is_host` tells the senders that are hosts;
/// `extra` names the other keys the model allows on a link. Returns each
/// link that reads whole.
pub(crate) fn read_link_entries<P: PortRead>(
    items: &[Value],
    node_index: &HashMap<&str, usize>,
    extra: &[&'static str],
    defaults: [Option<&Value>; 2],
    is_host: impl Fn(usize) -> bool,
    errors: &mut Errors,
) -> Vec<LinkSpec<P>> {
    let [forwarding, host] = P::builtin();
    let [forwarding, host] = [(forwarding, 0), (host, 1)].map(|(base, k)| {
        base.read_over(defaults[k], &format!("defaults.{}", P::DEFAULT_KEYS[k]), errors)
    });
    let port = |v: Option<&Value>, path: &str, sender: Option<usize>, errors: &mut Errors| {
        let base = if sender.is_some_and(&is_host) { &host } else { &forwarding };
        base.read_over(v, path, errors)
    };
    let mut seen = HashMap::new();
    let mut links = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = element_path("links", i, item);
        let Some(mut obj) = Obj::new(item, &path, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let LinkBasics { a, b, rate_mbps: rate, delay_ms } =
            read_link_basics(&mut obj, node_index, errors);
        let ab = port(obj.get("a_to_b"), &obj.at("a_to_b"), a, errors);
        let ba = port(obj.get("b_to_a"), &obj.at("b_to_a"), b, errors);
        for &key in extra {
            obj.get(key);
        }
        obj.finish(errors);
        if let (Some(id), Some(a), Some(b), Some(rate_mbps), Some(delay_ms)) =
            (id, a, b, rate, delay_ms)
        {
            links.push(LinkSpec { id, a, b, rate_mbps, delay_ms, ports: [ab, ba] });
        }
    }
    links
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
    let rate = obj.param(registry::shared(Scope::Link, "rate_mbps"), errors);
    if rate.is_none() && obj.map.get("rate_mbps").is_none() {
        errors.push(ScenarioError::new(obj.at("rate_mbps"), "is required"));
    }
    let length = obj.param(registry::shared(Scope::Link, "length_km"), errors);
    let delay = obj.param(registry::shared(Scope::Link, "delay_ms"), errors);
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
