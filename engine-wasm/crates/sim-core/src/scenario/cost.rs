//! The cost model of SPEC §12: from a validated scenario, before anything is
//! built, an estimate of the events a run handles and the memory it holds.
//! Limits on sizes alone let a 10,000 Mbit/s background onto a 0.001 Mbit/s
//! link run for minutes; the estimate counts what the sources offer, capped
//! by what their links carry, over the time they are on, × the events each
//! cell or packet costs along its path. A refusal names the largest term, so
//! the user knows what to shorten or slow.
//!
//! The figures are estimates from above, within a small factor of the events
//! a run counts (`stats.events`): the test `cost_estimates_bound_the_library`
//! (tests/bounded_cost.rs) checks them against every library run.

use super::{Limits, Scenario, ScenarioError, TrafficSpec};
use crate::ip::scenario::{FlowKindSpec, IpScenario};
use std::collections::HashMap;

/// Bytes a queued cell or packet holds in the engine (the record and its
/// share of the queue's storage), for the memory estimate.
pub const QUEUED_BYTES: f64 = 64.0;
/// Bytes of one sample value (an f64), kept by the viewer for the whole run.
pub const SAMPLE_BYTES: f64 = 8.0;

/// One term of an estimate: where it comes from, its size, and how it was figured.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub path: String,
    pub value: f64,
    pub detail: String,
}

/// A run's estimated cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cost {
    pub events: Vec<Term>,
    /// Bytes.
    pub memory: Vec<Term>,
}

impl Cost {
    pub fn total_events(&self) -> f64 {
        self.events.iter().map(|t| t.value).sum()
    }

    pub fn total_memory_mb(&self) -> f64 {
        self.memory.iter().map(|t| t.value).sum::<f64>() / 1e6
    }

    /// Refuses a cost over `limits`, naming the largest term.
    pub fn check(&self, until_ms: f64, limits: &Limits, errors: &mut Vec<ScenarioError>) {
        let largest = |terms: &[Term]| {
            terms.iter().max_by(|a, b| a.value.total_cmp(&b.value)).cloned().unwrap_or(Term {
                path: "run.until_ms".into(),
                value: 0.0,
                detail: String::new(),
            })
        };
        let events = self.total_events();
        if events > limits.max_events {
            let t = largest(&self.events);
            errors.push(ScenarioError::new(
                t.path.clone(),
                format!(
                    "the run would handle about {events:.2e} events over {until_ms} ms, more than the limit of {:.2e} (limits.max_events); the largest share is {} ({:.2e}: {}): shorten run.until_ms or slow it",
                    limits.max_events, t.path, t.value, t.detail
                ),
            ));
        }
        let mb = self.total_memory_mb();
        if mb > limits.max_memory_mb {
            let t = largest(&self.memory);
            errors.push(ScenarioError::new(
                t.path.clone(),
                format!(
                    "the run would hold about {mb:.0} MB, more than the limit of {} MB (limits.max_memory_mb); the largest share is {} ({:.0} MB: {})",
                    limits.max_memory_mb,
                    t.path,
                    t.value / 1e6,
                    t.detail
                ),
            ));
        }
    }
}

/// A source's time on within `[0, until]`, ms.
fn on_ms(start: f64, stop: Option<f64>, until: f64) -> f64 {
    (stop.unwrap_or(until).min(until) - start.min(until)).max(0.0)
}

/// Per-port offered load (cells or packets per second) and the sample rows,
/// shared by both models.
struct Tally {
    /// (link, direction) → offered per second, summed over sources.
    offered: HashMap<(usize, usize), f64>,
    cost: Cost,
}

impl Tally {
    /// A source of `per_s` over `hops` links for `secs`, costing `per_unit`
    /// events per unit sent per hop and one at the source.
    fn source(
        &mut self,
        path: String,
        per_s: f64,
        secs: f64,
        hops: usize,
        per_hop: f64,
        what: &str,
    ) {
        let value = per_s * secs * (1.0 + per_hop * hops as f64);
        self.cost.events.push(Term {
            path,
            value,
            detail: format!("{per_s:.0} {what}/s × {secs} s × {hops} hops"),
        });
    }

