//! Packet-level scenarios: the same file family as the cell model's
//! (`"format": "abr-lab/scenario"`, `"version": 1`) with `"model": "ip"`,
//! routers instead of switches and `flows` instead of `vcs`. Validation
//! collects every error with its path and rejects unknown keys, like the cell
//! model's (`scenario/parse.rs`), through the same reader and registry.
//!
//! ```json
//! { "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": "…",
//!   "run": { "until_ms": 20000, "seed": 1, "sample_interval_ms": 100 },
//!   "defaults": { "tcp": { "packet_bytes": 1500, "rwnd_pkts": 64 }, "udp": { … },
//!                 "router_port": { "buffer_pkts": 300, "aqm": { "kind": "bat", … } },
//!                 "host_port": { "buffer_pkts": 10000 } },
//!   "nodes": [ { "id": "R1", "kind": "router", "x": 300, "y": 200 }, … ],
//!   "links": [ { "id": "bottleneck", "a": "R1", "b": "R2", "rate_mbps": 100, "delay_ms": 0.1,
//!                "a_to_b": { "aqm": { "kind": "bat", "clcc": { "r_ref": 0.4286 } } } }, … ],
//!   "flows": [ { "id": "udp", "kind": "udp", "path": ["U", "R1", "R2", "D"], "rate_mbps": 90 },
//!              { "id": "tcp", "kind": "tcp", "count": 100, "path": ["T", "R1", "R2", "D"],
//!                "rtt_min_ms": 2, "rtt_max_ms": 200 } ] }
//! ```
//!
//! A flow entry with `count` N stands for N flows `<id>-1` … `<id>-N`, their
//! round-trip times spread over [rtt_min_ms, rtt_max_ms] (evenly, or drawn
//! from the run's random stream) and their starts spread over
//! [start_ms, start_ms + start_spread_ms]. A flow's round-trip time is made up
//! of the links' propagation both ways plus a fixed delay in front of its
//! receiver — the DummyNet emulator of Pletka et al.'s testbed (§III-C).

use super::bat::Grouping;
use super::port::AqmConfig;
use super::tcp::TcpParams;
use crate::kernel::Rng;
use crate::scenario::parse::{
    array, check_run_limits, element_path, finish, read_id, read_node_entries, read_run, read_tags,
    read_things_to_try, read_variants_checked, refuse_oversized,
};
use crate::scenario::reader::{describe, Errors, Obj};
use crate::scenario::registry::{p, spec, Kind::*, ParamSpec, Scope};
use crate::scenario::{Limits, Meta, RunSpec, ScenarioError, FORMAT, VERSION};
use crate::time::SimTime;
use serde_json::Value;
use std::collections::HashMap;

/// The model tag of packet-level scenarios.
pub const MODEL: &str = "ip";

use Scope::{IpFlow as F, IpPort as P, Tcp as T};

