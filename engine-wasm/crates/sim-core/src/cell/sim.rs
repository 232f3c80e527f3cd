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
//! (Fahmy et al. §1). A unidirectional VC's destination sends its BRMs at once.

use super::event::Event;
use crate::cell::endsystem::{AbrParams, AbrSource, Destination, Traffic};
use crate::cell::net::{
    Cell, CellKind, Link, NextHop, Node, NodeKind, Offer, Port, RmFields, Starts,
};
use crate::cell::scenario::{
    self, params, BackgroundSpec, Scenario, Startup, TrafficSpec, VcParams,
};
use crate::cell::switch_alg::{Setup, SwitchAlgorithm};
use crate::kernel::{self, EventQueue, Handler, RunOutcome};
use crate::probe::{self, max_min_fair, Flow};
use crate::scenario::{registry::Scope, Meta, RunSpec, ScenarioError};
use crate::session::{Applied, Recorder};
use crate::time::{cell_interval, cells_per_s_to_mbps, mbps_to_cells_per_s, SimTime};
use serde_json::Value;

mod build;
mod edit;
pub use edit::check_edit;
mod layout;
mod sample;
mod signal;
mod sources;
mod view;

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
    /// The first of them, the source's own (`fwd_ports[0]`), kept in the
    /// record: the source's hot paths read it without a second load.
    pub host_port: u32,
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
    /// The source is the only sender on its host port, whose link ends at
    /// a switch: it sends without events of its own (`Event::HostArrive`).
    pub sole_sender: bool,
    /// Built without the shortcuts (`Simulation::build_without_shortcuts`),
    /// a source that would be a sole sender: it sends by its own events, and
    /// as a sole sender does, a cell due at an instant goes before anything
    /// that changes the source then (a BRM arriving, one handed to it).
    sends_first: bool,
    /// A sole sender's pending `HostArrive`, when one is.
    armed: Option<SimTime>,
    /// A sole sender whose data cells land without events (`sim/sources.rs`).
    lazy: Option<sources::LazySource>,
    /// Such a source's next RM cell still to send: when it goes, unless
    /// something changes the source first ([`SimTime::NEVER`]: none).
    rm_at: SimTime,
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
/// connect coming back (Ma & Ramakrishnan §3). At each node it is
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
    /// Propagation accumulated both ways: the FRTT of Fahmy et al. Table 1 (call
    /// processing is not a fixed delay of the data path, so not counted).
    pub frtt: SimTime,
}

impl Vc {
    /// The source's transmission opportunity at `now`: the cell it sends,
    /// if any, with its next opportunity left in `next_send` when it has
    /// more to send (else None until it is woken). Always inline: out of
    /// line it returned the cell through the stack, written field by field
    /// and read back with one wider load, a failed store forwarding on every
    /// cell a sole sender sends (3 % of the run at two sources).
    #[inline(always)]
    fn send(&mut self, now: SimTime, vc: u32) -> Option<Cell> {
        self.source.next_send = None;
        self.account_acr(now);
        let cell = self.source.emit(now, vc)?;
        if self.source.has_work(now) {
            self.source.next_send = Some(now + self.source.interval_at(now));
        }
        Some(cell)
    }

    fn account_acr(&mut self, now: SimTime) {
        self.acr_area += self.source.reported_acr() * (now.0 - self.acr_since.0) as f64;
        self.acr_since = now;
    }
}