    /// The sample rows a viewer keeps, and the events that record them.
    fn samples(&mut self, until_ms: f64, interval_ms: f64, columns: usize) {
        let rows = (until_ms / interval_ms).ceil();
        self.cost.events.push(Term {
            path: "run.sample_interval_ms".into(),
            value: rows * (1.0 + columns as f64 / 8.0),
            detail: format!("{rows} sample rows of {columns} columns"),
        });
        self.cost.memory.push(Term {
            path: "run.sample_interval_ms".into(),
            value: rows * columns as f64 * SAMPLE_BYTES,
            detail: format!("{rows} sample rows × {columns} columns"),
        });
    }

    /// The units a port's queue can come to hold: its excess inflow over the
    /// run, at most its buffer.
    fn queues(
        &mut self,
        ports: impl Iterator<Item = ((usize, usize), String, f64, f64)>,
        secs: f64,
    ) {
        for (key, path, rate_per_s, buffer) in ports {
            let inflow = self.offered.get(&key).copied().unwrap_or(0.0);
            let excess = (inflow - rate_per_s).max(0.0) * secs;
            let held = excess.min(buffer);
            if held > 0.0 {
                self.cost.memory.push(Term {
                    path,
                    value: held * QUEUED_BYTES,
                    detail: format!("{held:.0} queued of a {buffer} buffer"),
                });
            }
        }
    }
}

/// Maps each ordered pair of joined nodes to (link index, direction 0 a→b / 1 b→a).
pub fn link_pairs(
    ends: impl Iterator<Item = (usize, usize)>,
) -> HashMap<(usize, usize), (usize, usize)> {
    let mut pairs = HashMap::new();
    for (i, (a, b)) in ends.enumerate() {
        pairs.entry((a, b)).or_insert((i, 0));
        pairs.entry((b, a)).or_insert((i, 1));
    }
    pairs
}

fn ports_on(
    path: &[usize],
    pairs: &HashMap<(usize, usize), (usize, usize)>,
) -> Vec<(usize, usize)> {
    path.windows(2).filter_map(|w| pairs.get(&(w[0], w[1])).copied()).collect()
}

