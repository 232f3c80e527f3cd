//! The cell model's cost estimate (the arithmetic is
//! `crate::scenario::cost`'s).

use super::{Scenario, TrafficSpec};
use crate::scenario::cost::{link_pairs, on_ms, ports_on, Cost, Tally, Term};
use std::collections::HashMap;

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
