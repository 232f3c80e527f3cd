//! Building a cell-model simulation from a validated scenario: nodes, links
//! and their ports, the VCs' loops with their negotiated ABR parameters
//! (Fahmy et al. §3.2), background sources, and the first events.

use super::*;
use crate::scenario::topology::PortEnds;

impl Simulation {
    /// Builds a validated scenario (scenario → simulation in one step).
    pub fn build(s: &Scenario) -> Simulation {
        Simulation::build_with(s, true)
    }

    /// Builds a validated scenario without the event-saving shortcuts: every
    /// cell's arrival over every link is an event of its own and every
    /// source sends by its own events — no links whose data cells land
    /// without events, no sole senders, no lazy sources. Slower; for
    /// tests/shortcuts.rs, which checks that the shortcuts change what a run
    /// costs and never what it computes.
    #[doc(hidden)]
    pub fn build_without_shortcuts(s: &Scenario) -> Simulation {
        Simulation::build_with(s, false)
    }

    fn build_with(s: &Scenario, shortcuts: bool) -> Simulation {
        let nodes: Vec<Node> = s
            .nodes
            .iter()
            .map(|n| Node { id: n.id.clone(), kind: n.kind, x: n.x, y: n.y })
            .collect();
        let loop_count: usize = s.vcs.iter().map(|v| 1 + v.bidirectional as usize).sum();
        let mut links = Vec::with_capacity(s.links.len());
        let mut ports = Vec::with_capacity(2 * s.links.len());
        for (li, l) in s.links.iter().enumerate() {
            let rate_cps = mbps_to_cells_per_s(l.rate_mbps);
            let delay = SimTime::from_ms(l.delay_ms);
            let first = ports.len() as u32;
            for (dir, ends) in PortEnds::of_link(&l.id, li, l.a, l.b).into_iter().enumerate() {
                let spec = &l.ports[dir];
                let setup_delay = SimTime::from_ms(spec.setup_ms);
                let at_switch = nodes[ends.from as usize].kind == NodeKind::Switch;
                ports.push(Port::new(
                    ends,
                    at_switch,
                    rate_cps,
                    delay,
                    spec.buffer_cells,
                    spec.discipline,
                    spec.algorithm.build(),
                ));
                let port = ports.last_mut().expect("just pushed");
                port.setup_delay = setup_delay;
                port.setup_in_band = spec.setup_in_band;
            }
            links.push(Link::new(&l.id, (l.a, l.b), l.rate_mbps, delay, [first, first + 1]));
        }
        let route = |path: &[usize]| -> Vec<u32> {
            path.windows(2)
                .map(|w| {
                    let link = links
                        .iter()
                        .find(|l| {
                            (l.a as usize, l.b as usize) == (w[0], w[1])
                                || (l.b as usize, l.a as usize) == (w[0], w[1])
                        })
                        .expect("validated path has a link between consecutive nodes");
                    if link.a as usize == w[0] {
                        link.ports[0]
                    } else {
                        link.ports[1]
                    }
                })
                .collect()
        };

        let mut warnings = s.warnings.clone();
        let mut vcs: Vec<Vc> = Vec::with_capacity(loop_count);
        for v in &s.vcs {
            let forward_index = vcs.len() as u32;
            let mut directions = vec![(v.path.clone(), v.traffic.clone(), false)];
            if v.bidirectional {
                let reverse: Vec<usize> = v.path.iter().rev().copied().collect();
                let traffic = v.reverse_traffic.clone().unwrap_or_else(|| v.traffic.clone());
                directions.push((reverse, traffic, true));
            }
            for (path, traffic, reverse) in directions {
                let fwd_ports = route(&path);
                let rev_ports: Vec<u32> = route(&path.iter().rev().copied().collect::<Vec<_>>());
                // FRTT is accumulated at set-up (Fahmy et al. Table 1); a switched
                // VC's set-up and connect accumulate it again as they cross the path.
                let params = abr_params(&v.params, &fwd_ports, &ports);
                let message_cells = match v.traffic {
                    TrafficSpec::RequestResponse { request_cells, response_cells, .. } => {
                        Some(if reverse { response_cells } else { request_cells })
                    }
                    _ => None,
                };
                let mut source = AbrSource::new(params, traffic_of(&traffic, reverse));
                if message_cells.is_some() && !reverse {
                    source.backlog = message_cells.unwrap_or(0);
                }
                vcs.push(Vc {
                    id: if reverse { format!("{}:rev", v.id) } else { v.id.clone() },
                    reverse_of: reverse.then_some(forward_index),
                    partner: v.bidirectional.then_some(if reverse {
                        forward_index
                    } else {
                        forward_index + 1
                    }),
                    nodes: path.iter().map(|&n| n as u32).collect(),
                    host_port: fwd_ports[0],
                    fwd_ports,
                    rev_ports,
                    source,
                    dest: Destination::default(),
                    startup: v.startup,
                    switched: v.params.switched || v.startup != Startup::AtmForum,
                    message_cells,
                    message_progress: 0,
                    messages_done: 0,
                    brm_direct: 0,
                    sole_sender: false,
                    sends_first: false,
                    armed: None,
                    lazy: None,
                    rm_at: SimTime::NEVER,
                    acr_area: 0.0,
                    acr_since: SimTime::ZERO,
                    signal: None,
                    setup_sent: None,
                    connected_at: None,
                });
            }
            if v.startup != Startup::AtmForum {
                let supported = vcs[forward_index as usize]
                    .fwd_ports
                    .iter()
                    .any(|&p| ports[p as usize].algorithm.supports_setup());
                if !supported {
                    warnings.push(ScenarioError::new(
                        format!("vcs.{}.startup", v.id),
                        format!(
                            "\"{}\" needs a switch algorithm that allocates at set-up; none on this path does, so the VC starts at PCR",
                            v.startup.as_str()
                        ),
                    ));
                }
            }
        }

        // Each port's algorithm keeps per-VC state only for the loops whose
        // forward cells leave by it.
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); ports.len()];
        for (i, v) in vcs.iter().enumerate() {
            for &p in &v.fwd_ports {
                members[p as usize].push(i as u32);
            }
        }
        for (port, m) in ports.iter_mut().zip(members) {
            port.algorithm.set_members(m);
        }
        // Links into a host: data and background cells only count there
        // (one event per cell saved), unless a loop's data makes a
        // message whose last cell has the other end reply (request–response).
        let mut lazy: Vec<bool> =
            ports.iter().map(|p| nodes[p.to as usize].kind == NodeKind::Host).collect();
        for v in vcs.iter().filter(|v| v.message_cells.is_some() && v.partner.is_some()) {
            if let Some(&last) = v.fwd_ports.last() {
                lazy[last as usize] = false;
            }
        }
        for (port, lazy) in ports.iter_mut().zip(lazy) {
            // Without the shortcuts every arrival at the host is an event;
            // the transmitter still starts each cell by its timer.
            port.wire.set_lazy(lazy && shortcuts);
            if lazy {
                port.starts = Starts::Timed;
            }
        }
        let background: Vec<BackgroundSource> =
            s.background.iter().map(|b| background_source(b, &route)).collect();
        // Cells enter a port from the loops whose forward cells or whose
        // BRMs leave by it — a loop with a partner hands its destination's
        // BRMs to the partner's source, which sends them by its own port —
        // and from background sources.
        let mut senders = vec![0u32; ports.len()];
        for v in &vcs {
            let brms = if v.partner.is_some() { &v.rev_ports[1..] } else { &v.rev_ports[..] };
            for &p in v.fwd_ports.iter().chain(brms) {
                senders[p as usize] += 1;
            }
        }
        for b in &background {
            for &p in &b.ports {
                senders[p as usize] += 1;
            }
        }
        let Hops { next, last, feeders, first } = route_hops(ports.len(), &vcs, &background);
        if shortcuts {
            lazy_links(&mut ports, &nodes, &senders, &next, &feeders, &first);
        }
        next_hops(&mut ports, &vcs, &next, &last);
        // A source whose host port nothing else enters, on a link that ends
        // at a switch, sends without events of its own.
        for v in &mut vcs {
            let host = v.host_port as usize;
            let sole = senders[host] == 1 && !ports[host].wire.is_lazy();
            v.sole_sender = shortcuts && sole;
            v.sends_first = !shortcuts && sole;
        }
        let merges = if shortcuts {
            sources::lazy_sources(&mut ports, &mut vcs, &senders, &next, &feeders, &first)
        } else {
            Vec::new()
        };
        let columns = probe::column_names(
            vcs.iter().map(|v| v.id.as_str()),
            ports.iter().map(|p| p.id.as_str()),
        );
        let mut sim = Simulation {
            meta: s.meta.clone(),
            run: s.run.clone(),
            warnings,
            // About one pending event per loop (its next cell) and two per
            // busy port (its wire's head, its transmitter).
            queue: EventQueue::for_sources(loop_count),
            nodes,
            links,
            ports,
            maxmin_cps: vec![0.0; vcs.len()],
            oracle: Default::default(),
            vcs,
            background,
            rec: Recorder::new(columns, s.run.sample_interval_ms),
            merges,
            source_cells: 0,
        };
        for vc in 0..sim.vcs.len() {
            let start = sim.vcs[vc].source.traffic.start();
            sim.queue.schedule(start, Event::TrafficChange { vc: vc as u32 });
        }
        for b in 0..sim.background.len() {
            if let Some(t) = sim.background[b].next_edge(SimTime::ZERO).or(Some(SimTime::ZERO)) {
                sim.queue.schedule(t, Event::BackgroundEdge { source: b as u32 });
            }
        }
        for p in 0..sim.ports.len() {
            if let Some(t) = sim.ports[p].algorithm.first_tick(SimTime::ZERO) {
                sim.queue.schedule(t, Event::AlgorithmTick { port: p as u32 });
            }
        }
        sim.queue.schedule(sim.rec.due(), Event::Sample);
        sim
    }
}