/// The cell model's estimate. ABR sources are held to their max-min share by
/// the switches' feedback (with a margin for the transient before it takes
/// hold), unless a switch port on their path runs no algorithm, when they may
/// reach their PCR (at most the slowest link: Fahmy et al. §3.2). Background
/// sources send at their rate, capped at their first link, whatever happens.
pub fn cell_cost(s: &Scenario) -> Cost {
    use crate::cell::net::NodeKind;
    use crate::cell::switch_alg::AlgorithmConfig;
    use crate::probe::{max_min_fair, Flow};
    use crate::time::mbps_to_cells_per_s as cps;
    /// Share of the max-min rate a controlled source is estimated at.
    const MARGIN: f64 = 1.5;
    let until = s.run.until_ms;
    let pairs = link_pairs(s.links.iter().map(|l| (l.a, l.b)));
    let mut t = Tally { offered: HashMap::new(), cost: Cost::default() };
    struct Loop {
        name: String,
        ports: Vec<(usize, usize)>,
        secs: f64,
        duty: f64,
        pcr_cps: f64,
        floor_cps: f64,
        per_hop: f64,
        controlled: bool,
        /// On/off switches per second: each recomputes the max-min shares.
        edges_per_s: f64,
    }
    let mut loops = Vec::new();
    for vc in &s.vcs {
        let directions: Vec<(Vec<usize>, &TrafficSpec)> = if vc.bidirectional {
            let back: Vec<usize> = vc.path.iter().rev().copied().collect();
            let reverse = vc.reverse_traffic.as_ref().unwrap_or(&vc.traffic);
            vec![(vc.path.clone(), &vc.traffic), (back, reverse)]
        } else {
            vec![(vc.path.clone(), &vc.traffic)]
        };
        for (path, traffic) in directions {
            let ports = ports_on(&path, &pairs);
            let slowest =
                ports.iter().map(|&(l, _)| s.links[l].rate_mbps).fold(f64::INFINITY, f64::min);
            let (start, stop, duty, edges_per_s) = match *traffic {
                TrafficSpec::OnOff { start_ms, stop_ms, on_ms, off_ms } => {
                    let period = (on_ms + off_ms).max(f64::MIN_POSITIVE);
                    (start_ms, stop_ms, on_ms / period, 2000.0 / period)
                }
                TrafficSpec::Persistent { start_ms, stop_ms }
                | TrafficSpec::Bottlenecked { start_ms, stop_ms, .. }
                | TrafficSpec::RequestResponse { start_ms, stop_ms, .. } => {
                    (start_ms, stop_ms, 1.0, 0.0)
                }
            };
            let controlled = ports.iter().all(|&(l, d)| {
                let from = if d == 0 { s.links[l].a } else { s.links[l].b };
                s.nodes[from].kind == NodeKind::Host
                    || !matches!(s.links[l].ports[d].algorithm, AlgorithmConfig::None)
            });
            // A source sends at least TCR, and an RM cell every Trm.
            let floor_cps = vc.params.tcr_cps + 1000.0 / vc.params.trm_ms;
            loops.push(Loop {
                name: format!("vcs.{}", vc.id),
                ports,
                secs: on_ms(start, stop, until) / 1000.0,
                duty: duty.min(1.0),
                pcr_cps: cps(vc.params.pcr_mbps.min(slowest)),
                floor_cps,
                // Data and forward RM cells one way; one backward RM cell per Nrm back.
                per_hop: 2.0 * (1.0 + 1.0 / vc.params.nrm.max(1) as f64),
                controlled,
                edges_per_s,
            });
        }
    }
    let capacity: Vec<f64> =
        s.links.iter().flat_map(|l| [cps(l.rate_mbps), cps(l.rate_mbps)]).collect();
    let mut flows: Vec<Flow> = loops
        .iter()
        .map(|l| Flow {
            resources: l.ports.iter().map(|&(k, d)| (2 * k + d) as u32).collect(),
            demand: l.pcr_cps * l.duty,
        })
        .collect();
    let mut background = Vec::new();
    for b in &s.background {
        let ports = ports_on(&b.path, &pairs);
        let duty = match b.on_ms {
            Some(on) if on + b.off_ms > 0.0 => on / (on + b.off_ms),
            _ => 1.0,
        };
        let first = ports.first().map_or(f64::INFINITY, |&(l, _)| s.links[l].rate_mbps);
        let per_s = cps(b.rate_mbps.min(first)) * duty;
        flows.push(Flow {
            resources: ports.iter().map(|&(k, d)| (2 * k + d) as u32).collect(),
            demand: per_s,
        });
        background.push((b, ports, per_s));
    }
    let shares = max_min_fair(&capacity, &flows);
    // What one recomputation of the max-min shares costs, in events.
    let recompute = 1.0 + loops.iter().map(|l| l.ports.len()).sum::<usize>() as f64 / 2.0;
    let edges = |t: &mut Tally, path: String, per_s: f64, secs: f64| {
        if per_s > 0.0 {
            t.cost.events.push(Term {
                path,
                value: per_s * secs * recompute,
                detail: format!(
                    "{per_s:.0} on/off switches/s × {secs} s, each recomputing the max-min shares"
                ),
            });
        }
    };
    for (l, share) in loops.iter().zip(&shares) {
        let full = l.pcr_cps * l.duty;
        let per_s = if l.controlled { full.min(MARGIN * share) } else { full }.max(l.floor_cps);
        for &p in &l.ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        t.source(l.name.clone(), per_s, l.secs, l.ports.len(), l.per_hop, "cells");
        edges(&mut t, l.name.clone(), l.edges_per_s, l.secs);
    }
    for (b, ports, per_s) in background {
        for &p in &ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        let secs = on_ms(b.start_ms, b.stop_ms, until) / 1000.0;
        t.source(format!("background.{}", b.id), per_s, secs, ports.len(), 2.0, "cells");
        if let Some(on) = b.on_ms {
            let period = (on + b.off_ms).max(f64::MIN_POSITIVE);
            edges(&mut t, format!("background.{}", b.id), 2000.0 / period, secs);
        }
    }
    let loop_count = loops.len();
    let columns = 2
        + loop_count * crate::probe::VC_COLUMNS.len()
        + 2 * s.links.len() * crate::probe::PORT_COLUMNS.len();
    t.samples(until, s.run.sample_interval_ms, columns);
    let ports = s.links.iter().enumerate().flat_map(|(i, l)| {
        (0..2).map(move |d| {
            let path =
                format!("links.{}.{}.buffer_cells", l.id, if d == 0 { "a_to_b" } else { "b_to_a" });
            ((i, d), path, cps(l.rate_mbps), l.ports[d].buffer_cells as f64)
        })
    });
    t.queues(ports, until / 1000.0);
    t.cost
}

