//! The simulation: a built scenario and the event loop that drives it. Cells
//! flow source → host port → switch ports → destination; FRMs are turned
//! around and come back as BRMs, passing each switch's algorithm on the way.
//! Everything is plain Rust; the wasm layer and the native runner both drive
//! this type through [`Simulation::run_until`].

use crate::endsystem::{AbrParams, AbrSource, Destination, Traffic};
use crate::kernel::{Event, EventQueue};
use crate::net::{Cell, CellKind, Link, Node, NodeKind, Port};
use crate::probe::{self, max_min_fair, Flow, SampleBuffer};
use crate::scenario::{self, Meta, RunSpec, Scenario, ScenarioError, TrafficSpec};
use crate::switch_alg::SwitchAlgorithm;
use crate::time::{cells_per_s_to_mbps, mbps_to_cells_per_s, SimTime};
use serde_json::{json, Value};

/// One VC: its route through the ports and its two end systems.
#[derive(Clone, Debug)]
pub struct Vc {
    pub id: String,
    pub nodes: Vec<u32>,
    /// Ports the forward cells leave by, source first.
    pub fwd_ports: Vec<u32>,
    /// Ports the backward RM cells leave by, destination first.
    pub rev_ports: Vec<u32>,
    pub source: AbrSource,
    pub dest: Destination,
    /// ∫ ACR dt over the current sample interval, in cells/s · ps.
    acr_area: f64,
    acr_since: SimTime,
}

impl Vc {
    fn account_acr(&mut self, now: SimTime) {
        self.acr_area += self.source.reported_acr() * (now.0 - self.acr_since.0) as f64;
        self.acr_since = now;
    }
}

/// A simulation ready to run.
pub struct Simulation {
    pub meta: Meta,
    pub run: RunSpec,
    pub warnings: Vec<ScenarioError>,
    queue: EventQueue,
    pub nodes: Vec<Node>,
    pub links: Vec<Link>,
    pub ports: Vec<Port>,
    pub vcs: Vec<Vc>,
    /// The max-min fair rate of each VC for the VCs active now, cells/s.
    pub maxmin_cps: Vec<f64>,
    samples: SampleBuffer,
    columns: Vec<String>,
    sample_interval_ms: f64,
    next_sample: u64,
    last_sample: SimTime,
    events: u64,
    /// Cells (data and RM) the ABR sources have emitted.
    pub source_cells: u64,
}

/// Why [`Simulation::run_until`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOutcome {
    /// Simulated time reached the deadline.
    Reached,
    /// The event budget ran out first; call again to go on.
    BudgetExhausted,
}

impl Simulation {
    /// Parses, validates and builds scenario text.
    pub fn from_json(text: &str) -> Result<Simulation, Vec<ScenarioError>> {
        Ok(Simulation::build(&scenario::parse_scenario(text)?))
    }

