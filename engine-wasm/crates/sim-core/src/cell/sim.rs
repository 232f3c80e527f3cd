//! The simulation: a built scenario and the event loop that drives it. Cells
//! flow source → host port → switch ports → destination; FRMs are turned
//! around and come back as BRMs, passing each switch's algorithm on the way.
//! Everything is plain Rust; the wasm layer and the native runner both drive
//! this type through [`Simulation::run_until`].
//!
//! A bidirectional VC is two *loops* sharing end systems: `vc1` (forward) and
//! `vc1:rev` (the destination's own traffic back along the reversed path).
//! Each loop has its own ABR source and destination; the BRMs a destination
//! turns around wait at the partner loop's source and go out by its rule 3
//! (SPEC §4). A unidirectional VC's destination sends its BRMs at once.

use super::event::Event;
use crate::cell::endsystem::{AbrParams, AbrSource, Destination, Traffic};
use crate::cell::net::{Cell, CellKind, Link, Node, NodeKind, Offer, Port, RmFields};
use crate::cell::scenario::{
    self, params, BackgroundSpec, Scenario, Startup, TrafficSpec, VcParams,
};
use crate::cell::switch_alg::{Setup, SwitchAlgorithm};
use crate::kernel::{self, EventQueue, Handler, RunOutcome};
use crate::probe::{self, max_min_fair, Flow, SampleBuffer};
use crate::scenario::{apply_set, registry::Scope, Meta, RunSpec, ScenarioError};
use crate::session::{Applied, SeriesHash};
use crate::time::{cell_interval, cells_per_s_to_mbps, mbps_to_cells_per_s, SimTime};
use serde_json::Value;

mod layout;

/// One ABR loop: a route through the ports and its two end systems.
#[derive(Clone, Debug)]
pub struct Vc {
    /// `vc1`, or `vc1:rev` for the reverse loop of a bidirectional VC.
    pub id: String,
    /// For a reverse loop, the index of its forward loop.
    pub reverse_of: Option<u32>,
    /// The loop in the other direction of the same VC, if bidirectional.
    pub partner: Option<u32>,
    pub nodes: Vec<u32>,
    /// Ports the loop's forward cells leave by, source first.
    pub fwd_ports: Vec<u32>,
    /// Ports its backward RM cells leave by, destination first.
    pub rev_ports: Vec<u32>,
    pub source: AbrSource,
    pub dest: Destination,
    pub startup: Startup,
    /// Set up by signalling when its traffic starts (a switched VC, or the
    /// RATE / RM start-up); else a permanent VC, in place from the start.
    pub switched: bool,
    /// Request–response: the cells of one message this loop carries.
    pub message_cells: Option<u64>,
    /// Data cells of the current message seen by this loop's destination.
    message_progress: u64,
    /// Messages completed at this loop's destination.
    pub messages_done: u64,
    /// BRMs the destination sent straight into the network (no partner).
    pub brm_direct: u64,
    /// ∫ ACR dt over the current sample interval, in cells/s · ps.
    acr_area: f64,
    acr_since: SimTime,
    /// The set-up or connect message of this (forward) loop on its way.
    pub signal: Option<Signal>,
    /// When the set-up left the source (forward loops only).
    pub setup_sent: Option<SimTime>,
    /// When the connect reached the source and data could start.
    pub connected_at: Option<SimTime>,
}

/// A connection set-up message on its way to the destination, or the
/// connect coming back (SPEC §3; Ma & Ramakrishnan §3). At each node it is
/// first processed (the port's `setup_delay`; zero at hosts unless told),
/// then crosses the link by propagation alone: signalling travels on its own
/// channel and is not queued behind ABR cells (Ma & Ramakrishnan §5.3 note
/// that the round trip seen at set-up is shorter than with data flowing).
#[derive(Clone, Copy, Debug)]
pub struct Signal {
    /// False: the set-up, along the loop's forward ports; true: the connect,
    /// along its reverse ports.
    pub connect: bool,
    /// Index in that route of the port it leaves by (or is crossing).
    pub hop: u32,
    /// On the link (else being processed at the node before it).
    pub on_wire: bool,
    /// When the current step (processing or crossing) began and ends.
    pub since: SimTime,
    pub until: SimTime,
    /// The rate offered to the loop so far (RATE / RM options).
    pub setup: Setup,
    /// A bidirectional VC's reverse loop: the connect crosses its forward
    /// ports, so it computes (and with RM allocates) that loop's share.
    pub reverse_setup: Option<Setup>,
    /// Propagation accumulated both ways: the FRTT of seed 001 Table 1 (call
    /// processing is not a fixed delay of the data path, so not counted).
    pub frtt: SimTime,
}

impl Vc {
    fn account_acr(&mut self, now: SimTime) {
        self.acr_area += self.source.reported_acr() * (now.0 - self.acr_since.0) as f64;
        self.acr_since = now;
    }
}

/// A CBR/VBR source: a constant or square-wave cell stream with strict
/// priority and no feedback (SPEC §3 background traffic).
#[derive(Clone, Debug)]
pub struct BackgroundSource {
    pub id: String,
    pub kind: String,
    pub nodes: Vec<u32>,
    pub ports: Vec<u32>,
    pub rate_cps: f64,
    interval: SimTime,
    /// Start of the first pulse (start + phase).
    first_on: SimTime,
    on: Option<SimTime>,
    off: SimTime,
    stop: Option<SimTime>,
    /// Whether the square wave is in its on phase now.
    pub is_on: bool,
    pub sent: u64,
    pub received: u64,
}