/// A CBR/VBR source: a constant or square-wave cell stream with strict
/// priority and no feedback.
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
    /// The sample rows, their columns and series hash, and the events handled.
    pub(super) rec: Recorder,
    /// The lazy sources into each last trunk fed by them alone ([`Port::merge`]).
    merges: Vec<sources::SourceMerge>,
    /// Cells (data and RM) the ABR end systems have emitted.
    pub source_cells: u64,
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
        self.rec.series_hash()
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        self.rec.events
    }

    /// Names of the sample columns, in row order.
    pub fn columns(&self) -> &[String] {
        self.rec.columns()
    }

    /// Removes and returns the sample rows recorded since the last call (flat, row-major).
    pub fn take_samples(&mut self) -> Vec<f64> {
        self.rec.take()
    }

    /// Runs events up to and including `deadline`, handling at most `max_events`.
    pub fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        let (outcome, handled) = kernel::run_until(self, deadline, max_events);
        self.rec.events += handled;
        let now = self.queue.now();
        self.settle(now);
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
            Event::HostArrive { vc, generation } => self.on_host_arrive(now, vc, generation),

            Event::TrafficChange { vc } => self.on_traffic_change(now, vc),
            Event::PortTxDone { port } => self.on_tx_done(now, port),
            Event::LinkArrive { port } => {
                // An RM cell over a host link whose data cells land without
                // events: every cell that reached the port it enters before
                // it lands first, whichever link brought it.
                if let Some(into) = self.ports[port as usize].lands_into {
                    self.land_feeder(now, into);
                }
                self.land_feeder(now, port);
                self.catch_up_port(now, port);
                self.on_link_arrive(now, port, None);
            }
            Event::AlgorithmTick { port } => {
                self.land_feeder(now, port);
                self.catch_up_port(now, port);
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
        self.catch_up_source(now, vc);
        let v = &mut self.vcs[vc as usize];
        let s = &mut v.source;
        if s.next_send.is_some() || !s.has_work(now) {
            // A lazy source's coming cells may have changed (a partner's BRM).
            if v.lazy.is_some() {
                self.requeue(now, vc, true);
            } else if v.sole_sender && v.armed.is_none() {
                self.arm(vc);
            }
            return;
        }
        let t = s.earliest_send(now);
        s.next_send = Some(t);
        if v.lazy.is_some() {
            self.requeue(now, vc, true);
        } else if v.sole_sender {
            self.arm(vc);
        } else {
            s.generation = s.generation.wrapping_add(1);
            self.queue.schedule(t, Event::SourceSend { vc, generation: s.generation });
        }
    }

    /// Sends, each at its time, the cells of a sole sender's source whose
    /// time came by `now` (the work its `SourceSend` events would have done):
    /// call it before reading or changing the source, or its host port, at
    /// `now`. Its cells arrive at the switch by `Event::HostArrive`.
    #[inline]
    fn catch_up_source(&mut self, now: SimTime, vc: u32) {
        let v = &self.vcs[vc as usize];
        if v.sole_sender && v.source.next_send.is_some_and(|t| t <= now) {
            self.send_due(now, vc);
        } else if v.sends_first {
            self.send_first(now, vc);
        }
    }

    /// Built without the shortcuts, [`Simulation::catch_up_source`] for a
    /// source that would be a sole sender: its cell due now goes first, as a
    /// sole sender's would, whatever the order of the events of this instant.
    #[cold]
    #[inline(never)]
    fn send_first(&mut self, now: SimTime, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        if v.source.next_send == Some(now) {
            // Its pending `SourceSend` goes with the old generation.
            v.source.generation = v.source.generation.wrapping_add(1);
            let generation = v.source.generation;
            self.on_source_send(now, vc, generation);
        }
    }

    /// [`Simulation::catch_up_source`] for every loop.
    fn catch_up_sources(&mut self, now: SimTime) {
        for vc in 0..self.vcs.len() as u32 {
            self.catch_up_source(now, vc);
        }
    }

    /// [`Simulation::catch_up_source`]'s work, out of its callers' way.
    #[inline(never)]
    fn send_due(&mut self, now: SimTime, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        let p = &mut self.ports[v.host_port as usize];
        while let Some(t) = v.source.next_send.filter(|&t| t <= now) {
            let Some(mut cell) = v.send(t, vc) else { return };
            self.source_cells += 1;
            // The host port is the source's alone and its link ends at a
            // switch: no algorithm looks at it, no timer serves it and every
            // cell's arrival is an event (none is scheduled here).
            let _ = p.catch_up(t);
            let _ = p.offer(t, &mut cell);
        }
    }

    /// Makes sure a sole sender has its `HostArrive` pending: at its host
    /// link's first arrival, or while that link is empty, when the source's
    /// next cell would arrive if sent at its time (the port is then idle and
    /// nothing else enters it). An event already pending no later stays.
    fn arm(&mut self, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        let p = &self.ports[v.host_port as usize];
        let next = v.source.next_send.map(|t| t + p.cell_time + p.delay);
        let at = match (p.wire.next_due(), next) {
            (Some(head), Some(next)) => head.min(next),
            (head, next) => match head.or(next) {
                Some(at) => at,
                None => return,
            },
        };
        if v.armed.is_some_and(|a| a <= at) {
            return;
        }
        v.armed = Some(at);
        v.source.generation = v.source.generation.wrapping_add(1);
        self.queue.schedule(at, Event::HostArrive { vc, generation: v.source.generation });
    }

    /// A sole sender's host link: the cells whose time came go out, then
    /// the link's arrival as for any other (if one is due now).
    fn on_host_arrive(&mut self, now: SimTime, vc: u32, generation: u32) {
        let v = &mut self.vcs[vc as usize];
        if generation != v.source.generation {
            return; // superseded by an earlier arrival
        }
        v.armed = None;
        if let Some(lazy) = v.lazy {
            self.on_lazy_arrive(now, vc, lazy.merge);
            return;
        }
        let port = v.host_port;
        self.catch_up_source(now, vc);
        let p = &mut self.ports[port as usize];
        let _ = p.catch_up(now); // a host port's: see `send_due`
        if p.wire.next_due() == Some(now) {
            self.on_link_arrive(now, port, Some(vc));
        } else {
            self.arm(vc);
        }
    }

    fn on_source_send(&mut self, now: SimTime, vc: u32, generation: u32) {
        let v = &mut self.vcs[vc as usize];
        if generation != v.source.generation {
            return; // superseded by a reschedule
        }
        let Some(mut cell) = v.send(now, vc) else { return };
        self.source_cells += 1;
        // Whatever the source sends leaves by its own host's port: a BRM it
        // sends for its partner loop goes the way its own cells go, which is
        // the partner's way back.
        let port = v.host_port;
        if let Some(next) = v.source.next_send {
            self.queue.schedule(next, Event::SourceSend { vc, generation: v.source.generation });
        }
        self.enqueue(now, port, &mut cell);
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
        let mut cell =
            Cell { vc: source, kind: CellKind::Background, efci: false, rm: RmFields::EMPTY };
        self.enqueue(now, port, &mut cell);
    }

    /// Recomputes the oracle's max-min shares for the loops sending data at
    /// `now`, over each port's ABR capacity less the background sending now.
    fn update_maxmin(&mut self, now: SimTime) {
        // Whether a loop has data can hang on the cells it sent (a message's).
        self.catch_up_sources(now);
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
    fn enqueue(&mut self, now: SimTime, port: u32, cell: &mut Cell) {
        self.catch_up_port(now, port);
        let p = &mut self.ports[port as usize];
        if let Some(view) = p.algorithm_view(now) {
            p.algorithm.on_arrival(&view, cell);
        }
        match p.offer(now, cell) {
            Offer::Sent { first_due: true } => {
                let arrival = p.wire.back_time().expect("just sent");
                self.schedule_arrival(arrival, port);
            }
            Offer::Queued { timer: Some(at) } => self.schedule_timer(at, port),
            Offer::Sent { first_due: false } | Offer::Queued { timer: None } | Offer::Lost => {}
        }
    }

    /// The arrival of the head of `port`'s wire: one pending at a time per port.
    fn schedule_arrival(&mut self, at: SimTime, port: u32) {
        self.queue.schedule(at, Event::LinkArrive { port });
    }

    /// `port`'s transmitter timer: also one at a time per port.
    fn schedule_timer(&mut self, at: SimTime, port: u32) {
        self.queue.schedule(at, Event::PortTxDone { port });
    }

    fn on_tx_done(&mut self, now: SimTime, port: u32) {
        self.land_feeder(now, port);
        let p = &mut self.ports[port as usize];
        let (first_due, next) = p.on_timer(now);
        if first_due {
            let arrival = p.wire.next_due().expect("just sent");
            self.schedule_arrival(arrival, port);
        }
        if let Some(at) = next {
            self.schedule_timer(at, port);
        }
    }

    /// Starts the waiting cells of `port` whose turn came by `now`
    /// ([`Port::catch_up`]), scheduling the wire's first pending arrival if
    /// one of them is it (a [`Starts::Guarded`] port's RM cell).
    #[inline]
    fn catch_up_port(&mut self, now: SimTime, port: u32) {
        if self.ports[port as usize].catch_up(now) {
            self.schedule_first_due(port);
        }
    }

    #[inline(never)]
    fn schedule_first_due(&mut self, port: u32) {
        let at = self.ports[port as usize].wire.next_due().expect("a cell just started is due");
        self.schedule_arrival(at, port);
    }

    /// Before anything reads or changes `port` at `now`: if its cells come
    /// from links whose data cells land without events, lands them.
    #[inline]
    fn land_feeder(&mut self, now: SimTime, port: u32) {
        let p = &self.ports[port as usize];
        if let Some(m) = p.merge {
            self.land_sources(now, m);
            return;
        }
        match p.feeders[..] {
            [] => {}
            [trunk] => self.land_trunk(now, trunk),
            _ => self.land_merged(now, port),
        }
    }

    /// Lands, each at its own time and in order, every data and background
    /// cell on lazy link `trunk` that has reached its far switch by `now`,
    /// which sends it on as its arrival event would have (build.rs): a last
    /// trunk's into ports that no other link feeds, with no queue, ending at
    /// hosts, so that nothing it does schedules an event and nothing else
    /// saw those ports since; or a host link's into the last trunk it alone
    /// feeds. The link's own feeders land first: its cells up to `now` are
    /// then all on it.
    #[inline(never)]
    fn land_trunk(&mut self, now: SimTime, trunk: u32) {
        self.land_feeder(now, trunk);
        self.catch_up_port(now, trunk);
        self.land_arrived(now, trunk);
    }

    /// Lands the cells of `port`'s several lazy feeders (host links into a
    /// last trunk, build.rs) that have arrived by `now`, merged: each in
    /// turn, the one that arrived first, as their arrival events would have
    /// come (at equal times, the feeder listed first).
    #[inline(never)]
    fn land_merged(&mut self, now: SimTime, port: u32) {
        let count = self.ports[port as usize].feeders.len();
        for k in 0..count {
            let link = self.ports[port as usize].feeders[k];
            self.catch_up_port(now, link);
        }
        loop {
            let mut first: Option<(SimTime, u32)> = None;
            for &link in &self.ports[port as usize].feeders {
                if let Some(at) = self.ports[link as usize].wire.landed_head(now) {
                    if first.is_none_or(|(t, _)| at < t) {
                        first = Some((at, link));
                    }
                }
            }
            let Some((_, link)) = first else { return };
            let (at, mut cell, _) = self.ports[link as usize].wire.pop_front().expect("its head");
            self.land(at, link, &mut cell);
        }
    }

    /// Lands, in order, the cells on `port`'s link that have arrived by
    /// `now` without events of their own ([`Simulation::land`]).
    fn land_arrived(&mut self, now: SimTime, port: u32) {
        while let Some((at, mut cell)) = self.ports[port as usize].wire.pop_landed(now) {
            self.land(at, port, &mut cell);
        }
    }

    /// The cell at the head of `port`'s link arrives. The caller has caught
    /// the port up: the cells that started since the link's last arrival
    /// went onto it first, and the next to arrive may be one of them. The
    /// link's next arrival is scheduled, or for a sole sender's host link
    /// (`sole`, the loop) armed.
    fn on_link_arrive(&mut self, now: SimTime, port: u32, sole: Option<u32>) {
        loop {
            let p = &mut self.ports[port as usize];
            let (at, mut cell, due) =
                p.wire.pop_front().expect("an arrival event has a cell on the wire");
            if !due {
                // Landed before this event's cell, in the order they came.
                self.land(at, port, &mut cell);
                continue;
            }
            debug_assert_eq!(at, now);
            match sole {
                None => {
                    if let Some(next) = p.wire.next_due() {
                        self.schedule_arrival(next, port);
                    }
                }
                Some(vc) => self.arm(vc),
            }
            self.deliver(now, port, &mut cell);
            return;
        }
    }

    /// A cell that arrived at `at` over `from`'s link without an event of
    /// its own (`Wire::lazy`). Over a last trunk or a host link into one
    /// (both [`Starts::Guarded`]) the far switch sends it on, as the event
    /// would have. At the host at the end of its route: a data cell of a loop
    /// without messages, which the destination only counts (and whose EFCI
    /// it keeps for the next FRM, which comes after it on the same link), or
    /// a background cell — the same books as [`Simulation::deliver`] keeps.
    fn land(&mut self, at: SimTime, from: u32, cell: &mut Cell) {
        if self.ports[from as usize].starts == Starts::Guarded {
            self.deliver(at, from, cell);
            return;
        }
        match cell.kind {
            CellKind::Data => {
                let landed = self.vcs[cell.vc as usize].dest.receive(cell);
                debug_assert!(landed.is_none());
            }
            CellKind::Background => self.background[cell.vc as usize].received += 1,
            CellKind::Frm | CellKind::Brm => unreachable!("RM cells arrive as events"),
        }
    }

    /// Brings every source and port up to `now` — sends the cells of sole
    /// senders whose time came, starts the waiting cells whose turn came
    /// ([`Port::catch_up`]) and lands every cell that has reached its far
    /// switch or host without an event of its own — so that what the run
    /// reports, draws or edits sees the network as it is at `now`.
    fn settle(&mut self, now: SimTime) {
        // Sources first: their cells go into their host ports at their
        // times; then the ports, each after the links whose cells land in
        // it; then the last trunks, whose cells go on to links that end at
        // hosts; then those links.
        self.catch_up_sources(now);
        let ports = 0..self.ports.len() as u32;
        for p in ports.clone() {
            if self.ports[p as usize].starts != Starts::Timed {
                self.land_feeder(now, p);
                self.catch_up_port(now, p);
            }
        }
        for p in ports.clone() {
            let port = &self.ports[p as usize];
            if port.starts == Starts::Guarded && port.lands_into.is_none() {
                self.land_trunk(now, p);
            }
        }
        for p in ports {
            if self.ports[p as usize].starts == Starts::Timed {
                self.catch_up_port(now, p);
            }
            let port = &self.ports[p as usize];
            if !matches!(port.starts, Starts::Guarded | Starts::BySource) && port.wire.is_lazy() {
                self.land_arrived(now, p);
            }
        }
    }

    /// A cell reaches the far end of `from`, the next node of its route.
    /// Routes never visit a node twice, so where `from` is on the cell's
    /// route says how far along it the cell is; where `from` names the port
    /// its cells go on by ([`Port::next_hop`]), the route is not read.
    ///
    /// The cell comes by reference, as into [`Simulation::enqueue`] and
    /// [`Port::offer`]: moved by value, its copy read the fields its maker
    /// had just written one by one with a wider load, a failed store
    /// forwarding per cell and hop (3–4 % of the run).
    fn deliver(&mut self, now: SimTime, from: u32, cell: &mut Cell) {
        let next = match cell.kind {
            CellKind::Data | CellKind::Frm => self.ports[from as usize].next_hop.of(cell.vc),
            CellKind::Background => match self.ports[from as usize].next_hop {
                NextHop::One(port) => Some(port),
                _ => None,
            },
            CellKind::Brm => None,
        };
        if let Some(port) = next {
            self.enqueue(now, port, cell);
            return;
        }
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
                if let Some(mut brm) = self.vcs[vc].dest.receive(cell) {
                    match self.vcs[vc].partner {
                        Some(partner) => {
                            self.catch_up_source(now, partner);
                            self.vcs[partner as usize].source.give_brm(brm);
                            self.wake_source(now, partner);
                        }
                        None => {
                            self.vcs[vc].brm_direct += 1;
                            let port = self.vcs[vc].rev_ports[0];
                            self.enqueue(now, port, &mut brm);
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
                    self.catch_up_source(now, vc as u32);
                    let v = &mut self.vcs[vc];
                    v.account_acr(now);
                    v.source.on_brm(&cell.rm);
                    let rescheduled = v.source.reschedule(now);
                    if v.lazy.is_some() {
                        // ACR changed: so may the times of its coming cells.
                        if rescheduled.is_some() {
                            v.armed = None;
                        }
                        self.requeue(now, vc as u32, true);
                    } else if let Some(t) = rescheduled {
                        if v.sole_sender {
                            // The pending arrival went with the old generation.
                            v.armed = None;
                            self.arm(vc as u32);
                        } else {
                            let generation = v.source.generation;
                            self.queue.schedule(t, Event::SourceSend { vc: vc as u32, generation });
                        }
                    }
                } else {
                    // The switch this BRM is at feeds back on the loop's forward port there.
                    let fwd = self.vcs[vc].fwd_ports[hops - hop];
                    self.land_feeder(now, fwd);
                    self.catch_up_port(now, fwd);
                    let p = &mut self.ports[fwd as usize];
                    let view = p.view(now);
                    p.algorithm.on_backward_rm(&view, cell);
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
        self.catch_up_source(now, partner);
        let other = &mut self.vcs[partner as usize];
        if other.source.traffic.active(now) {
            other.source.backlog += other.message_cells.unwrap_or(0);
            self.wake_source(now, partner);
            self.update_maxmin(now);
        }
    }
}
