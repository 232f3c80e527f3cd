//! The cell model's cost estimate (the arithmetic is
//! `crate::scenario::cost`'s).

use super::{Scenario, TrafficSpec};
use crate::scenario::cost::ORACLE_STEPS_PER_EVENT;
use crate::scenario::cost::{link_pairs, on_ms, ports_on, Cost, Tally, Term};
use std::collections::{HashMap, HashSet};

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
        /// Cells per message a request–response loop receives (each whole
        /// message recomputes the shares), else 0.
        message_cells: f64,
    }
    // What the max-min oracle may be given as demands: PCRs and rate caps.
    let mut demands = HashSet::new();
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
            let mut message_cells = 0.0;
            demands.insert(vc.params.pcr_mbps.to_bits());
            let (start, stop, duty, edges_per_s) = match *traffic {
                TrafficSpec::OnOff { start_ms, stop_ms, on_ms, off_ms } => {
                    let period = (on_ms + off_ms).max(f64::MIN_POSITIVE);
                    (start_ms, stop_ms, on_ms / period, 2000.0 / period)
                }
                TrafficSpec::Bottlenecked { start_ms, stop_ms, rate_mbps, .. } => {
                    demands.insert(rate_mbps.to_bits());
                    (start_ms, stop_ms, 1.0, 0.0)
                }
                TrafficSpec::RequestResponse {
                    start_ms,
                    stop_ms,
                    request_cells,
                    response_cells,
                } => {
                    message_cells = request_cells.min(response_cells).max(1) as f64;
                    (start_ms, stop_ms, 1.0, 0.0)
                }
                TrafficSpec::Persistent { start_ms, stop_ms } => (start_ms, stop_ms, 1.0, 0.0),
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
                message_cells,
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
    // The max-min oracle is recomputed whenever what the loops send may change: each loop's
    // connection, start, stop and bottleneck's end, each on/off switch (a loop's or a
    // background's) and each whole request–response message. Each recomputation looks at every
    // port, loop and background source, then water-fills: every round raises the unfrozen
    // loops until a port saturates or a demand is met, freezing at least one loop, and a port
    // or a demand value ends at most one round, so the rounds are at most the loops, and at
    // most the distinct demands plus the ports the loops cross.
    let hops: usize = loops.iter().map(|l| l.ports.len()).sum();
    let crossed: HashSet<(usize, usize)> = loops.iter().flat_map(|l| l.ports.clone()).collect();
    let rounds = 1.0 + loops.len().min(demands.len() + crossed.len()) as f64;
    let background_hops: usize = background.iter().map(|b| b.1.len()).sum();
    let sources = loops.len() + background.len();
    let fixed = capacity.len() + s.vcs.len() + background_hops;
    let steps = fixed as f64 + rounds * (2 * hops + 3 * loops.len() + capacity.len()) as f64;
    let recompute = 1.0 + steps / ORACLE_STEPS_PER_EVENT;
    let mut recomputations = 0.0;
    for (l, share) in loops.iter().zip(&shares) {
        let full = l.pcr_cps * l.duty;
        let per_s = if l.controlled { full.min(MARGIN * share) } else { full }.max(l.floor_cps);
        for &p in &l.ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        t.source(l.name.clone(), per_s, l.secs, l.ports.len(), l.per_hop, "cells");
        let messages = if l.message_cells > 0.0 { per_s / l.message_cells } else { 0.0 };
        recomputations += 4.0 + (l.edges_per_s + messages) * l.secs;
    }
    for (b, ports, per_s) in background {
        for &p in &ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        let secs = on_ms(b.start_ms, b.stop_ms, until) / 1000.0;
        t.source(format!("background.{}", b.id), per_s, secs, ports.len(), 2.0, "cells");
        recomputations += 2.0;
        if let Some(on) = b.on_ms {
            let period = (on + b.off_ms).max(f64::MIN_POSITIVE);
            recomputations += 2000.0 / period * secs;
        }
    }
    if recomputations > 0.0 {
        // Each is an event of its own too (a switch, a start), at least one.
        t.cost.events.push(Term {
            path: if loops.is_empty() { "background" } else { "vcs" }.into(),
            value: recomputations * recompute,
            detail: format!(
                "{recomputations:.0} recomputations of the max-min shares × {steps:.0} steps each"
            ),
        });
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
    let links = s.links.iter().enumerate().flat_map(|(i, l)| {
        (0..2).map(move |d| {
            let path = format!("links.{}.delay_ms", l.id);
            ((i, d), path, cps(l.rate_mbps), l.delay_ms / 1000.0)
        })
    });
    t.in_flight(links, "cells");
    t.network(2 * s.links.len(), sources, hops + background_hops);
    t.cost
}