impl BackgroundSource {
    /// The next phase edge strictly after `now`.
    fn next_edge(&self, now: SimTime) -> Option<SimTime> {
        let edge = if now < self.first_on {
            Some(self.first_on)
        } else {
            match self.on {
                None => None,
                Some(on) => {
                    let period = (on.0 + self.off.0).max(1);
                    let phase = (now.0 - self.first_on.0) % period;
                    let cycle = now.0 - phase;
                    Some(SimTime(if phase < on.0 { cycle + on.0 } else { cycle + period }))
                }
            }
        };
        match (edge, self.stop) {
            (Some(e), Some(s)) if s <= e => (s > now).then_some(s),
            (None, Some(s)) if s > now => Some(s),
            (e, _) => e,
        }
    }

    fn on_at(&self, now: SimTime) -> bool {
        if now < self.first_on || self.stop.is_some_and(|s| now >= s) {
            return false;
        }
        match self.on {
            None => true,
            Some(on) => (now.0 - self.first_on.0) % (on.0 + self.off.0).max(1) < on.0,
        }
    }
}

/// A simulation ready to run.
pub struct Simulation {
    pub meta: Meta,
    pub run: RunSpec,
    pub warnings: Vec<ScenarioError>,
    queue: EventQueue<Event>,
    pub nodes: Vec<Node>,
    pub links: Vec<Link>,
    pub ports: Vec<Port>,
    pub vcs: Vec<Vc>,
    pub background: Vec<BackgroundSource>,
    /// The max-min fair rate of each loop for the loops active now, cells/s.
    pub maxmin_cps: Vec<f64>,
    samples: SampleBuffer,
    columns: Vec<String>,
    sample_interval_ms: f64,
    next_sample: u64,
    last_sample: SimTime,
    events: u64,
    /// Cells (data and RM) the ABR end systems have emitted.
    pub source_cells: u64,
    /// FNV-1a over the bits of every sample value recorded so far: equal
    /// hashes mean bit-identical series (native against wasm, run against run).
    series_hash: SeriesHash,
}

