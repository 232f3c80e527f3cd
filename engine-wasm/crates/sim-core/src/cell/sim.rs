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
mod deliver;
mod edit;
pub use edit::check_edit;
mod layout;
mod oracle;
mod sample;
mod send;
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
/// first processed (the port's `setup_delay`, zero unless told), then, where
/// the port carries signalling in band (`setup_in_band`, the default), waits
/// behind the cells queued there as a cell of its VC would — the whole queue
/// of a FIFO, one round of the round-robin with per-VC queues, which is why
/// Ma & Ramakrishnan §5.3 find the round trip seen at set-up "especially for
/// per-VC queues significantly smaller than when data is actually flowing" —
/// and then crosses the link.
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
    /// Waiting behind the cells queued at the port (in-band signalling).
    pub queued: bool,
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
    /// Whether its next cell is scheduled: a pulse shorter than a cell's
    /// interval starts no second schedule beside the first.
    sending: bool,
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
    /// The max-min fair rate of each loop for the loops active at the last
    /// change the oracle was told of, cells/s, once [`Simulation::settle_maxmin`] has run.
    maxmin_cps: Vec<f64>,
    /// The oracle's inputs as the last change left them.
    oracle: oracle::OracleInputs,
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
        Ok(Simulation::build(&crate::scenario::parse_checked(text, limits)?))
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