/// Flow keys in the parameter registry (common to TCP and UDP, and UDP's own).
pub static FLOW_PARAMS: &[ParamSpec] = &[
    p("count", F, "Count", "flows", 1.0, 1.0, 2000.0, Integer, false,
      "How many identical flows this entry stands for (ids <id>-1 … <id>-N)."),
    p("packet_bytes", F, "Packet size", "bytes", 1500.0, 64.0, 9000.0, Integer, false,
      "Size of a data packet on the wire (Pletka et al. Table I: 1500 or 500 bytes)."),
    p("start_ms", F, "Start", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the flow starts sending."),
    p("start_spread_ms", F, "Start spread", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "Each flow of the entry starts at a random time within this long after start_ms (avoids synchronised slow starts)."),
    p("stop_ms", F, "Stop", "ms", f64::INFINITY, 0.0, 36_000_000.0, Real, false,
      "When the flow stops sending new data; absent means never."),
    p("rtt_ms", F, "RTT", "ms", f64::NAN, 0.0, 100_000.0, Real, false,
      "Round-trip propagation time of the flow; the part the links do not provide is a fixed delay before the receiver (DummyNet, Pletka et al. §III-C). Absent: the links' own."),
    p("rtt_min_ms", F, "RTT min", "ms", f64::NAN, 0.0, 100_000.0, Real, false,
      "Smallest RTT of a group of flows (Pletka et al. §V: 2 ms)."),
    p("rtt_max_ms", F, "RTT max", "ms", f64::NAN, 0.0, 100_000.0, Real, false,
      "Largest RTT of a group of flows (Pletka et al. §V: 200 ms)."),
    p("rate_mbps", F, "UDP rate", "Mbit/s", 10.0, 0.0, 100_000.0, Real, true,
      "Constant bit rate of a UDP flow (Pletka et al. §V: 90 Mbit/s)."),
    p("alt_rate_mbps", F, "Alternate rate", "Mbit/s", f64::NAN, 0.0, 100_000.0, Real, true,
      "If given, the UDP flow alternates between rate_mbps and this every alt_period_ms (Pletka et al. §V: 50 / 120 Mbit/s)."),
    p("alt_period_ms", F, "Alternation period", "ms", 5000.0, 1.0, 36_000_000.0, Real, false,
      "How long each rate of an alternating UDP flow lasts (Pletka et al. §V: 5 s)."),
];

/// TCP keys in the parameter registry.
pub static TCP_PARAMS: &[ParamSpec] = &[
    p("initial_cwnd", T, "Initial window", "segments", 2.0, 1.0, 10.0, Integer, false,
      "Congestion window at the start (RFC 5681 allows up to 2–4 segments; Linux 2.4 used 2)."),
    p("rwnd_pkts", T, "Receiver window", "segments", 64.0, 1.0, 65_535.0, Integer, false,
      "Advertised window: at most this many segments in flight (64 × 1500 bytes ≈ the 64 KB of a window without scaling)."),
    p("min_rto_ms", T, "Minimum RTO", "ms", 200.0, 1.0, 10_000.0, Real, false,
      "Floor of the retransmission timeout (RFC 6298 asks 1 s; Linux and ns use 200 ms)."),
    p("initial_rto_ms", T, "Initial RTO", "ms", 1000.0, 1.0, 60_000.0, Real, false,
      "Retransmission timeout before the first RTT sample (RFC 6298 §2.1: 1 s)."),
    p("max_rto_ms", T, "Maximum RTO", "ms", 60_000.0, 100.0, 600_000.0, Real, false,
      "Ceiling of the backed-off retransmission timeout (RFC 6298 §2.5)."),
    p("granularity_ms", T, "Clock granularity", "ms", 1.0, 0.001, 500.0, Real, false,
      "G in RTO = SRTT + max(G, 4·RTTVAR) (RFC 6298 §2)."),
    p("dupack_threshold", T, "Dupack threshold", "ACKs", 3.0, 1.0, 20.0, Integer, false,
      "Duplicate ACKs that trigger fast retransmit (RFC 5681: 3)."),
    p("delayed_ack", T, "Delayed ACKs", "", 0.0, 0.0, 1.0, Bool, false,
      "Receiver acknowledges every second segment or after delayed_ack_ms (RFC 5681 §4.2)."),
    p("delayed_ack_ms", T, "Delayed-ACK timeout", "ms", 100.0, 1.0, 500.0, Real, false,
      "Longest an ACK is held (RFC 5681: under 500 ms; ns uses 100 ms)."),
];

/// IP port keys in the parameter registry.
pub static PORT_PARAMS: &[ParamSpec] = &[
    p("buffer_pkts", P, "Buffer", "packets", 300.0, 1.0, 1_000_000.0, Integer, false,
      "Queue limit of the port; packets beyond it are lost and counted. Host ports default to 10,000."),
];

/// What a node is in the packet model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpNodeKind {
    /// An end system: TCP/UDP senders and receivers.
    Host,
    /// An IP router: output ports with an AQM each.
    Router,
}

impl IpNodeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            IpNodeKind::Host => "host",
            IpNodeKind::Router => "router",
        }
    }
}

/// A node.
#[derive(Clone, Debug, PartialEq)]
pub struct IpNodeSpec {
    pub id: String,
    pub kind: IpNodeKind,
    pub x: f64,
    pub y: f64,
}

/// One output port's configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct IpPortSpec {
    pub buffer_pkts: u32,
    pub aqm: AqmConfig,
}

/// A full-duplex link.
#[derive(Clone, Debug, PartialEq)]
pub struct IpLinkSpec {
    pub id: String,
    pub a: usize,
    pub b: usize,
    pub rate_mbps: f64,
    pub delay_ms: f64,
    /// Ports for a→b and b→a.
    pub ports: [IpPortSpec; 2],
}

/// What a flow sends.
#[derive(Clone, Debug, PartialEq)]
pub enum FlowKindSpec {
    /// A greedy (FTP-like) TCP NewReno connection.
    Tcp(TcpParams),
    /// A UDP CBR source, optionally alternating between two rates.
    Udp { rate_mbps: f64, alt_rate_mbps: Option<f64>, alt_period_ms: f64 },
}

impl FlowKindSpec {
    pub fn class(&self) -> &'static str {
        match self {
            FlowKindSpec::Tcp(_) => "tcp",
            FlowKindSpec::Udp { .. } => "udp",
        }
    }
}

/// One flow (after `count` expansion).
#[derive(Clone, Debug, PartialEq)]
pub struct IpFlowSpec {
    pub id: String,
    /// The entry it came from.
    pub group: String,
    pub path: Vec<usize>,
    pub kind: FlowKindSpec,
    pub packet_bytes: u32,
    pub start_ms: f64,
    pub stop_ms: Option<f64>,
    /// The round trip wanted; `None` keeps the links' own.
    pub rtt_ms: Option<f64>,
}

/// A validated packet-level scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct IpScenario {
    pub meta: Meta,
    pub run: RunSpec,
    pub nodes: Vec<IpNodeSpec>,
    pub links: Vec<IpLinkSpec>,
    pub flows: Vec<IpFlowSpec>,
    pub warnings: Vec<ScenarioError>,
}