pub(super) fn traffic_of(spec: &TrafficSpec, reverse_role: bool) -> Traffic {
    let t = |ms: f64| SimTime::from_ms(ms);
    match *spec {
        TrafficSpec::Persistent { start_ms, stop_ms } => {
            Traffic::Persistent { start: t(start_ms), stop: stop_ms.map(t) }
        }
        TrafficSpec::Bottlenecked { start_ms, stop_ms, rate_mbps, for_ms } => {
            Traffic::Bottlenecked {
                start: t(start_ms),
                stop: stop_ms.map(t),
                rate_cps: mbps_to_cells_per_s(rate_mbps),
                until: t(start_ms + for_ms),
            }
        }
        TrafficSpec::OnOff { start_ms, stop_ms, on_ms, off_ms } => Traffic::OnOff {
            start: t(start_ms),
            stop: stop_ms.map(t),
            on: t(on_ms),
            off: t(off_ms),
        },
        // The server answers for as long as the client may ask.
        TrafficSpec::RequestResponse { start_ms, stop_ms, .. } => Traffic::Messages {
            start: t(start_ms),
            stop: if reverse_role { None } else { stop_ms.map(t) },
        },
    }
}

/// A loop's ABR parameters from its VC's scenario parameters and the ports
/// of its forward path (PCR negotiated down to the slowest link, FRTT from
/// the propagation both ways).
pub(super) fn abr_params(q: &VcParams, fwd_ports: &[u32], ports: &[Port]) -> AbrParams {
    // FRTT: the fixed round trip accumulated at set-up (propagation both ways).
    let frtt = SimTime(fwd_ports.iter().map(|&p| 2 * ports[p as usize].delay.0).sum());
    let slowest =
        fwd_ports.iter().map(|&p| ports[p as usize].rate_cps).fold(f64::INFINITY, f64::min);
    let pcr = mbps_to_cells_per_s(q.pcr_mbps).min(slowest);
    AbrParams {
        pcr,
        mcr: mbps_to_cells_per_s(q.mcr_mbps).min(pcr),
        icr: mbps_to_cells_per_s(q.icr_mbps).min(pcr),
        tcr: q.tcr_cps,
        nrm: q.nrm,
        mrm: q.mrm,
        trm: SimTime::from_ms(q.trm_ms),
        rif: q.rif,
        rdf: q.rdf,
        adtf: SimTime::from_ms(q.adtf_s * 1000.0),
        tbe: q.tbe_cells,
        cdf: q.cdf,
        crm: q.crm.map(|c| c as u64),
        cdf_every_crm: q.cdf_every_crm,
        frtt,
    }
}