    /// Builds a validated scenario (scenario → simulation in one step).
    pub fn build(s: &Scenario) -> Simulation {
        let nodes: Vec<Node> =
            s.nodes.iter().map(|n| Node { id: n.id.clone(), kind: n.kind, x: n.x, y: n.y }).collect();
        let mut links = Vec::with_capacity(s.links.len());
        let mut ports = Vec::with_capacity(2 * s.links.len());
        for (li, l) in s.links.iter().enumerate() {
            let rate_cps = mbps_to_cells_per_s(l.rate_mbps);
            let delay = SimTime::from_ms(l.delay_ms);
            let first = ports.len() as u32;
            for (dir, (from, to)) in [(l.a, l.b), (l.b, l.a)].into_iter().enumerate() {
                let spec = &l.ports[dir];
                let id = if dir == 0 { l.id.clone() } else { format!("{}:rev", l.id) };
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
                    spec.algorithm.build(s.vcs.len()),
                ));
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

        let port_between = |from: usize, to: usize| -> u32 {
            let link = links
                .iter()
                .find(|l| (l.a as usize, l.b as usize) == (from, to) || (l.b as usize, l.a as usize) == (from, to))
                .expect("validated path has a link between consecutive nodes");
            if link.a as usize == from { link.ports[0] } else { link.ports[1] }
        };

        let vcs: Vec<Vc> = s
            .vcs
            .iter()
            .map(|v| {
                let fwd_ports: Vec<u32> = v.path.windows(2).map(|w| port_between(w[0], w[1])).collect();
                let rev_ports: Vec<u32> = v.path.windows(2).rev().map(|w| port_between(w[1], w[0])).collect();
                // FRTT: the fixed round trip accumulated at set-up (propagation both ways).
                let frtt = SimTime(fwd_ports.iter().map(|&p| 2 * ports[p as usize].delay.0).sum());
                let slowest = fwd_ports.iter().map(|&p| ports[p as usize].rate_cps).fold(f64::INFINITY, f64::min);
                let q = &v.params;
                let pcr = mbps_to_cells_per_s(q.pcr_mbps).min(slowest);
                let params = AbrParams {
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
                    frtt,
                };
                let traffic = match v.traffic {
                    TrafficSpec::Persistent { start_ms, stop_ms } => Traffic::Persistent {
                        start: SimTime::from_ms(start_ms),
                        stop: stop_ms.map(SimTime::from_ms),
                    },
                };
                Vc {
                    id: v.id.clone(),
                    nodes: v.path.iter().map(|&n| n as u32).collect(),
                    fwd_ports,
                    rev_ports,
                    source: AbrSource::new(params, traffic),
                    dest: Destination::default(),
                    acr_area: 0.0,
                    acr_since: SimTime::ZERO,
                }
            })
            .collect();

        let columns =
            probe::column_names(vcs.iter().map(|v| v.id.as_str()), ports.iter().map(|p| p.id.as_str()));
        let mut sim = Simulation {
            meta: s.meta.clone(),
            run: s.run.clone(),
            warnings: s.warnings.clone(),
            queue: EventQueue::new(),
            nodes,
            links,
            ports,
            maxmin_cps: vec![0.0; vcs.len()],
            vcs,
            samples: SampleBuffer::new(columns.len()),
            columns,
            sample_interval_ms: s.run.sample_interval_ms,
            next_sample: 1,
            last_sample: SimTime::ZERO,
            events: 0,
            source_cells: 0,
        };
        for vc in 0..sim.vcs.len() {
            for t in sim.vcs[vc].source.traffic.change_times() {
                sim.queue.schedule(t, Event::TrafficChange { vc: vc as u32 });
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

    /// Runs events up to and including `deadline`, handling at most
    /// `max_events`. A deadline before now is an error of the caller and
    /// returns at once.
    pub fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        let mut budget = max_events;
        loop {
            match self.queue.peek_time() {
                Some(t) if t <= deadline => {
                    if budget == 0 {
                        return RunOutcome::BudgetExhausted;
                    }
                    budget -= 1;
                    let (now, event) = self.queue.pop().expect("peeked");
                    self.events += 1;
                    self.handle(now, event);
                }
                _ => {
                    self.queue.advance_to(deadline);
                    return RunOutcome::Reached;
                }
            }
        }
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
            Event::Sample => self.on_sample(now),
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
        let next = now + v.source.interval();
        v.source.next_send = Some(next);
        let port = v.fwd_ports[0];
        self.queue.schedule(next, Event::SourceSend { vc, generation: v.source.generation });
        self.enqueue(now, port, cell);
    }

    fn on_traffic_change(&mut self, now: SimTime, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        if v.source.traffic.has_data(now) && v.source.next_send.is_none() {
            v.account_acr(now);
            v.source.start();
            v.source.next_send = Some(now);
            v.source.generation = v.source.generation.wrapping_add(1);
            self.queue.schedule(now, Event::SourceSend { vc, generation: v.source.generation });
        }
        self.update_maxmin(now);
    }

    /// Recomputes the oracle's max-min shares for the VCs active at `now`.
    fn update_maxmin(&mut self, now: SimTime) {
        let capacity: Vec<f64> = self.ports.iter().map(|p| p.algorithm.abr_capacity_cps(p.rate_cps)).collect();
        let active: Vec<usize> = (0..self.vcs.len()).filter(|&i| self.vcs[i].source.traffic.has_data(now)).collect();
        let flows: Vec<Flow> = active
            .iter()
            .map(|&i| Flow { resources: self.vcs[i].fwd_ports.clone(), demand: self.vcs[i].source.params.pcr })
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
        if p.enqueue(now, cell) && !p.is_busy() {
            self.start_tx(now, port);
        }
    }

    /// Starts sending the next queued cell of `port`, letting its algorithm see it leave.
    fn start_tx(&mut self, now: SimTime, port: u32) {
        let p = &mut self.ports[port as usize];
        if let Some(done) = p.start_tx(now) {
            self.queue.schedule(done, Event::PortTxDone { port });
        }
    }

    fn on_tx_done(&mut self, now: SimTime, port: u32) {
        let p = &mut self.ports[port as usize];
        if p.finish_tx(now) {
            let arrival = now + p.delay;
            self.queue.schedule(arrival, Event::LinkArrive { port });
        }
        self.start_tx(now, port);
    }

    fn on_link_arrive(&mut self, now: SimTime, port: u32) {
        let p = &mut self.ports[port as usize];
        let (at, cell) = p.wire.pop_front().expect("an arrival event has a cell on the wire");
        debug_assert_eq!(at, now);
        if let Some(&(next, _)) = p.wire.front() {
            self.queue.schedule(next, Event::LinkArrive { port });
        }
        self.deliver(now, cell);
    }

    /// A cell reaches the next node of its route.
    fn deliver(&mut self, now: SimTime, mut cell: Cell) {
        let vc = cell.vc as usize;
        let hop = cell.hop as usize + 1;
        let hops = self.vcs[vc].fwd_ports.len();
        match cell.kind {
            CellKind::Data | CellKind::Frm => {
                if hop == hops {
                    if let Some(brm) = self.vcs[vc].dest.receive(cell) {
                        let port = self.vcs[vc].rev_ports[0];
                        self.enqueue(now, port, brm);
                    }
                } else {
                    cell.hop = hop as u16;
                    let port = self.vcs[vc].fwd_ports[hop];
                    self.enqueue(now, port, cell);
                }
            }
            CellKind::Background => unreachable!("background traffic is routed before VC cells"),
            CellKind::Brm => {
                if hop == hops {
                    let v = &mut self.vcs[vc];
                    v.account_acr(now);
                    v.source.on_brm(&cell.rm);
                    if let Some(t) = v.source.reschedule(now) {
                        let generation = v.source.generation;
                        self.queue.schedule(t, Event::SourceSend { vc: vc as u32, generation });
                    }
                } else {
                    // The switch this BRM is at feeds back on the VC's forward port there.
                    let fwd = self.vcs[vc].fwd_ports[hops - hop] as usize;
                    let p = &mut self.ports[fwd];
                    let view = p.view(now);
                    p.algorithm.on_backward_rm(&view, &mut cell);
                    cell.hop = hop as u16;
                    let port = self.vcs[vc].rev_ports[hop];
                    self.enqueue(now, port, cell);
                }
            }
        }
    }

    fn on_sample(&mut self, now: SimTime) {
        let span = (now.0 - self.last_sample.0).max(1) as f64;
        let row_start = self.samples.rows.len();
        self.samples.rows.push(now.as_ms());
        for i in 0..self.vcs.len() {
            let v = &mut self.vcs[i];
            v.account_acr(now);
            let acr_mean = v.acr_area / span;
            v.acr_area = 0.0;
            self.samples.rows.extend_from_slice(&[
                cells_per_s_to_mbps(v.source.reported_acr()),
                cells_per_s_to_mbps(acr_mean),
                cells_per_s_to_mbps(self.maxmin_cps[i]),
                v.dest.data_received as f64,
                (v.source.data_sent + v.source.frm_sent) as f64,
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
        debug_assert_eq!(self.samples.rows.len() - row_start, self.columns.len());
        self.last_sample = now;
        self.next_sample += 1;
        self.queue.schedule(self.sample_time(self.next_sample), Event::Sample);
    }

    /// The live state for drawing: `[now_ms, acr Mbit/s per VC…, queue cells per port…]`.
    pub fn frame(&self) -> Vec<f64> {
        let mut f = Vec::with_capacity(1 + self.vcs.len() + self.ports.len());
        f.push(self.now().as_ms());
        f.extend(self.vcs.iter().map(|v| cells_per_s_to_mbps(v.source.reported_acr())));
        f.extend(self.ports.iter().map(|p| p.queue_len() as f64));
        f
    }

    /// Cells in the network now: queued, being sent, or on a wire.
    pub fn cells_in_network(&self) -> u64 {
        self.ports.iter().map(Port::cells_held).sum()
    }

    /// The topology, ids and sample columns, for the UI and the runner.
    pub fn layout(&self) -> Value {
        json!({
            "scenario": {
                "id": self.meta.id, "title": self.meta.title, "paper": self.meta.paper,
                "explanation": self.meta.explanation, "things_to_try": self.meta.things_to_try,
            },
            "until_ms": self.run.until_ms,
            "seed": self.run.seed,
            "sample_interval_ms": self.sample_interval_ms,
            "nodes": self.nodes.iter().map(|n| json!({"id": n.id, "kind": n.kind.as_str(), "x": n.x, "y": n.y})).collect::<Vec<_>>(),
            "links": self.links.iter().map(|l| json!({
                "id": l.id, "a": self.nodes[l.a as usize].id, "b": self.nodes[l.b as usize].id,
                "rate_mbps": l.rate_mbps, "delay_ms": l.delay.as_ms(),
            })).collect::<Vec<_>>(),
            "vcs": self.vcs.iter().map(|v| json!({
                "id": v.id,
                "source": self.nodes[v.nodes[0] as usize].id,
                "destination": self.nodes[*v.nodes.last().expect("path") as usize].id,
                "path": v.nodes.iter().map(|&n| self.nodes[n as usize].id.as_str()).collect::<Vec<_>>(),
                "pcr_mbps": cells_per_s_to_mbps(v.source.params.pcr),
            })).collect::<Vec<_>>(),
            "ports": self.ports.iter().map(|p| json!({
                "id": p.id, "link": self.links[p.link as usize].id,
                "from": self.nodes[p.from as usize].id, "to": self.nodes[p.to as usize].id,
                "from_kind": self.nodes[p.from as usize].kind.as_str(),
                "algorithm": p.algorithm.name(), "buffer_cells": p.buffer_cells,
            })).collect::<Vec<_>>(),
            "columns": self.columns,
            "warnings": self.warnings.iter().map(|w| json!({"path": w.path, "message": w.message})).collect::<Vec<_>>(),
        })
    }
}