/// The packet model's estimate: UDP at its rate (capped by its access link),
/// TCP at most its path's slowest link, each packet with its ACK back.
pub fn ip_cost(s: &IpScenario) -> Cost {
    let until = s.run.until_ms;
    let pairs = link_pairs(s.links.iter().map(|l| (l.a, l.b)));
    let mut t = Tally { offered: HashMap::new(), cost: Cost::default() };
    // TCP is held near its max-min share by its congestion control (a margin
    // for slow start and the sawtooth); UDP sends its rate, capped at its access link.
    struct Source {
        path: String,
        ports: Vec<(usize, usize)>,
        bps: f64,
        bits: f64,
        tcp: bool,
        secs: f64,
    }
    let sources: Vec<Source> = s
        .flows
        .iter()
        .map(|f| {
            let ports = ports_on(&f.path, &pairs);
            let slowest =
                ports.iter().map(|&(l, _)| s.links[l].rate_mbps).fold(f64::INFINITY, f64::min);
            let first = ports.first().map_or(f64::INFINITY, |&(l, _)| s.links[l].rate_mbps);
            let bits = 8.0 * f.packet_bytes.max(1) as f64;
            let (mbps, tcp) = match f.kind {
                FlowKindSpec::Tcp(_) => (slowest, true),
                FlowKindSpec::Udp { rate_mbps, alt_rate_mbps, .. } => {
                    (alt_rate_mbps.map_or(rate_mbps, |a| a.max(rate_mbps)).min(first), false)
                }
            };
            Source {
                path: format!("flows.{}", f.group),
                ports,
                bps: mbps * 1e6,
                bits,
                tcp,
                secs: on_ms(f.start_ms, f.stop_ms, until) / 1000.0,
            }
        })
        .collect();
    let capacity: Vec<f64> =
        s.links.iter().flat_map(|l| [l.rate_mbps * 1e6, l.rate_mbps * 1e6]).collect();
    let flows: Vec<crate::probe::Flow> = sources
        .iter()
        .map(|x| crate::probe::Flow {
            resources: x.ports.iter().map(|&(k, d)| (2 * k + d) as u32).collect(),
            demand: x.bps,
        })
        .collect();
    let shares = crate::probe::max_min_fair(&capacity, &flows);
    for (x, share) in sources.iter().zip(shares) {
        let bps = if x.tcp { x.bps.min(1.5 * share) } else { x.bps };
        // At least a segment every 200 ms (a retransmission timer's floor).
        let per_s = (bps / x.bits).max(5.0);
        for &p in &x.ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        // A TCP segment's ACK comes back over as many hops.
        let per_hop = if x.tcp { 4.0 } else { 2.0 };
        t.source(x.path.clone(), per_s, x.secs, x.ports.len(), per_hop, "packets");
    }
    let columns = 6 + 6 * 2 * s.links.len() + 6 * s.flows.len();
    t.samples(until, s.run.sample_interval_ms, columns);
    let ports = s.links.iter().enumerate().flat_map(|(i, l)| {
        (0..2).map(move |d| {
            let path =
                format!("links.{}.{}.buffer_pkts", l.id, if d == 0 { "a_to_b" } else { "b_to_a" });
            // In full-size (1500-byte) packets, as the flows offer them.
            ((i, d), path, l.rate_mbps * 1e6 / 12_000.0, l.ports[d].buffer_pkts as f64)
        })
    });
    t.queues(ports, until / 1000.0);
    t.cost
}