pub(super) fn background_source(
    b: &BackgroundSpec,
    route: &dyn Fn(&[usize]) -> Vec<u32>,
) -> BackgroundSource {
    let rate_cps = mbps_to_cells_per_s(b.rate_mbps);
    let first_on = SimTime::from_ms(b.start_ms + b.phase_ms);
    BackgroundSource {
        id: b.id.clone(),
        kind: b.kind.clone(),
        nodes: b.path.iter().map(|&n| n as u32).collect(),
        ports: route(&b.path),
        rate_cps,
        interval: cell_interval(rate_cps),
        first_on,
        on: b.on_ms.map(SimTime::from_ms),
        off: SimTime::from_ms(b.off_ms),
        stop: b.stop_ms.map(SimTime::from_ms),
        is_on: false,
        sending: false,
        sent: 0,
        received: 0,
    }
}

/// What the build reads off the routes, port by port; each list in port
/// order without repeats.
struct Hops {
    /// Where the port's data and background cells go next.
    next: Vec<Vec<u32>>,
    /// Whether a data or background route ends at the port.
    last: Vec<bool>,
    /// The ports whose cells of any kind (BRMs too) enter the port.
    feeders: Vec<Vec<u32>>,
    /// Whether any route starts at the port.
    first: Vec<bool>,
}