fn traffic_of(spec: &TrafficSpec, reverse_role: bool) -> Traffic {
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

impl Simulation {
    /// Parses, validates and builds scenario text within the default limits.
    pub fn from_json(text: &str) -> Result<Simulation, Vec<ScenarioError>> {
        Ok(Simulation::build(&scenario::parse_scenario(text)?))
    }

    /// Parses, validates and builds scenario text within `limits`.
    pub fn from_json_with(
        text: &str,
        limits: &crate::scenario::Limits,
    ) -> Result<Simulation, Vec<ScenarioError>> {
        Ok(Simulation::build(&scenario::parse_scenario_with(text, limits)?))
    }

    /// Builds a validated scenario (scenario → simulation in one step).
    pub fn build(s: &Scenario) -> Simulation {
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
            for (dir, (from, to)) in [(l.a, l.b), (l.b, l.a)].into_iter().enumerate() {
                let spec = &l.ports[dir];
                let id = if dir == 0 { l.id.clone() } else { format!("{}:rev", l.id) };
                let setup_delay = SimTime::from_ms(spec.setup_ms);
                ports.push(Port::new(
                    id,
                    li as u32,
                    from as u32,
                    to as u32,
                    nodes[from].kind == NodeKind::Switch,
                    rate_cps,
                    delay,
                    spec.buffer_cells,
                    spec.discipline,
                    spec.algorithm.build(loop_count),
                ));
                ports.last_mut().expect("just pushed").setup_delay = setup_delay;
            }
            links.push(Link {
                id: l.id.clone(),
                a: l.a as u32,
                b: l.b as u32,
                rate_mbps: l.rate_mbps,
                delay,
                ports: [first, first + 1],
            });
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
            port.algorithm.restrict_to(m);
        }
        // Links into a host: data and background cells only count there
        // (issue 18: one event per cell saved), unless a loop's data makes a
        // message whose last cell has the other end reply (request–response).
        let mut lazy: Vec<bool> =
            ports.iter().map(|p| nodes[p.to as usize].kind == NodeKind::Host).collect();
        for v in vcs.iter().filter(|v| v.message_cells.is_some() && v.partner.is_some()) {
            if let Some(&last) = v.fwd_ports.last() {
                lazy[last as usize] = false;
            }
        }
        for (port, lazy) in ports.iter_mut().zip(lazy) {
            port.wire.set_lazy(lazy);
        }
        let background = s.background.iter().map(|b| background_source(b, &route)).collect();
        let columns = probe::column_names(
            vcs.iter().map(|v| v.id.as_str()),
            ports.iter().map(|p| p.id.as_str()),
        );
        let mut sim = Simulation {
            meta: s.meta.clone(),
            run: s.run.clone(),
            warnings,
            // The heap holds about one event per loop (its next cell); the
            // ports' arrivals and timers can have slots.
            queue: EventQueue::for_load(loop_count, 2 * ports.len()),
            nodes,
            links,
            ports,
            maxmin_cps: vec![0.0; vcs.len()],
            vcs,
            background,
            samples: SampleBuffer::new(columns.len()),
            columns,
            sample_interval_ms: s.run.sample_interval_ms,
            next_sample: 1,
            last_sample: SimTime::ZERO,
            events: 0,
            source_cells: 0,
            series_hash: SeriesHash::new(),
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
        sim.queue.schedule(sim.sample_time(1), Event::Sample);
        sim
    }

    fn sample_time(&self, k: u64) -> SimTime {
        SimTime::from_ms(k as f64 * self.sample_interval_ms)
    }

    /// The current simulated time.
    pub fn now(&self) -> SimTime {
        self.queue.now()
    }

    /// Events waiting in the future event list.
    pub fn pending_events(&self) -> usize {
        self.queue.len()
    }

    /// The hash of every sample value recorded so far, as 16 hex digits.
    pub fn series_hash(&self) -> String {
        self.series_hash.hex()
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Names of the sample columns, in row order.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// Removes and returns the sample rows recorded since the last call (flat, row-major).
    pub fn take_samples(&mut self) -> Vec<f64> {
        self.samples.take()
    }

    /// Runs events up to and including `deadline`, handling at most `max_events`.
    pub fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        let (outcome, handled) = kernel::run_until(self, deadline, max_events);
        self.events += handled;
        let now = self.queue.now();
        self.land_arrived(now);
        outcome
    }
}

impl Handler<Event> for Simulation {
    fn queue(&mut self) -> &mut EventQueue<Event> {
        &mut self.queue
    }

    fn handle(&mut self, now: SimTime, event: Event) {
        match event {
            Event::SourceSend { vc, generation } => self.on_source_send(now, vc, generation),
            Event::TrafficChange { vc } => self.on_traffic_change(now, vc),
            Event::PortTxDone { port } => self.on_tx_done(now, port),
            Event::LinkArrive { port } => self.on_link_arrive(now, port),
            Event::AlgorithmTick { port } => {
                let p = &mut self.ports[port as usize];
                let view = p.view(now);
                if let Some(next) = p.algorithm.on_tick(&view) {
                    self.queue.schedule(next, event);
                }
            }
            Event::BackgroundSend { source } => self.on_background_send(now, source),
            Event::BackgroundEdge { source } => self.on_background_edge(now, source),
            Event::Signal { vc } => self.on_signal(now, vc),
            Event::Sample => self.on_sample(now),
        }
    }
}

impl Simulation {
    /// Makes sure `vc`'s source has a transmission opportunity scheduled if it
    /// has anything to send; before its connection is up, sets it up instead.
    fn wake_source(&mut self, now: SimTime, vc: u32) {
        if !self.vcs[vc as usize].source.started {
            // A bidirectional VC is one connection, set up from the forward end.
            let forward = self.vcs[vc as usize].reverse_of.unwrap_or(vc);
            if self.vcs[forward as usize].switched {
                self.set_up(now, forward);
                return;
            }
            // A permanent VC is in place: rule 2 at once, with the static ICR.
            let v = &mut self.vcs[vc as usize];
            v.account_acr(now);
            v.source.start();
            v.connected_at = Some(now);
        }
        let s = &mut self.vcs[vc as usize].source;
        if s.next_send.is_some() || !s.has_work(now) {
            return;
        }
        let t = s.earliest_send(now);
        s.next_send = Some(t);
        s.generation = s.generation.wrapping_add(1);
        self.queue.schedule(t, Event::SourceSend { vc, generation: s.generation });
    }

    /// The set-up offer a loop starts from: its PCR; with the RM option the
    /// switches also allocate as it passes (Ma & Ramakrishnan §3).
    fn setup_offer(&self, vc: usize) -> Setup {
        let v = &self.vcs[vc];
        let p = v.source.params;
        Setup { er: p.pcr, ccr: p.pcr, pcr: p.pcr, mcr: p.mcr, allocate: v.startup == Startup::Rm }
    }

    /// Connection set-up (SPEC §3, rule 2): the set-up message leaves the
    /// source of forward loop `vc` now and crosses the path hop by hop; data
    /// waits for the connect (see [`Simulation::on_signal`]). Once per loop.
    fn set_up(&mut self, now: SimTime, vc: u32) {
        let i = vc as usize;
        if self.vcs[i].setup_sent.is_some() {
            return;
        }
        let setup = self.setup_offer(i);
        let reverse_setup = self.vcs[i].partner.map(|p| self.setup_offer(p as usize));
        let first = self.vcs[i].fwd_ports[0] as usize;
        let until = now + self.ports[first].setup_delay;
        let v = &mut self.vcs[i];
        v.setup_sent = Some(now);
        v.signal = Some(Signal {
            connect: false,
            hop: 0,
            on_wire: false,
            since: now,
            until,
            setup,
            reverse_setup,
            frtt: SimTime::ZERO,
        });
        self.queue.schedule(until, Event::Signal { vc });
    }

    /// The set-up or connect of forward loop `vc` ends a step. Processed at a
    /// node, it leaves by the route's next port: the set-up passes that
    /// port's switch algorithm as it goes — RATE computes the loop's share
    /// there, RM also allocates it, the "early warning" to the VCs already
    /// there (Ma & Ramakrishnan §3) — and then crosses the link. Arrived at a
    /// node, it is processed there, turned round at the destination as the
    /// connect, or, back at the source, starts the loop (and its reverse).
    fn on_signal(&mut self, now: SimTime, vc: u32) {
        let i = vc as usize;
        let Some(mut sig) = self.vcs[i].signal else { return };
        let route = if sig.connect { &self.vcs[i].rev_ports } else { &self.vcs[i].fwd_ports };
        let port = route[sig.hop as usize] as usize;
        let hops = route.len() as u32;
        if !sig.on_wire {
            // Processing done: the switch acts as the message leaves by `port`.
            let (loop_index, offer) = if sig.connect {
                (self.vcs[i].partner, sig.reverse_setup.as_mut())
            } else {
                (Some(vc), Some(&mut sig.setup))
            };
            if let (Some(l), Some(offer)) = (loop_index, offer) {
                if self.vcs[l as usize].startup != Startup::AtmForum {
                    let p = &mut self.ports[port];
                    let view = p.view(now);
                    p.algorithm.on_setup(&view, l, offer);
                }
            }
            let delay = self.ports[port].delay;
            sig.on_wire = true;
            sig.since = now;
            sig.until = now + delay;
            sig.frtt = sig.frtt + delay;
        } else if sig.hop + 1 < hops || !sig.connect {
            // At the next node: the next switch, or the destination, which
            // answers with the connect along the reverse ports.
            let (hop, route) = if sig.hop + 1 < hops {
                (sig.hop + 1, route)
            } else {
                sig.connect = true;
                (0, &self.vcs[i].rev_ports)
            };
            let next = route[hop as usize] as usize;
            sig.hop = hop;
            sig.on_wire = false;
            sig.since = now;
            sig.until = now + self.ports[next].setup_delay;
        } else {
            self.vcs[i].signal = None;
            self.connect(now, vc, &sig);
            return;
        }
        self.vcs[i].signal = Some(sig);
        self.queue.schedule(sig.until, Event::Signal { vc });
    }

    /// The connect reaches the source: rule 2 runs (ACR = ICR; with RATE and
    /// RM the ICR is the share the set-up brought back) and data may flow,
    /// in both directions of a bidirectional VC.
    fn connect(&mut self, now: SimTime, vc: u32, sig: &Signal) {
        let loops =
            [(Some(vc), Some(sig.setup)), (self.vcs[vc as usize].partner, sig.reverse_setup)];
        for (l, offer) in loops {
            let (Some(l), Some(offer)) = (l, offer) else { continue };
            let v = &mut self.vcs[l as usize];
            v.account_acr(now);
            let p = v.source.params;
            if v.startup != Startup::AtmForum {
                v.source.params.icr = offer.er.min(p.pcr).max(p.mcr);
            }
            v.source.params.frtt = sig.frtt;
            v.source.start();
            v.connected_at = Some(now);
        }
        self.update_maxmin(now);
        self.wake_source(now, vc);
        if let Some(partner) = self.vcs[vc as usize].partner {
            self.wake_source(now, partner);
        }
    }

    fn on_source_send(&mut self, now: SimTime, vc: u32, generation: u32) {
        let v = &mut self.vcs[vc as usize];
        if generation != v.source.generation {
            return; // superseded by a reschedule
        }
        v.source.next_send = None;
        v.account_acr(now);
        let Some(cell) = v.source.emit(now, vc) else { return };
        self.source_cells += 1;
        // Whatever the source sends leaves by its own host's port: a BRM it
        // sends for its partner loop goes the way its own cells go, which is
        // the partner's way back.
        let port = v.fwd_ports[0];
        if v.source.has_work(now) {
            let next = now + v.source.interval_at(now);
            v.source.next_send = Some(next);
            self.queue.schedule(next, Event::SourceSend { vc, generation: v.source.generation });
        }
        self.enqueue(now, port, cell);
    }

    fn on_traffic_change(&mut self, now: SimTime, vc: u32) {
        let traffic = self.vcs[vc as usize].source.traffic;
        if traffic.active(now) || !self.vcs[vc as usize].source.started {
            self.wake_source(now, vc);
        }
        if let Some(next) = traffic.next_change(now) {
            self.queue.schedule(next, Event::TrafficChange { vc });
        }
        self.update_maxmin(now);
    }

    fn on_background_edge(&mut self, now: SimTime, source: u32) {
        let b = &mut self.background[source as usize];
        let was_on = b.is_on;
        b.is_on = b.on_at(now);
        if b.is_on && !was_on {
            self.queue.schedule(now, Event::BackgroundSend { source });
        }
        if let Some(next) = b.next_edge(now) {
            self.queue.schedule(next, Event::BackgroundEdge { source });
        }
        if b.is_on != was_on {
            self.update_maxmin(now);
        }
    }

    fn on_background_send(&mut self, now: SimTime, source: u32) {
        let b = &mut self.background[source as usize];
        if !b.is_on {
            return;
        }
        b.sent += 1;
        let next = now + b.interval;
        let port = b.ports[0];
        self.queue.schedule(next, Event::BackgroundSend { source });
        let cell =
            Cell { vc: source, kind: CellKind::Background, efci: false, rm: RmFields::EMPTY };
        self.enqueue(now, port, cell);
    }

    /// Recomputes the oracle's max-min shares for the loops sending data at
    /// `now`, over each port's ABR capacity less the background sending now.
    fn update_maxmin(&mut self, now: SimTime) {
        let mut capacity: Vec<f64> =
            self.ports.iter().map(|p| p.algorithm.abr_capacity_cps(p.rate_cps)).collect();
        for b in self.background.iter().filter(|b| b.is_on) {
            for &p in &b.ports {
                capacity[p as usize] = (capacity[p as usize] - b.rate_cps).max(0.0);
            }
        }
        // A loop counts once connected: before that it sends nothing.
        let active: Vec<usize> = (0..self.vcs.len())
            .filter(|&i| self.vcs[i].source.started && self.vcs[i].source.has_data(now))
            .collect();
        let flows: Vec<Flow> = active
            .iter()
            .map(|&i| {
                let s = &self.vcs[i].source;
                let demand = s.traffic.rate_cap(now).map_or(s.params.pcr, |c| c.min(s.params.pcr));
                Flow { resources: self.vcs[i].fwd_ports.clone(), demand }
            })
            .collect();
        let rates = max_min_fair(&capacity, &flows);
        self.maxmin_cps.iter_mut().for_each(|r| *r = 0.0);
        for (k, &i) in active.iter().enumerate() {
            self.maxmin_cps[i] = rates[k];
        }
    }

    /// Offers `cell` to `port`: the algorithm sees it, the port queues or drops
    /// it, and an idle transmitter starts at once.
    fn enqueue(&mut self, now: SimTime, port: u32, mut cell: Cell) {
        let p = &mut self.ports[port as usize];
        let view = p.view(now);
        p.algorithm.on_arrival(&view, &mut cell);
        match p.offer(now, cell) {
            Offer::Sent { first_due: true } => {
                let arrival = p.wire.back_time().expect("just sent");
                self.schedule_arrival(arrival, port);
            }
            Offer::Queued { timer: Some(at) } => self.schedule_timer(at, port),
            Offer::Sent { first_due: false } | Offer::Queued { timer: None } | Offer::Lost => {}
        }
    }

    /// The arrival of the head of `port`'s wire: one pending at a time per
    /// port, so it has a slot of its own in the event queue.
    fn schedule_arrival(&mut self, at: SimTime, port: u32) {
        self.queue.schedule_in_slot(2 * port as usize, at, Event::LinkArrive { port });
    }

    /// `port`'s transmitter timer: also one at a time per port.
    fn schedule_timer(&mut self, at: SimTime, port: u32) {
        self.queue.schedule_in_slot(2 * port as usize + 1, at, Event::PortTxDone { port });
    }

    fn on_tx_done(&mut self, now: SimTime, port: u32) {
        let p = &mut self.ports[port as usize];
        let (first_due, next) = p.on_timer(now);
        if first_due {
            let arrival = p.wire.back_time().expect("just sent");
            self.schedule_arrival(arrival, port);
        }
        if let Some(at) = next {
            self.schedule_timer(at, port);
        }
    }

    fn on_link_arrive(&mut self, now: SimTime, port: u32) {
        loop {
            let p = &mut self.ports[port as usize];
            let (at, cell, due) =
                p.wire.pop_front().expect("an arrival event has a cell on the wire");
            if !due {
                // Landed before this event's cell, in the order they came.
                self.land(cell);
                continue;
            }
            debug_assert_eq!(at, now);
            if let Some(next) = p.wire.next_due() {
                self.schedule_arrival(next, port);
            }
            self.deliver(now, port, cell);
            return;
        }
    }

    /// A cell that reaches the host at the end of its route and needs no
    /// event there: a data cell of a loop without messages, which the
    /// destination only counts (and whose EFCI it keeps for the next FRM,
    /// which comes after it on the same link), or a background cell. Same
    /// books as [`Simulation::deliver`] keeps for it.
    fn land(&mut self, cell: Cell) {
        match cell.kind {
            CellKind::Data => {
                let landed = self.vcs[cell.vc as usize].dest.receive(cell);
                debug_assert!(landed.is_none());
            }
            CellKind::Background => self.background[cell.vc as usize].received += 1,
            CellKind::Frm | CellKind::Brm => unreachable!("RM cells arrive as events"),
        }
    }

    /// Lands every cell that has reached its host by `now` without an event of
    /// its own, so that what the run reports or draws counts it.
    fn land_arrived(&mut self, now: SimTime) {
        for p in 0..self.ports.len() {
            if !self.ports[p].wire.is_lazy() {
                continue;
            }
            while let Some(cell) = self.ports[p].wire.pop_landed(now) {
                self.land(cell);
            }
        }
    }

    /// A cell reaches the far end of `from`, the next node of its route.
    /// Routes never visit a node twice, so where `from` is on the cell's
    /// route says how far along it the cell is.
    fn deliver(&mut self, now: SimTime, from: u32, mut cell: Cell) {
        let after = |ports: &[u32]| {
            1 + ports
                .iter()
                .position(|&p| p == from)
                .expect("a cell arrives from a port of its route")
        };
        if cell.kind == CellKind::Background {
            let b = &mut self.background[cell.vc as usize];
            let hop = after(&b.ports);
            if hop == b.ports.len() {
                b.received += 1;
            } else {
                let port = b.ports[hop];
                self.enqueue(now, port, cell);
            }
            return;
        }
        let vc = cell.vc as usize;
        let hops = self.vcs[vc].fwd_ports.len();
        match cell.kind {
            CellKind::Data | CellKind::Frm => {
                let hop = after(&self.vcs[vc].fwd_ports);
                if hop < hops {
                    let port = self.vcs[vc].fwd_ports[hop];
                    self.enqueue(now, port, cell);
                    return;
                }
                let is_data = cell.kind == CellKind::Data;
                if let Some(brm) = self.vcs[vc].dest.receive(cell) {
                    match self.vcs[vc].partner {
                        Some(partner) => {
                            self.vcs[partner as usize].source.give_brm(brm);
                            self.wake_source(now, partner);
                        }
                        None => {
                            self.vcs[vc].brm_direct += 1;
                            let port = self.vcs[vc].rev_ports[0];
                            self.enqueue(now, port, brm);
                        }
                    }
                }
                if is_data {
                    self.message_cell_arrived(now, vc);
                }
            }
            CellKind::Brm => {
                let hop = after(&self.vcs[vc].rev_ports);
                if hop == hops {
                    let v = &mut self.vcs[vc];
                    v.account_acr(now);
                    v.source.on_brm(&cell.rm);
                    if let Some(t) = v.source.reschedule(now) {
                        let generation = v.source.generation;
                        self.queue.schedule(t, Event::SourceSend { vc: vc as u32, generation });
                    }
                } else {
                    // The switch this BRM is at feeds back on the loop's forward port there.
                    let fwd = self.vcs[vc].fwd_ports[hops - hop] as usize;
                    let p = &mut self.ports[fwd];
                    let view = p.view(now);
                    p.algorithm.on_backward_rm(&view, &mut cell);
                    let port = self.vcs[vc].rev_ports[hop];
                    self.enqueue(now, port, cell);
                }
            }
            CellKind::Background => unreachable!("handled above"),
        }
    }

    /// Request–response: a whole message at this loop's destination makes the
    /// other end send its reply (or, at the client, its next request).
    fn message_cell_arrived(&mut self, now: SimTime, vc: usize) {
        let v = &mut self.vcs[vc];
        let (Some(size), Some(partner)) = (v.message_cells, v.partner) else { return };
        v.message_progress += 1;
        if v.message_progress < size {
            return;
        }
        v.message_progress = 0;
        v.messages_done += 1;
        let other = &mut self.vcs[partner as usize];
        if other.source.traffic.active(now) {
            other.source.backlog += other.message_cells.unwrap_or(0);
            self.wake_source(now, partner);
            self.update_maxmin(now);
        }
    }

    fn on_sample(&mut self, now: SimTime) {
        self.land_arrived(now);
        let span = (now.0 - self.last_sample.0).max(1) as f64;
        let row_start = self.samples.rows.len();
        self.samples.rows.push(now.as_ms());
        let (mut means, mut shares) = (Vec::new(), Vec::new());
        for i in 0..self.vcs.len() {
            let v = &mut self.vcs[i];
            v.account_acr(now);
            let acr_mean = v.acr_area / span;
            v.acr_area = 0.0;
            let active = v.source.started && v.source.has_data(now);
            if active && self.maxmin_cps[i] > 0.0 {
                means.push(acr_mean);
                shares.push(self.maxmin_cps[i]);
            }
            self.samples.rows.extend_from_slice(&[
                cells_per_s_to_mbps(v.source.reported_acr()),
                cells_per_s_to_mbps(acr_mean),
                cells_per_s_to_mbps(self.maxmin_cps[i]),
                v.dest.data_received as f64,
                v.source.cells_sent() as f64,
                active as u8 as f64,
            ]);
        }
        for p in &mut self.ports {
            let s = p.take_interval(now);
            self.samples.rows.extend_from_slice(&[
                p.queue_len() as f64,
                s.queue_mean,
                s.queue_max as f64,
                s.utilization,
                p.stats.lost_total as f64,
            ]);
        }
        self.samples.rows.push(probe::jain_index(&means, &shares));
        debug_assert_eq!(self.samples.rows.len() - row_start, self.columns.len());
        self.series_hash.add(&self.samples.rows[row_start..]);
        self.last_sample = now;
        self.next_sample += 1;
        self.queue.schedule(self.sample_time(self.next_sample), Event::Sample);
    }

    /// The live state for drawing: `[now_ms, acr Mbit/s per loop…, queue cells per port…]`.
    pub fn frame(&self) -> Vec<f64> {
        let mut f = Vec::with_capacity(1 + self.vcs.len() + self.ports.len());
        f.push(self.now().as_ms());
        f.extend(self.vcs.iter().map(|v| cells_per_s_to_mbps(v.source.reported_acr())));
        f.extend(self.ports.iter().map(|p| p.queue_len() as f64));
        f
    }

    /// Cells on the links now, for animation: rows of `[port index, progress
    /// 0..1 from leaving the transmitter to arriving, kind (0 data, 1 FRM,
    /// 2 BRM, 3 background, 7 set-up, 8 connect), VC (or background) index,
    /// ER Mbit/s, CI, CCR Mbit/s]` (ER and CCR NaN for non-RM cells). Set-up
    /// and connect messages come first, at progress 0 of the port they will
    /// leave by while a switch processes them, and carry the rate offered
    /// so far as ER. At most `max` rows, cells taken evenly across the links
    /// when there are more.
    pub fn cells_in_flight(&self, max: usize) -> Vec<f64> {
        let now = self.now();
        let mut out = self.signals_in_flight(now, max);
        let room = max - out.len() / 7;
        let total: usize = self.ports.iter().map(|p| p.wire.len()).sum();
        let stride = total.div_ceil(room.max(1)).max(1);
        out.reserve(7 * total.min(room));
        let mut k = 0usize;
        for (pi, p) in self.ports.iter().enumerate() {
            let span = (p.delay.0 + p.cell_time.0).max(1) as f64;
            let cells = p.wire.iter().map(|(arrive, c)| {
                (SimTime(arrive.0.saturating_sub(p.delay.0 + p.cell_time.0)), c)
            });
            for (start, c) in cells {
                k += 1;
                if !k.is_multiple_of(stride) || out.len() >= 7 * max {
                    continue;
                }
                let progress = ((now.0.saturating_sub(start.0)) as f64 / span).clamp(0.0, 1.0);
                cell_row(&mut out, pi, progress, &c);
            }
        }
        out
    }

    /// The set-up and connect messages on their way, as `cells_in_flight` rows.
    fn signals_in_flight(&self, now: SimTime, max: usize) -> Vec<f64> {
        let mut out = Vec::new();
        for (i, v) in self.vcs.iter().enumerate() {
            let Some(sig) = v.signal else { continue };
            if out.len() >= 7 * max {
                break;
            }
            let route = if sig.connect { &v.rev_ports } else { &v.fwd_ports };
            let progress = if sig.on_wire {
                let span = (sig.until.0 - sig.since.0).max(1) as f64;
                (now.0.saturating_sub(sig.since.0) as f64 / span).clamp(0.0, 1.0)
            } else {
                0.0
            };
            out.extend_from_slice(&[
                route[sig.hop as usize] as f64,
                progress,
                if sig.connect { 8.0 } else { 7.0 },
                i as f64,
                cells_per_s_to_mbps(sig.setup.er),
                0.0,
                f64::NAN,
            ]);
        }
        out
    }

    /// One port's cells, every one up to `max` on its wire and `max` in its
    /// queue, for the magnifier: rows of `cells_in_flight`, those on the wire
    /// with their progress 0..1, the k-th waiting cell (0: next to be sent)
    /// with progress `-(k + 1)`. Empty for a port that does not exist.
    pub fn port_cells(&self, port: usize, max: usize) -> Vec<f64> {
        let Some(p) = self.ports.get(port) else { return Vec::new() };
        let now = self.now();
        let span = (p.delay.0 + p.cell_time.0).max(1) as f64;
        let mut out = Vec::new();
        for (arrive, c) in p.wire.iter().take(max) {
            let start = arrive.0.saturating_sub(p.delay.0 + p.cell_time.0);
            let progress = (now.0.saturating_sub(start) as f64 / span).clamp(0.0, 1.0);
            cell_row(&mut out, port, progress, &c);
        }
        for (k, c) in p.waiting().take(max).enumerate() {
            cell_row(&mut out, port, -(k as f64 + 1.0), c);
        }
        out
    }

    /// Changes one parameter, by the `--set` path grammar, in `scenario` (the
    /// JSON this simulation was built from) and, when the model allows it, in
    /// the running simulation. A VC parameter the model takes live is checked
    /// as far as the change reaches (see [`Simulation::set_vc_param`]); any
    /// other change is validated with the whole edited scenario.
    pub fn set_param(
        &mut self,
        scenario: &mut Value,
        path: &str,
        raw: &str,
    ) -> Result<Applied, ScenarioError> {
        let segments: Vec<&str> = path.split('.').collect();
        let live_vc_key =
            |key: &str| params::all().any(|p| p.scope == Scope::Vc && p.key == key && p.live);
        match segments.as_slice() {
            ["vcs", id, key] if live_vc_key(key) => {
                return self.set_vc_param(scenario, path, raw, Some(id), key)
            }
            ["defaults", "vc", key] if live_vc_key(key) => {
                return self.set_vc_param(scenario, path, raw, None, key)
            }
            _ => {}
        }
        let mut edited = scenario.clone();
        apply_set(&mut edited, path, raw)?;
        let parsed =
            scenario::scenario_from_value(&edited).map_err(|errors| first(errors, path))?;
        *scenario = edited;
        let applied = match segments.as_slice() {
            [.., "algorithm", _] => {
                // The algorithms as built from the edited scenario, port by
                // port in the order `build` makes them.
                let loops: usize = parsed.vcs.iter().map(|v| 1 + v.bidirectional as usize).sum();
                let fresh = parsed.links.iter().flat_map(|l| l.ports.iter());
                let mut ok = self.ports.len() == 2 * parsed.links.len();
                for (p, spec) in self.ports.iter_mut().zip(fresh) {
                    ok &= p.algorithm.reconfigure_from(&spec.algorithm.build(loops));
                }
                if ok {
                    Applied::Live
                } else {
                    Applied::Restart
                }
            }
            _ => Applied::Restart,
        };
        Ok(applied)
    }

    /// A live VC parameter (`vcs.<id>.<key>`, or `defaults.vc.<key>` for
    /// every VC): validates what the change reaches — the parameters of the
    /// VCs it applies to, and the variants that set a parameter checked
    /// together with `key` — rather than the whole scenario and each of its
    /// variants, so that a slider stays quick with hundreds of VCs. Each
    /// chosen loop then takes its new parameters, keeping its source's
    /// state; ACR is re-clamped to the new [MCR, PCR] (rule 1).
    fn set_vc_param(
        &mut self,
        scenario: &mut Value,
        path: &str,
        raw: &str,
        only: Option<&str>,
        key: &str,
    ) -> Result<Applied, ScenarioError> {
        let mut edited = scenario.clone();
        apply_set(&mut edited, path, raw)?;
        let params =
            scenario::vc_params_after_edit(&edited, only).map_err(|errors| first(errors, path))?;
        scenario::variants_checked_with(&edited, scenario::vc_keys_checked_with(key))
            .map_err(|errors| first(errors, path))?;
        *scenario = edited;
        let now = self.queue.now();
        for (id, q) in &params {
            let reverse = format!("{id}:rev");
            for i in 0..self.vcs.len() {
                if self.vcs[i].id != *id && self.vcs[i].id != reverse {
                    continue;
                }
                let fresh = abr_params(q, &self.vcs[i].fwd_ports, &self.ports);
                let v = &mut self.vcs[i];
                v.account_acr(now);
                let (icr, frtt) = (v.source.params.icr, v.source.params.frtt);
                v.source.params = fresh;
                // ICR and FRTT are settled at set-up, which has happened: keep them.
                if v.source.started {
                    v.source.params.icr = icr;
                    v.source.params.frtt = frtt;
                }
                v.source.acr = v.source.acr.min(v.source.params.pcr).max(v.source.params.mcr);
            }
        }
        Ok(Applied::Live)
    }

    /// Cells in the network now: queued, being sent, or on a wire.
    pub fn cells_in_network(&self) -> u64 {
        self.ports.iter().map(Port::cells_held).sum()
    }

    /// Checks that every cell created is accounted for: received, in the
    /// network, lost, waiting at a source or replaced there (an invariant).
    pub fn conservation_gap(&self) -> i64 {
        let created: u64 =
            self.vcs.iter().map(|v| v.source.cells_sent() + v.brm_direct).sum::<u64>()
                + self.background.iter().map(|b| b.sent).sum::<u64>();
        let accounted: u64 = self
            .vcs
            .iter()
            .map(|v| v.dest.data_received + v.dest.rm_received + v.source.brm_received)
            .sum::<u64>()
            + self.background.iter().map(|b| b.received).sum::<u64>()
            + self.cells_in_network()
            + self.ports.iter().map(|p| p.stats.lost_total).sum::<u64>();
        // BRMs handed to a partner are created by its destination and either
        // sent (counted in cells_sent), still waiting, or replaced.
        let handed: u64 =
            self.vcs.iter().filter(|v| v.partner.is_some()).map(|v| v.dest.rm_received).sum();
        let settled: u64 = self
            .vcs
            .iter()
            .map(|v| {
                v.source.brm_sent + v.source.brm_replaced + v.source.waiting_brm.is_some() as u64
            })
            .sum();
        (created + handed) as i64 - (accounted + settled) as i64
    }
}

/// A loop's ABR parameters from its VC's scenario parameters and the ports
/// of its forward path (PCR negotiated down to the slowest link, FRTT from
/// the propagation both ways).
fn abr_params(q: &VcParams, fwd_ports: &[u32], ports: &[Port]) -> AbrParams {
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

/// The first of a validation's errors (there is at least one).
fn first(errors: Vec<ScenarioError>, path: &str) -> ScenarioError {
    errors.into_iter().next().unwrap_or_else(|| ScenarioError::new(path, "invalid value"))
}

fn background_source(b: &BackgroundSpec, route: &dyn Fn(&[usize]) -> Vec<u32>) -> BackgroundSource {
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
        sent: 0,
        received: 0,
    }
}

/// One row of `cells_in_flight`: `[port index, progress, kind (0 data, 1 FRM,
/// 2 BRM, 3 background), VC index, ER Mbit/s, CI, CCR Mbit/s]` (NaN fields for
/// cells that are not RM cells).
fn cell_row(out: &mut Vec<f64>, port: usize, progress: f64, c: &Cell) {
    let (kind, rm) = match c.kind {
        CellKind::Data => (0.0, false),
        CellKind::Frm => (1.0, true),
        CellKind::Brm => (2.0, true),
        CellKind::Background => (3.0, false),
    };
    let nan = f64::NAN;
    out.extend_from_slice(&[
        port as f64,
        progress,
        kind,
        c.vc as f64,
        if rm { cells_per_s_to_mbps(c.rm.er) } else { nan },
        c.rm.ci as u8 as f64,
        if rm { cells_per_s_to_mbps(c.rm.ccr) } else { nan },
    ]);
}