/// Parses and validates packet-level scenario text.
pub fn parse_ip_scenario(text: &str) -> Result<IpScenario, Vec<ScenarioError>> {
    let value = crate::scenario::strict_json::parse(text, Limits::default().max_input_bytes)?;
    ip_scenario_from_value(&value)
}

/// Validates an already-parsed JSON value within the default limits.
pub fn ip_scenario_from_value(value: &Value) -> Result<IpScenario, Vec<ScenarioError>> {
    ip_scenario_from_value_with(value, &Limits::default())
}

/// Validates an already-parsed JSON value within `limits` (the cell model's
/// ceilings; flows count against `max_vcs`, packets against the cell slots
/// a link could carry, which bounds them from above).
pub fn ip_scenario_from_value_with(
    value: &Value,
    limits: &Limits,
) -> Result<IpScenario, Vec<ScenarioError>> {
    let mut errors = Errors::new();
    refuse_oversized(
        value,
        &[
            ("nodes", limits.max_nodes),
            ("links", limits.max_links),
            ("variants", limits.max_variants),
        ],
        &mut errors,
    );
    crate::scenario::parse::refuse_long_paths(value, &["flows"], limits, &mut errors);
    if let Some(items) = value.get("flows").and_then(Value::as_array) {
        let flows: u64 =
            items.iter().map(|f| f.get("count").and_then(Value::as_u64).unwrap_or(1).max(1)).sum();
        if flows > limits.max_vcs as u64 {
            errors.push(ScenarioError::new(
                "flows",
                format!("{flows} flows exceed the limit of {} (limits.max_vcs)", limits.max_vcs),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let scenario = read_scenario(value, &mut errors);
    if let Some(s) = &scenario {
        check_limits(s, limits, &mut errors);
        if errors.is_empty() {
            crate::scenario::cost::ip_cost(s).check(s.run.until_ms, limits, &mut errors);
        }
        // Variants last, and only checked when the scenario itself is sound: a
        // broken base would otherwise be reported once more under every variant.
        if errors.is_empty() {
            let check = |v: &Value| ip_scenario_from_value_with(v, limits).map(|_| ());
            crate::scenario::parse::validate_variants(value, &mut errors, &check);
            crate::scenario::parse::validate_things_to_try(value, &mut errors, &check);
        }
    }
    finish(scenario, errors)
}

struct Defaults<'a> {
    tcp: Option<&'a Value>,
    udp: Option<&'a Value>,
    router_port: Option<&'a Value>,
    host_port: Option<&'a Value>,
}

fn read_scenario(value: &Value, errors: &mut Errors) -> Option<IpScenario> {
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
    if root.get("model").and_then(Value::as_str) != Some(MODEL) {
        errors.push(ScenarioError::new(
            "model",
            format!("must be \"{MODEL}\" for a packet-level scenario"),
        ));
    }
    let meta = Meta {
        id: root.string("id", errors).unwrap_or_default(),
        title: root.string("title", errors).unwrap_or_default(),
        paper: root.string("paper", errors).unwrap_or_default(),
        explanation: root.string("explanation", errors).unwrap_or_default(),
        things_to_try: Vec::new(),
        variants: Vec::new(),
    };
    read_tags(&mut root, errors);
    let run = read_run(root.get("run"), errors);
    let mut defaults = Defaults { tcp: None, udp: None, router_port: None, host_port: None };
    if let Some(v) = root.get("defaults") {
        if let Some(mut obj) = Obj::new(v, "defaults", errors) {
            defaults.tcp = obj.get("tcp");
            defaults.udp = obj.get("udp");
            defaults.router_port = obj.get("router_port");
            defaults.host_port = obj.get("host_port");
            obj.finish(errors);
        }
    }
    let nodes = read_nodes(array(&mut root, "nodes", errors), errors);
    let node_index: HashMap<&str, usize> =
        nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let links =
        read_links(array(&mut root, "links", errors), &node_index, &nodes, &defaults, errors);
    let seed = run.as_ref().map_or(1, |r| r.seed);
    let flows = read_flows(
        array(&mut root, "flows", errors),
        &node_index,
        &nodes,
        &links,
        &defaults,
        seed,
        errors,
    );
    root.get("view");
    check_bat_overrides(&links, &flows, errors);
    // Each variant is validated once the whole base is (ip_scenario_from_value_with).
    let mut meta = meta;
    meta.things_to_try = read_things_to_try(value, &mut root, errors, &|_| Ok(()));
    meta.variants = read_variants_checked(value, &mut root, errors, &|_| Ok(()));
    crate::claims::read_root_claims(&mut root, &meta.variants, errors);
    root.finish(errors);
    let mut warnings = Vec::new();
    let mut flows = flows;
    check_flows(&flows, &links, &nodes, &mut warnings);
    cap_udp_at_access_link(&mut flows, &links);
    Some(IpScenario { meta, run: run?, nodes, links, flows, warnings })
}

fn read_nodes(items: &[Value], errors: &mut Errors) -> Vec<IpNodeSpec> {
    read_node_entries(items, [("host", IpNodeKind::Host), ("router", IpNodeKind::Router)], errors)
        .into_iter()
        .map(|(id, kind, x, y)| IpNodeSpec { id, kind, x, y })
        .collect()
}

/// Reads an `aqm` object.
fn read_aqm(value: &Value, path: &str, errors: &mut Errors) -> Option<AqmConfig> {
    let mut obj = Obj::new(value, path, errors)?;
    let config = match obj.get("kind").map(|v| v.as_str()) {
        Some(Some("drop_tail")) => Some(AqmConfig::DropTail),
        Some(Some("bat")) => Some(AqmConfig::Bat(super::bat::BatConfig::read(&mut obj, errors))),
        Some(other) => {
            let given = other.map_or_else(
                || describe(obj.map.get("kind").unwrap_or(&Value::Null)),
                |s| format!("\"{s}\""),
            );
            errors.push(ScenarioError::new(
                obj.at("kind"),
                format!("unknown AQM {given} (expected one of: \"drop_tail\", \"bat\")"),
            ));
            None
        }
        None => {
            errors.push(ScenarioError::new(obj.at("kind"), "is required (one of: drop_tail, bat)"));
            None
        }
    };
    obj.finish(errors);
    config
}

/// Reads a port object over `base`; keys present win.
fn read_port(
    value: Option<&Value>,
    path: &str,
    base: &IpPortSpec,
    errors: &mut Errors,
) -> IpPortSpec {
    let mut port = base.clone();
    let Some(v) = value else { return port };
    let Some(mut obj) = Obj::new(v, path, errors) else { return port };
    if let Some(x) = obj.param(P, "buffer_pkts", errors) {
        port.buffer_pkts = x as u32;
    }
    if let Some(a) = obj.get("aqm") {
        if let Some(aqm) = read_aqm(a, &obj.at("aqm"), errors) {
            port.aqm = aqm;
        }
    }
    obj.finish(errors);
    port
}

fn read_links(
    items: &[Value],
    node_index: &HashMap<&str, usize>,
    nodes: &[IpNodeSpec],
    defaults: &Defaults<'_>,
    errors: &mut Errors,
) -> Vec<IpLinkSpec> {
    let builtin =
        IpPortSpec { buffer_pkts: spec(P, "buffer_pkts").default as u32, aqm: AqmConfig::DropTail };
    let router_port = read_port(defaults.router_port, "defaults.router_port", &builtin, errors);
    let host_base = IpPortSpec { buffer_pkts: 10_000, aqm: AqmConfig::DropTail };
    let host_port = read_port(defaults.host_port, "defaults.host_port", &host_base, errors);
    let mut seen = HashMap::new();
    let mut links = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = element_path("links", i, item);
        let Some(mut obj) = Obj::new(item, &path, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let crate::scenario::parse::LinkBasics { a, b, rate_mbps: rate, delay_ms } =
            crate::scenario::parse::read_link_basics(&mut obj, node_index, errors);
        let base_for = |n: Option<usize>| match n.map(|n| nodes[n].kind) {
            Some(IpNodeKind::Host) => &host_port,
            _ => &router_port,
        };
        let ab = read_port(obj.get("a_to_b"), &obj.at("a_to_b"), base_for(a), errors);
        let ba = read_port(obj.get("b_to_a"), &obj.at("b_to_a"), base_for(b), errors);
        obj.get("label");
        obj.finish(errors);
        if let (Some(id), Some(a), Some(b), Some(rate_mbps), Some(delay_ms)) =
            (id, a, b, rate, delay_ms)
        {
            links.push(IpLinkSpec { id, a, b, rate_mbps, delay_ms, ports: [ab, ba] });
        }
    }
    links
}

/// A flow entry's settings before expansion, in scenario units.
#[derive(Clone, Debug)]
struct FlowSettings {
    count: u32,
    packet_bytes: u32,
    start_ms: f64,
    start_spread_ms: f64,
    stop_ms: Option<f64>,
    rtt_ms: Option<f64>,
    rtt_min_ms: Option<f64>,
    rtt_max_ms: Option<f64>,
    rtt_random: bool,
    rate_mbps: f64,
    alt_rate_mbps: Option<f64>,
    alt_period_ms: f64,
    tcp: TcpParams,
}

impl FlowSettings {
    fn builtin() -> FlowSettings {
        let d = |k| spec(F, k).default;
        let t = |k| spec(T, k).default;
        FlowSettings {
            count: 1,
            packet_bytes: d("packet_bytes") as u32,
            start_ms: 0.0,
            start_spread_ms: 0.0,
            stop_ms: None,
            rtt_ms: None,
            rtt_min_ms: None,
            rtt_max_ms: None,
            rtt_random: false,
            rate_mbps: d("rate_mbps"),
            alt_rate_mbps: None,
            alt_period_ms: d("alt_period_ms"),
            tcp: TcpParams {
                initial_cwnd: t("initial_cwnd"),
                rwnd: t("rwnd_pkts") as u32,
                initial_rto: SimTime::from_ms(t("initial_rto_ms")),
                min_rto: SimTime::from_ms(t("min_rto_ms")),
                max_rto: SimTime::from_ms(t("max_rto_ms")),
                granularity: SimTime::from_ms(t("granularity_ms")),
                dupack_threshold: t("dupack_threshold") as u32,
                delayed_ack: t("delayed_ack") != 0.0,
                delayed_ack_timeout: SimTime::from_ms(t("delayed_ack_ms")),
            },
        }
    }

    /// Reads the keys a flow of `class` may carry over `self`.
    fn read_over(mut self, obj: &mut Obj<'_>, class: &str, errors: &mut Errors) -> FlowSettings {
        if let Some(x) = obj.param(F, "count", errors) {
            self.count = x as u32;
        }
        if let Some(x) = obj.param(F, "packet_bytes", errors) {
            self.packet_bytes = x as u32;
        }
        if let Some(x) = obj.param(F, "start_ms", errors) {
            self.start_ms = x;
        }
        if let Some(x) = obj.param(F, "start_spread_ms", errors) {
            self.start_spread_ms = x;
        }
        if let Some(x) = obj.param(F, "stop_ms", errors) {
            self.stop_ms = Some(x);
        }
        if let Some(x) = obj.param(F, "rtt_ms", errors) {
            self.rtt_ms = Some(x);
        }
        if let Some(x) = obj.param(F, "rtt_min_ms", errors) {
            self.rtt_min_ms = Some(x);
        }
        if let Some(x) = obj.param(F, "rtt_max_ms", errors) {
            self.rtt_max_ms = Some(x);
        }
        match obj.get("rtt_spread").map(|v| v.as_str()) {
            None => {}
            Some(Some("even")) => self.rtt_random = false,
            Some(Some("random")) => self.rtt_random = true,
            Some(_) => errors.push(ScenarioError::new(
                obj.at("rtt_spread"),
                "must be \"even\" (evenly spaced) or \"random\" (uniform draws)",
            )),
        }
        if class == "udp" {
            if let Some(x) = obj.param(F, "rate_mbps", errors) {
                self.rate_mbps = x;
            }
            if let Some(x) = obj.param(F, "alt_rate_mbps", errors) {
                self.alt_rate_mbps = Some(x);
            }
            if let Some(x) = obj.param(F, "alt_period_ms", errors) {
                self.alt_period_ms = x;
            }
        } else {
            let t = &mut self.tcp;
            if let Some(x) = obj.param(T, "initial_cwnd", errors) {
                t.initial_cwnd = x;
            }
            if let Some(x) = obj.param(T, "rwnd_pkts", errors) {
                t.rwnd = x as u32;
            }
            if let Some(x) = obj.param(T, "min_rto_ms", errors) {
                t.min_rto = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(T, "initial_rto_ms", errors) {
                t.initial_rto = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(T, "max_rto_ms", errors) {
                t.max_rto = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(T, "granularity_ms", errors) {
                t.granularity = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(T, "dupack_threshold", errors) {
                t.dupack_threshold = x as u32;
            }
            if let Some(x) = obj.flag("delayed_ack", errors) {
                t.delayed_ack = x;
            }
            if let Some(x) = obj.param(T, "delayed_ack_ms", errors) {
                t.delayed_ack_timeout = SimTime::from_ms(x);
            }
        }
        self
    }
}

fn read_flows(
    items: &[Value],
    node_index: &HashMap<&str, usize>,
    nodes: &[IpNodeSpec],
    links: &[IpLinkSpec],
    defaults: &Defaults<'_>,
    seed: u64,
    errors: &mut Errors,
) -> Vec<IpFlowSpec> {
    let mut class_defaults = HashMap::new();
    for (class, value) in [("tcp", defaults.tcp), ("udp", defaults.udp)] {
        let mut settings = FlowSettings::builtin();
        if let Some(v) = value {
            if let Some(mut obj) = Obj::new(v, &format!("defaults.{class}"), errors) {
                settings = settings.read_over(&mut obj, class, errors);
                obj.finish(errors);
            }
        }
        class_defaults.insert(class, settings);
    }
    let mut seen = HashMap::new();
    let mut flows = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = element_path("flows", i, item);
        let Some(mut obj) = Obj::new(item, &path, errors) else { continue };
        let id = read_id(&mut obj, &mut seen, i, errors);
        let class = match obj.get("kind").map(|v| v.as_str()) {
            Some(Some("tcp")) => Some("tcp"),
            Some(Some("udp")) => Some("udp"),
            Some(_) => {
                errors.push(ScenarioError::new(
                    obj.at("kind"),
                    "must be \"tcp\" (greedy NewReno) or \"udp\" (CBR)",
                ));
                None
            }
            None => {
                errors.push(ScenarioError::new(obj.at("kind"), "is required: \"tcp\" or \"udp\""));
                None
            }
        };
        let route = read_route(&mut obj, node_index, nodes, links, errors);
        let settings = class.map(|c| class_defaults[c].clone().read_over(&mut obj, c, errors));
        obj.get("label");
        obj.finish(errors);
        let (Some(id), Some(class), Some(path), Some(s)) = (id, class, route, settings) else {
            continue;
        };
        if let Some(stop) = s.stop_ms {
            if stop <= s.start_ms {
                errors.push(ScenarioError::new(
                    format!("{}.stop_ms", element_path("flows", i, item)),
                    format!("{stop} ms is not after start_ms {} ms", s.start_ms),
                ));
            }
        }
        let at = element_path("flows", i, item);
        match (s.rtt_ms, s.rtt_min_ms, s.rtt_max_ms) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                errors.push(ScenarioError::new(
                    format!("{at}.rtt_ms"),
                    "give rtt_ms or rtt_min_ms/rtt_max_ms, not both",
                ));
                continue;
            }
            (None, Some(_), None) | (None, None, Some(_)) => {
                errors.push(ScenarioError::new(
                    format!("{at}.rtt_min_ms"),
                    "rtt_min_ms and rtt_max_ms go together",
                ));
                continue;
            }
            (None, Some(lo), Some(hi)) if lo > hi => {
                errors.push(ScenarioError::new(
                    format!("{at}.rtt_min_ms"),
                    format!("{lo} ms exceeds rtt_max_ms {hi} ms"),
                ));
                continue;
            }
            _ => {}
        }
        let kind = if class == "tcp" {
            FlowKindSpec::Tcp(s.tcp)
        } else {
            FlowKindSpec::Udp {
                rate_mbps: s.rate_mbps,
                alt_rate_mbps: s.alt_rate_mbps,
                alt_period_ms: s.alt_period_ms,
            }
        };
        // Random streams per entry, from the run seed: RTT draws and start times.
        let mut rtt_rng = Rng::new(seed, 0x1_0000 + 2 * i as u64);
        let mut start_rng = Rng::new(seed, 0x1_0001 + 2 * i as u64);
        let n = s.count;
        for k in 0..n {
            let rtt_ms = match (s.rtt_ms, s.rtt_min_ms, s.rtt_max_ms) {
                (Some(r), _, _) => Some(r),
                (None, Some(lo), Some(hi)) => Some(if s.rtt_random {
                    lo + (hi - lo) * rtt_rng.next_f64()
                } else if n > 1 {
                    lo + (hi - lo) * k as f64 / (n - 1) as f64
                } else {
                    lo
                }),
                _ => None,
            };
            let start_ms = s.start_ms
                + if s.start_spread_ms > 0.0 {
                    s.start_spread_ms * start_rng.next_f64()
                } else {
                    0.0
                };
            flows.push(IpFlowSpec {
                id: if n > 1 { format!("{id}-{}", k + 1) } else { id.clone() },
                group: id.clone(),
                path: path.clone(),
                kind: kind.clone(),
                packet_bytes: s.packet_bytes,
                start_ms,
                stop_ms: s.stop_ms,
                rtt_ms,
            });
        }
    }
    let mut ids = HashMap::new();
    for f in &flows {
        if let Some(other) = ids.insert(f.id.as_str(), f.group.as_str()) {
            errors.push(ScenarioError::new(
                format!("flows.{}", f.group),
                format!("flow id '{}' is also produced by entry '{other}'", f.id),
            ));
        }
    }
    flows
}

/// A flow's path: host, routers…, host, each consecutive pair joined by a link.
fn read_route(
    obj: &mut Obj<'_>,
    node_index: &HashMap<&str, usize>,
    nodes: &[IpNodeSpec],
    links: &[IpLinkSpec],
    errors: &mut Errors,
) -> Option<Vec<usize>> {
    use crate::scenario::parse::{read_node_path, PathTopology, PathWords};
    let topology = PathTopology {
        words: PathWords {
            what: "flows",
            middle: "routers",
            required: "sending host to receiving host",
        },
        node_id: &|n| nodes[n].id.clone(),
        is_host: &|n| nodes[n].kind == IpNodeKind::Host,
        joined: &|x, y| link_between(links, x, y).is_some(),
    };
    read_node_path(obj, node_index, &topology, errors)
}

/// The link joining `from` and `to` and the direction (0: a→b, 1: b→a).
pub fn link_between(links: &[IpLinkSpec], from: usize, to: usize) -> Option<(usize, usize)> {
    links.iter().enumerate().find_map(|(i, l)| {
        if l.a == from && l.b == to {
            Some((i, 0))
        } else if l.b == from && l.a == to {
            Some((i, 1))
        } else {
            None
        }
    })
}

/// The links' propagation delay along `path` and back, ms.
pub fn path_round_trip_ms(links: &[IpLinkSpec], path: &[usize]) -> f64 {
    path.windows(2)
        .filter_map(|w| link_between(links, w[0], w[1]))
        .map(|(l, _)| 2.0 * links[l].delay_ms)
        .sum()
}

/// The whole-run ceilings: run length and the transmissions the links allow.
fn check_limits(s: &IpScenario, limits: &Limits, errors: &mut Errors) {
    check_run_limits(s.run.until_ms, s.links.iter().map(|l| l.rate_mbps), limits, errors);
}

/// Every enumerated choice a packet-level scenario can make, for the UI's menus.
pub fn choices_json() -> Value {
    serde_json::json!({
        "nodes": ["host", "router"],
        "flows": ["tcp", "udp"],
        "aqm": ["drop_tail", "bat"],
        "grouping": ["class", "flow"],
        "rtt_spread": ["even", "random"],
    })
}

/// BAT's per-flow settings must name a flow (or flow entry) crossing the port.
fn check_bat_overrides(links: &[IpLinkSpec], flows: &[IpFlowSpec], errors: &mut Errors) {
    for (li, link) in links.iter().enumerate() {
        for (dir, port) in link.ports.iter().enumerate() {
            let AqmConfig::Bat(bat) = &port.aqm else { continue };
            let crossing: Vec<&IpFlowSpec> = flows
                .iter()
                .filter(|f| {
                    f.path.windows(2).any(|w| link_between(links, w[0], w[1]) == Some((li, dir)))
                })
                .collect();
            for o in &bat.overrides {
                if !crossing.iter().any(|f| f.id == o.key || f.group == o.key) {
                    errors.push(ScenarioError::new(
                        o.path.clone(),
                        format!("no flow or flow entry '{}' crosses this port", o.key),
                    ));
                    continue;
                }
                if bat.grouping == Grouping::Flow {
                    // Validate the values now, so that building never meets a bad one.
                    super::bat::validate_override(o, errors);
                }
            }
        }
    }
}

/// A UDP source cannot send faster than its access link: the host's
/// interface serialises at the link rate (SPEC §12), so both its rates are
/// capped there (`check_flows` has warned) rather than simulated packet by
/// packet into a host queue that overflows for the whole run.
fn cap_udp_at_access_link(flows: &mut [IpFlowSpec], links: &[IpLinkSpec]) {
    for f in flows {
        let Some((l, _)) = link_between(links, f.path[0], f.path[1]) else { continue };
        let cap = links[l].rate_mbps;
        if let FlowKindSpec::Udp { rate_mbps, alt_rate_mbps, .. } = &mut f.kind {
            *rate_mbps = rate_mbps.min(cap);
            if let Some(alt) = alt_rate_mbps {
                *alt = alt.min(cap);
            }
        }
    }
}

/// Legal but suspicious settings: warn and suggest a fix.
fn check_flows(
    flows: &[IpFlowSpec],
    links: &[IpLinkSpec],
    nodes: &[IpNodeSpec],
    warnings: &mut Vec<ScenarioError>,
) {
    for f in flows {
        let base = path_round_trip_ms(links, &f.path);
        if let Some(rtt) = f.rtt_ms {
            if rtt + 1e-9 < base {
                warnings.push(ScenarioError::new(
                    format!("flows.{}.rtt_ms", f.group),
                    format!("flow {}: RTT {rtt} ms is below the links' own round trip {base} ms; it gets {base} ms", f.id),
                ));
            }
        }
        if let FlowKindSpec::Udp { rate_mbps, alt_rate_mbps, .. } = f.kind {
            let peak = alt_rate_mbps.map_or(rate_mbps, |a| a.max(rate_mbps));
            if let Some((l, _)) = link_between(links, f.path[0], f.path[1]) {
                if peak > links[l].rate_mbps * (1.0 + 1e-9) {
                    warnings.push(ScenarioError::new(
                        format!("flows.{}.rate_mbps", f.group),
                        format!(
                            "flow {}: {peak} Mbit/s exceeds its access link {} from {} ({} Mbit/s); it is capped at the link rate",
                            f.id, links[l].id, nodes[f.path[0]].id, links[l].rate_mbps
                        ),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn minimal() -> Value {
        json!({
            "format": FORMAT, "version": 1, "model": "ip", "id": "t",
            "nodes": [
                {"id": "S", "kind": "host"}, {"id": "R1", "kind": "router"},
                {"id": "R2", "kind": "router"}, {"id": "D", "kind": "host"}
            ],
            "links": [
                {"id": "a", "a": "S", "b": "R1", "rate_mbps": 100, "delay_ms": 0.1},
                {"id": "b", "a": "R1", "b": "R2", "rate_mbps": 100, "delay_ms": 0.1,
                 "a_to_b": {"aqm": {"kind": "bat", "clcc": {"r_ref": 0.5}}}},
                {"id": "c", "a": "R2", "b": "D", "rate_mbps": 100, "delay_ms": 0.1}
            ],
            "flows": [
                {"id": "tcp", "kind": "tcp", "count": 3, "path": ["S", "R1", "R2", "D"], "rtt_min_ms": 2, "rtt_max_ms": 6},
                {"id": "udp", "kind": "udp", "path": ["S", "R1", "R2", "D"], "rate_mbps": 50}
            ]
        })
    }

    fn errors_of(v: Value) -> Vec<String> {
        ip_scenario_from_value(&v).unwrap_err().iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn groups_expand_with_evenly_spread_rtts() {
        let s = ip_scenario_from_value(&minimal()).unwrap();
        let ids: Vec<_> = s.flows.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["tcp-1", "tcp-2", "tcp-3", "udp"]);
        let rtts: Vec<_> = s.flows.iter().map(|f| f.rtt_ms).collect();
        assert_eq!(rtts, [Some(2.0), Some(4.0), Some(6.0), None]);
        assert!(matches!(s.links[1].ports[0].aqm, AqmConfig::Bat(_)));
        assert_eq!(s.links[0].ports[0].buffer_pkts, 10_000, "host port default");
        assert_eq!(s.links[1].ports[0].buffer_pkts, 300, "router port default");
        assert!((path_round_trip_ms(&s.links, &s.flows[0].path) - 0.6).abs() < 1e-12);
    }

    #[test]
    fn every_error_has_a_path_and_unknown_keys_are_refused() {
        let mut v = minimal();
        v["flows"][0]["rwnd_pkts"] = json!(0);
        v["flows"][1]["cwnd"] = json!(3);
        v["links"][1]["a_to_b"]["aqm"]["w"] = json!(1.5);
        v["links"][1]["a_to_b"]["aqm"]["clcc"]["beta_small"] = json!(0.5);
        v["nodes"][1]["kind"] = json!("switch");
        let errs = errors_of(v);
        for want in [
            "flows.tcp.rwnd_pkts: 0",
            "flows.udp.cwnd: unknown key 'cwnd'",
            "links.b.a_to_b.aqm.w: 1.5",
            "links.b.a_to_b.aqm.clcc.beta_small: 0.5",
            "nodes.R1.kind: must be \"host\" or \"router\"",
        ] {
            assert!(errs.iter().any(|e| e.starts_with(want)), "{want} not in {errs:?}");
        }
    }

    #[test]
    fn model_tag_and_overrides_are_checked() {
        let mut v = minimal();
        v["model"] = json!("cell");
        assert!(errors_of(v).iter().any(|e| e.starts_with("model: must be \"ip\"")));
        let mut v = minimal();
        v["links"][1]["a_to_b"]["aqm"]["grouping"] = json!("flow");
        v["links"][1]["a_to_b"]["aqm"]["flows"] =
            json!({"nope": {"f_min_mbps": 10}, "udp": {"f_min_mbps": -1}});
        let errs = errors_of(v);
        assert!(
            errs.iter().any(|e| e.starts_with("links.b.a_to_b.aqm.flows.nope: no flow")),
            "{errs:?}"
        );
        assert!(
            errs.iter().any(|e| e.starts_with("links.b.a_to_b.aqm.flows.udp.f_min_mbps: -1")),
            "{errs:?}"
        );
        let mut v = minimal();
        v["links"][1]["a_to_b"]["aqm"]["flows"] = json!({"udp": {"f_min_mbps": 10}});
        assert!(errors_of(v).iter().any(|e| e.contains("need \"grouping\": \"flow\"")));
    }

    #[test]
    fn variants_are_checked_with_the_packet_parser() {
        let mut v = minimal();
        v["variants"] = json!([
            {"id": "fast", "label": "UDP 80", "set": {"flows.udp.rate_mbps": 80}},
            {"id": "bad", "set": {"links.b.a_to_b.aqm.clcc.r_ref": 0}}
        ]);
        let errs = errors_of(v.clone());
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(
            errs[0].starts_with("variants.bad.set: makes links.b.a_to_b.aqm.clcc.r_ref: 0"),
            "{errs:?}"
        );
        v["variants"].as_array_mut().unwrap().pop();
        let s = ip_scenario_from_value(&v).unwrap();
        assert_eq!(s.meta.variants[0].label, "UDP 80");
    }

    #[test]
    fn limits_bound_flows_and_run_length() {
        let mut v = minimal();
        v["flows"][0]["count"] = json!(1999);
        v["flows"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "more", "kind": "udp", "count": 5, "path": ["S", "R1", "R2", "D"]}));
        assert!(errors_of(v)[0].starts_with("flows: 2005 flows exceed the limit of 2000"));
        let mut v = minimal();
        v["run"] = json!({"until_ms": 700_000});
        assert!(errors_of(v).iter().any(|e| e.starts_with("run.until_ms: 700000 ms exceeds")));
    }

    #[test]
    fn rtt_settings_must_be_coherent() {
        let mut v = minimal();
        v["flows"][0]["rtt_ms"] = json!(5);
        assert!(errors_of(v).iter().any(|e| e.contains("not both")));
        let mut v = minimal();
        v["flows"][0]["rtt_min_ms"] = json!(10);
        assert!(errors_of(v).iter().any(|e| e.contains("exceeds rtt_max_ms")));
        let mut v = minimal();
        v["flows"][1]["id"] = json!("tcp-2");
        assert!(errors_of(v).iter().any(|e| e.contains("also produced")));
    }
}