fn route_hops(ports: usize, vcs: &[Vc], background: &[BackgroundSource]) -> Hops {
    let mut h = Hops {
        next: vec![Vec::new(); ports],
        last: vec![false; ports],
        feeders: vec![Vec::new(); ports],
        first: vec![false; ports],
    };
    let backgrounds = || background.iter().map(|b| &b.ports);
    for route in vcs.iter().map(|v| &v.fwd_ports).chain(backgrounds()) {
        for hop in route.windows(2) {
            h.next[hop[0] as usize].push(hop[1]);
        }
        if let Some(&p) = route.last() {
            h.last[p as usize] = true;
        }
    }
    for route in vcs.iter().flat_map(|v| [&v.fwd_ports, &v.rev_ports]).chain(backgrounds()) {
        for hop in route.windows(2) {
            h.feeders[hop[1] as usize].push(hop[0]);
        }
        if let Some(&p) = route.first() {
            h.first[p as usize] = true;
        }
    }
    for list in h.next.iter_mut().chain(&mut h.feeders) {
        list.sort_unstable();
        list.dedup();
    }
    h
}

/// The most entries of the loop-indexed tables [`next_hops`] builds, in
/// all: 4 MiB.
const MAX_HOP_TABLE: usize = 1 << 20;

/// Tells each port where the far node sends the data cells that arrive over
/// its link ([`Port::next_hop`]): one port for all, or else, at a port whose
/// cells fan out (a trunk into the switch that serves each source's
/// destination), a table by loop.
/// `next` and `last` are [`Hops`]'.
fn next_hops(ports: &mut [Port], vcs: &[Vc], next: &[Vec<u32>], last: &[bool]) {
    let fanning = (0..ports.len()).filter(|&p| next[p].len() > 1 || last[p] && !next[p].is_empty());
    let tables = fanning.count().saturating_mul(vcs.len()) <= MAX_HOP_TABLE;
    for p in 0..ports.len() {
        ports[p].next_hop = match (&next[p][..], last[p]) {
            ([], _) => NextHop::Route,
            ([to], false) => NextHop::One(*to),
            _ if tables => NextHop::ByLoop(vec![NextHop::END; vcs.len()].into()),
            _ => NextHop::Route,
        };
    }
    for (l, v) in vcs.iter().enumerate() {
        for hop in v.fwd_ports.windows(2) {
            if let NextHop::ByLoop(table) = &mut ports[hop[0] as usize].next_hop {
                table[l] = hop[1];
            }
        }
    }
}

