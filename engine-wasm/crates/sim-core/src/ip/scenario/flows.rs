//! A flow entry: TCP or UDP, over `defaults.tcp` / `defaults.udp`, expanded
//! to `count` flows with their round-trip times and starts spread (Pletka et
//! al. §III-C), and its route.

use super::params::spec;
use super::{link_between, Defaults, FlowKindSpec, IpFlowSpec, IpLinkSpec, IpNodeKind, IpNodeSpec};
use crate::ip::tcp::TcpParams;
use crate::kernel::Rng;
use crate::scenario::envelope::{element_path, read_id};
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::Scope::{IpFlow as F, Tcp as T};
use crate::scenario::topology::{read_node_path, PathTopology, PathWords};
use crate::scenario::ScenarioError;
use crate::time::SimTime;
use serde_json::Value;
use std::collections::HashMap;

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
        if let Some(x) = obj.param(spec(F, "count"), errors) {
            self.count = x as u32;
        }
        if let Some(x) = obj.param(spec(F, "packet_bytes"), errors) {
            self.packet_bytes = x as u32;
        }
        if let Some(x) = obj.param(spec(F, "start_ms"), errors) {
            self.start_ms = x;
        }
        if let Some(x) = obj.param(spec(F, "start_spread_ms"), errors) {
            self.start_spread_ms = x;
        }
        if let Some(x) = obj.param(spec(F, "stop_ms"), errors) {
            self.stop_ms = Some(x);
        }
        if let Some(x) = obj.param(spec(F, "rtt_ms"), errors) {
            self.rtt_ms = Some(x);
        }
        if let Some(x) = obj.param(spec(F, "rtt_min_ms"), errors) {
            self.rtt_min_ms = Some(x);
        }
        if let Some(x) = obj.param(spec(F, "rtt_max_ms"), errors) {
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
            if let Some(x) = obj.param(spec(F, "rate_mbps"), errors) {
                self.rate_mbps = x;
            }
            if let Some(x) = obj.param(spec(F, "alt_rate_mbps"), errors) {
                self.alt_rate_mbps = Some(x);
            }
            if let Some(x) = obj.param(spec(F, "alt_period_ms"), errors) {
                self.alt_period_ms = x;
            }
        } else {
            let t = &mut self.tcp;
            if let Some(x) = obj.param(spec(T, "initial_cwnd"), errors) {
                t.initial_cwnd = x;
            }
            if let Some(x) = obj.param(spec(T, "rwnd_pkts"), errors) {
                t.rwnd = x as u32;
            }
            if let Some(x) = obj.param(spec(T, "min_rto_ms"), errors) {
                t.min_rto = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(spec(T, "initial_rto_ms"), errors) {
                t.initial_rto = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(spec(T, "max_rto_ms"), errors) {
                t.max_rto = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(spec(T, "granularity_ms"), errors) {
                t.granularity = SimTime::from_ms(x);
            }
            if let Some(x) = obj.param(spec(T, "dupack_threshold"), errors) {
                t.dupack_threshold = x as u32;
            }
            if let Some(x) = obj.flag("delayed_ack", errors) {
                t.delayed_ack = x;
            }
            if let Some(x) = obj.param(spec(T, "delayed_ack_ms"), errors) {
                t.delayed_ack_timeout = SimTime::from_ms(x);
            }
        }
        self
    }
}

pub(super) fn read_flows(
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
