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
        /// On/off switches per second: each changes the max-min oracle's inputs.
        edges_per_s: f64,
        /// Cells per message a request–response loop receives (each whole
        /// message changes the oracle's inputs), else 0.
        message_cells: f64,
        /// The least the oracle may be given as its demand, cells/s.
        least_demand_cps: f64,
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
            let mut least_demand = vc.params.pcr_mbps.min(slowest);
            let (start, stop, duty, edges_per_s) = match *traffic {
                TrafficSpec::OnOff { start_ms, stop_ms, on_ms, off_ms } => {
                    let period = (on_ms + off_ms).max(f64::MIN_POSITIVE);
                    (start_ms, stop_ms, on_ms / period, 2000.0 / period)
                }
                TrafficSpec::Bottlenecked { start_ms, stop_ms, rate_mbps, .. } => {
                    demands.insert(rate_mbps.to_bits());
                    least_demand = least_demand.min(rate_mbps);
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
                least_demand_cps: cps(least_demand),
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
    // The max-min oracle's inputs change whenever what the loops send may: each loop's
    // connection, start, stop and bottleneck's end, each on/off switch (a loop's or a
    // background's) and each whole request–response message. Each change looks at every port,
    // loop and background hop; the water-filling runs only when a sample reads the shares after
    // a change, so at most once per change and once per sample row.
    let hops: usize = loops.iter().map(|l| l.ports.len()).sum();
    let background_hops: usize = background.iter().map(|b| b.1.len()).sum();
    let sources = loops.len() + background.len();
    let change_steps = (capacity.len() + loops.len() + background_hops) as f64;
    let mut on_port: HashMap<(usize, usize), Vec<f64>> = HashMap::new();
    for l in &loops {
        for &p in &l.ports {
            on_port.entry(p).or_default().push(l.least_demand_cps);
        }
    }
    let rounds =
        water_filling_rounds(on_port, |(k, d)| capacity[2 * k + d], demands.len(), loops.len());
    let steps = (capacity.len() + loops.len()) as f64
        + rounds * (2 * hops + 3 * loops.len() + capacity.len()) as f64;
    let mut changes: f64 = 0.0;
    for (l, share) in loops.iter().zip(&shares) {
        let full = l.pcr_cps * l.duty;
        let per_s = if l.controlled { full.min(MARGIN * share) } else { full }.max(l.floor_cps);
        for &p in &l.ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        t.source(l.name.clone(), per_s, l.secs, l.ports.len(), l.per_hop, "cells");
        let messages = if l.message_cells > 0.0 { per_s / l.message_cells } else { 0.0 };
        changes += 4.0 + (l.edges_per_s + messages) * l.secs;
    }
    for (b, ports, per_s) in background {
        for &p in &ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        let secs = on_ms(b.start_ms, b.stop_ms, until) / 1000.0;
        t.source(format!("background.{}", b.id), per_s, secs, ports.len(), 2.0, "cells");
        changes += 2.0;
        if let Some(on) = b.on_ms {
            let period = (on + b.off_ms).max(f64::MIN_POSITIVE);
            changes += 2000.0 / period * secs;
        }
    }
    if changes > 0.0 {
        // Each change is an event of its own too (a switch, a start), at least one.
        let rows = (until / s.run.sample_interval_ms).ceil() + 1.0;
        let fillings = changes.min(rows);
        t.cost.events.push(Term {
            path: if loops.is_empty() { "background" } else { "vcs" }.into(),
            value: changes * (1.0 + change_steps / ORACLE_STEPS_PER_EVENT)
                + fillings * steps / ORACLE_STEPS_PER_EVENT,
            detail: format!(
                "{changes:.0} changes of the max-min oracle's inputs × {change_steps:.0} \
                 steps each, and {fillings:.0} water-fillings × {steps:.0} steps each"
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

/// The most rounds the oracle's water-filling takes, whichever of the loops
/// are active: every round but the last freezes the loops crossing a port it
/// saturates or those whose demand it meets. A port saturates once, so those
/// rounds are at most the ports crossed. The loops frozen at their demands
/// on a port hold together at most its capacity, so their distinct demands
/// are at most as many of the least there as fit in it; and all ports'
/// together are at most the distinct demands. `on_port` maps each crossed
/// port to the least demand of each loop crossing it, cells/s.
fn water_filling_rounds(
    on_port: HashMap<(usize, usize), Vec<f64>>,
    capacity_cps: impl Fn((usize, usize)) -> f64,
    demands: usize,
    loops: usize,
) -> f64 {
    let crossed = on_port.len();
    let mut met = 0usize;
    for (port, mut least) in on_port {
        least.sort_by(f64::total_cmp);
        least.dedup();
        let room = capacity_cps(port) * (1.0 + 1e-6);
        let mut held = 0.0;
        met += least
            .iter()
            .take_while(|&&d| {
                held += d;
                held <= room
            })
            .count();
    }
    1.0 + loops.min(met.min(demands) + crossed) as f64
}
