//! The packet model's cost estimate (the arithmetic is
//! `crate::scenario::cost`'s).

use super::{FlowKindSpec, IpScenario};
use crate::ip::aqm::AqmConfig;
use crate::scenario::cost::{link_pairs, on_ms, ports_on, Cost, Tally, Term};
use std::collections::HashMap;

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
        /// TCP: its minimum retransmission timeout, s.
        min_rto: Option<f64>,
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
            let (mbps, min_rto) = match &f.kind {
                FlowKindSpec::Tcp(p) => (slowest, Some(p.min_rto.as_secs())),
                FlowKindSpec::Udp { rate_mbps, alt_rate_mbps, .. } => {
                    (alt_rate_mbps.map_or(*rate_mbps, |a| a.max(*rate_mbps)).min(first), None)
                }
            };
            Source {
                path: format!("flows.{}", f.group),
                ports,
                bps: mbps * 1e6,
                bits,
                min_rto,
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
        let bps = if x.min_rto.is_some() { x.bps.min(1.5 * share) } else { x.bps };
        // At least a packet every 200 ms; a TCP segment at least every minimum RTO (a
        // retransmission when the link is too slow for any ACK to come back in time).
        let floor = x.min_rto.map_or(5.0, |rto| 1.0 / rto.max(1e-6)).max(5.0);
        let per_s = (bps / x.bits).max(floor);
        for &p in &x.ports {
            *t.offered.entry(p).or_insert(0.0) += per_s;
        }
        // A TCP segment's ACK comes back over as many hops.
        let per_hop = if x.min_rto.is_some() { 4.0 } else { 2.0 };
        t.source(x.path.clone(), per_s, x.secs, x.ports.len(), per_hop, "packets");
        if let Some(rto) = x.min_rto {
            // Its timers: the retransmission timer's live event, moved on by each ACK, fires
            // at most once per minimum RTO; a timer moved earlier (a stale event) or a
            // delayed ACK's, at most once per segment.
            let per_s = 1.0 / rto.max(1e-6) + per_s;
            t.cost.events.push(Term {
                path: x.path.clone(),
                value: per_s * x.secs,
                detail: format!("{per_s:.0} TCP timer events/s × {} s", x.secs),
            });
        }
    }
    // A BAT port updates its drop rates every Δt, and samples for CLCC every
    // `sample` when configured, whatever the traffic.
    for l in &s.links {
        for (d, port) in l.ports.iter().enumerate() {
            let AqmConfig::Bat(bat) = &port.aqm else { continue };
            let dir = if d == 0 { "a_to_b" } else { "b_to_a" };
            let mut ticks = until / bat.interval.as_ms().max(f64::MIN_POSITIVE);
            if let Some(c) = &bat.clcc {
                ticks += until / c.sample.as_ms().max(f64::MIN_POSITIVE);
            }
            t.cost.events.push(Term {
                path: format!("links.{}.{dir}.aqm.interval_ms", l.id),
                value: ticks.ceil(),
                detail: format!("{:.0} updates of the BAT AQM", ticks.ceil()),
            });
        }
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
    let links = s.links.iter().enumerate().flat_map(|(i, l)| {
        (0..2).map(move |d| {
            let path = format!("links.{}.delay_ms", l.id);
            // At most a 40-byte packet (an ACK) per 320 bits of the link.
            ((i, d), path, l.rate_mbps * 1e6 / 320.0, l.delay_ms / 1000.0)
        })
    });
    t.in_flight(links, "packets");
    let hops = sources.iter().map(|x| x.ports.len()).sum();
    t.network(2 * s.links.len(), sources.len(), hops);
    t.cost
}