/// The most links whose cells [`lazy_links`] lands merged into one port:
/// each landing looks at every one's head.
const MAX_MERGED: usize = 8;

/// Marks the links whose data and background cells land without events
/// (for speed), as [`Starts::Guarded`] ports with lazy wires:
///
/// - The *last trunks*: a link between switches whose data and background
///   cells all go on, at its far switch, to ports that no other link feeds,
///   that are at least as fast (so they never hold a queue) and whose links
///   end at hosts where those cells only count. Such a cell's arrival at the
///   far switch needs no event: nothing can see it there before it reaches
///   the host, where it needs none either. The trunk's data cells land when
///   its next RM cell arrives, or before anything reads or changes the ports
///   it feeds (`Simulation::land_feeder`); its waiting cells start by
///   catch-up under a guard event. With the events their own transmissions
///   at the far switch spared, a source cell on the benchmark's workloads
///   costs one event on its way to the destination instead of two.
/// - The host links into a last trunk, when every link that feeds the
///   trunk is one, nothing else enters it, and several sources share each
///   (sole senders' links are `sources::lazy_sources`'): the
///   sources' cells then cost one event each, their `SourceSend`, where
///   their arrivals at the switch were a second (`ma-500-vcs`, 250 sources
///   on each of two host links). They land in the trunk merged in time
///   order (`Simulation::land_merged`) when an RM cell arrives over one of
///   them, or before anything reads or changes the trunk; nothing else can
///   see them before: the trunk is lazy itself.
///
/// `next`, `feeders` and `first` are [`Hops`]'.
fn lazy_links(
    ports: &mut [Port],
    nodes: &[Node],
    senders: &[u32],
    next: &[Vec<u32>],
    feeders: &[Vec<u32>],
    first: &[bool],
) {
    for trunk in 0..ports.len() {
        let t = &ports[trunk];
        if !t.at_switch || nodes[t.to as usize].kind != NodeKind::Switch || next[trunk].is_empty() {
            continue;
        }
        let fed_alone = |x: u32| {
            let p = &ports[x as usize];
            p.starts == Starts::Timed
                && p.cell_time <= t.cell_time
                && feeders[x as usize] == [trunk as u32]
        };
        if next[trunk].iter().all(|&x| fed_alone(x)) {
            ports[trunk].wire.set_lazy(true);
            ports[trunk].starts = Starts::Guarded;
            for &x in &next[trunk] {
                ports[x as usize].feeders = vec![trunk as u32];
            }
        }
    }
    for trunk in 0..ports.len() {
        let into_trunk = |w: u32| {
            let p = &ports[w as usize];
            !p.at_switch
                && nodes[p.to as usize].kind == NodeKind::Switch
                && p.starts == Starts::CaughtUp
                && senders[w as usize] > 1
                && next[w as usize] == [trunk as u32]
        };
        let links = &feeders[trunk];
        if ports[trunk].starts == Starts::Guarded
            && !first[trunk]
            && !links.is_empty()
            && links.len() <= MAX_MERGED
            && links.iter().all(|&w| into_trunk(w))
        {
            for &w in links {
                let p = &mut ports[w as usize];
                p.wire.set_lazy(true);
                p.starts = Starts::Guarded;
                p.lands_into = Some(trunk as u32);
            }
            ports[trunk].feeders = links.clone();
        }
    }
}
