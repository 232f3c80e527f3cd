//! The packet-level simulation: a built IP scenario and the event loop that
//! drives it, on the same kernel as the cell model (`EventQueue<IpEvent>`).
//! Data packets go sender → host port → router ports → receiver (after the
//! flow's receiver-side delay); TCP acknowledgements come back along the
//! reverse ports. Every sample interval the probe records a row of columns
//! (per class, the UDP/TCP ratio, D_UDP, the fairness index, per BAT flow,
//! per port and per flow).

use super::bat::{Bat, BatMember};
use super::clcc::ClccConfig;
use super::fairness::{reference_allocation, weighted_fairness_index, Claim};
use super::packet::{Packet, PacketKind};
use super::port::{Aqm, AqmConfig, IpPort};
use super::scenario::{self as ip_scenario, FlowKindSpec, IpNodeSpec, IpScenario};
use super::tcp::{TcpReceiver, TcpSender};
use super::udp::UdpSource;
use crate::kernel::{self, EventQueue, Handler, Rng, RunOutcome};
use crate::probe::SampleBuffer;
use crate::scenario::{Meta, RunSpec, ScenarioError};
use crate::session::{Applied, SeriesHash};
use crate::time::SimTime;
use serde_json::{json, Value};

/// What can happen in the packet model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpEvent {
    /// A flow starts sending.
    FlowStart { flow: u32 },
    /// A flow stops sending new data.
    FlowStop { flow: u32 },
    /// A UDP source's next datagram is due.
    UdpSend { flow: u32 },
    /// A port finishes putting its current packet on the wire.
    PortTxDone { port: u32 },
    /// The packet at the head of a port's wire reaches the far end.
    LinkArrive { port: u32 },
    /// A data packet leaves the receiver-side delay (DummyNet) and reaches the receiver.
    Deliver { packet: Packet },
    /// A TCP sender's retransmission timer event.
    RtoTimer { flow: u32, generation: u32 },
    /// A TCP receiver's delayed-ACK timer event.
    DelayedAck { flow: u32, generation: u32 },
    /// BAT's periodic update (every Δt) at a port.
    BatUpdate { port: u32 },
    /// CLCC's ratio sample (every 100 ms) at a port.
    ClccSample { port: u32 },
    /// The probe records a sample row.
    Sample,
}

/// The traffic class of a flow (Pletka et al.: responsive TCP, non-responsive UDP).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowClass {
    Tcp,
    Udp,
}

impl FlowClass {
    pub fn as_str(self) -> &'static str {
        match self {
            FlowClass::Tcp => "tcp",
            FlowClass::Udp => "udp",
        }
    }
}

/// A flow's end systems.
#[allow(
    clippy::large_enum_variant,
    reason = "one per flow; boxing would only add an indirection per packet"
)]
#[derive(Clone, Debug)]
pub enum FlowEnds {
    Tcp { sender: TcpSender, receiver: TcpReceiver },
    Udp { source: UdpSource, next_seq: u32 },
}

/// One flow: its route and its two end systems.
#[derive(Clone, Debug)]
pub struct IpFlow {
    pub id: String,
    /// The scenario entry it was expanded from.
    pub group: String,
    pub class: FlowClass,
    pub nodes: Vec<u32>,
    /// Ports data packets leave by, sender first.
    pub fwd_ports: Vec<u32>,
    /// Ports ACKs leave by, receiver first.
    pub rev_ports: Vec<u32>,
    /// The fixed delay in front of the receiver that makes up the flow's RTT.
    pub receiver_delay: SimTime,
    /// Round-trip propagation time: links both ways plus the receiver delay.
    pub rtt: SimTime,
    pub packet_bytes: u32,
    pub start: SimTime,
    pub stop: SimTime,
    pub ends: FlowEnds,
    /// Data packets the source has emitted (retransmissions included).
    pub packets_sent: u64,
    /// Data packets that reached the receiver (duplicates included).
    pub packets_delivered: u64,
    /// New (non-duplicate) bytes received: goodput.
    pub goodput_bytes: u64,
    interval_bytes: u64,
    pub acks_sent: u64,
    pub acks_received: u64,
}

impl IpFlow {
    /// The congestion window in segments (0 for UDP).
    pub fn cwnd(&self) -> f64 {
        match &self.ends {
            FlowEnds::Tcp { sender, .. } => sender.cwnd,
            FlowEnds::Udp { .. } => 0.0,
        }
    }
}

/// A link as built.
#[derive(Clone, Debug)]
pub struct IpLink {
    pub id: String,
    pub a: u32,
    pub b: u32,
    pub rate_mbps: f64,
    pub delay: SimTime,
    /// Port indices: a→b, then b→a.
    pub ports: [u32; 2],
}

/// A packet-level simulation ready to run.
pub struct IpSimulation {
    pub meta: Meta,
    pub run: RunSpec,
    pub warnings: Vec<ScenarioError>,
    queue: EventQueue<IpEvent>,
    pub nodes: Vec<IpNodeSpec>,
    pub links: Vec<IpLink>,
    pub ports: Vec<IpPort>,
    pub flows: Vec<IpFlow>,
    /// The first port running BAT: the one the class columns describe.
    pub bat_port: Option<usize>,
    samples: SampleBuffer,
    columns: Vec<String>,
    sample_interval_ms: f64,
    next_sample: u64,
    last_sample: SimTime,
    events: u64,
    /// Data packets the sources have emitted.
    pub packets_sent: u64,
    /// Data packets inside a receiver-side delay now.
    pub packets_in_delay: u64,
    /// FNV-1a over every sample value so far (the cell model's `series_hash`).
    series_hash: SeriesHash,
    scratch: Vec<u32>,
}

impl IpSimulation {
    /// Parses, validates and builds packet-level scenario text.
    pub fn from_json(text: &str) -> Result<IpSimulation, Vec<ScenarioError>> {
        Ok(IpSimulation::build(&ip_scenario::parse_ip_scenario(text)?))
    }

    /// Builds a validated scenario.
    pub fn build(s: &IpScenario) -> IpSimulation {
        let seed = s.run.seed;
        // Routes first: BAT needs to know which flows cross each port.
        let port_of = |link: usize, dir: usize| (2 * link + dir) as u32;
        let routes: Vec<(Vec<u32>, Vec<u32>)> = s
            .flows
            .iter()
            .map(|f| {
                let fwd = f
                    .path
                    .windows(2)
                    .map(|w| {
                        let (l, d) = ip_scenario::link_between(&s.links, w[0], w[1])
                            .expect("validated path");
                        port_of(l, d)
                    })
                    .collect();
                let rev = f
                    .path
                    .windows(2)
                    .rev()
                    .map(|w| {
                        let (l, d) = ip_scenario::link_between(&s.links, w[1], w[0])
                            .expect("validated path");
                        port_of(l, d)
                    })
                    .collect();
                (fwd, rev)
            })
            .collect();

        let mut links = Vec::with_capacity(s.links.len());
        let mut ports = Vec::with_capacity(2 * s.links.len());
        for (li, l) in s.links.iter().enumerate() {
            let rate_bps = l.rate_mbps * 1e6;
            let delay = SimTime::from_ms(l.delay_ms);
            for (dir, (from, to)) in [(l.a, l.b), (l.b, l.a)].into_iter().enumerate() {
                let spec = &l.ports[dir];
                let id = if dir == 0 { l.id.clone() } else { format!("{}:rev", l.id) };
                let index = port_of(li, dir);
                let aqm = match &spec.aqm {
                    AqmConfig::DropTail => Aqm::DropTail,
                    AqmConfig::Bat(config) => {
                        let members: Vec<BatMember> = s
                            .flows
                            .iter()
                            .enumerate()
                            .filter(|(fi, _)| routes[*fi].0.contains(&index))
                            .map(|(fi, f)| BatMember {
                                flow: fi as u32,
                                id: f.id.clone(),
                                group: f.group.clone(),
                                responsive: matches!(f.kind, FlowKindSpec::Tcp(_)),
                            })
                            .collect();
                        let rng = Rng::new(seed, 0x2_0000 + index as u64);
                        Aqm::Bat(Box::new(Bat::new(
                            config.clone(),
                            rate_bps,
                            &members,
                            s.flows.len(),
                            rng,
                        )))
                    }
                };
                ports.push(IpPort::new(
                    id,
                    li as u32,
                    from as u32,
                    to as u32,
                    rate_bps,
                    delay,
                    spec.buffer_pkts,
                    aqm,
                ));
            }
            links.push(IpLink {
                id: l.id.clone(),
                a: l.a as u32,
                b: l.b as u32,
                rate_mbps: l.rate_mbps,
                delay,
                ports: [port_of(li, 0), port_of(li, 1)],
            });
        }

        let flows: Vec<IpFlow> = s
            .flows
            .iter()
            .zip(routes)
            .map(|(f, (fwd_ports, rev_ports))| {
                let base_ms = ip_scenario::path_round_trip_ms(&s.links, &f.path);
                let extra_ms = f.rtt_ms.map_or(0.0, |r| (r - base_ms).max(0.0));
                let start = SimTime::from_ms(f.start_ms);
                let stop = f.stop_ms.map_or(SimTime::NEVER, SimTime::from_ms);
                let (class, ends) = match &f.kind {
                    FlowKindSpec::Tcp(params) => (
                        FlowClass::Tcp,
                        FlowEnds::Tcp {
                            sender: TcpSender::new(*params),
                            receiver: TcpReceiver::new(params),
                        },
                    ),
                    FlowKindSpec::Udp { rate_mbps, alt_rate_mbps, alt_period_ms } => (
                        FlowClass::Udp,
                        FlowEnds::Udp {
                            source: UdpSource {
                                rate_bps: rate_mbps * 1e6,
                                alt_rate_bps: alt_rate_mbps.map(|r| r * 1e6),
                                period: SimTime::from_ms(*alt_period_ms),
                                start,
                                stop,
                                packet_bytes: f.packet_bytes,
                            },
                            next_seq: 0,
                        },
                    ),
                };
                IpFlow {
                    id: f.id.clone(),
                    group: f.group.clone(),
                    class,
                    nodes: f.path.iter().map(|&n| n as u32).collect(),
                    fwd_ports,
                    rev_ports,
                    receiver_delay: SimTime::from_ms(extra_ms),
                    rtt: SimTime::from_ms(base_ms + extra_ms),
                    packet_bytes: f.packet_bytes,
                    start,
                    stop,
                    ends,
                    packets_sent: 0,
                    packets_delivered: 0,
                    goodput_bytes: 0,
                    interval_bytes: 0,
                    acks_sent: 0,
                    acks_received: 0,
                }
            })
            .collect();

        let bat_port = ports.iter().position(|p| p.aqm.bat().is_some());
        let mut sim = IpSimulation {
            meta: s.meta.clone(),
            run: s.run.clone(),
            warnings: s.warnings.clone(),
            queue: EventQueue::new(),
            nodes: s.nodes.clone(),
            links,
            ports,
            flows,
            bat_port,
            samples: SampleBuffer::default(),
            columns: Vec::new(),
            sample_interval_ms: s.run.sample_interval_ms,
            next_sample: 1,
            last_sample: SimTime::ZERO,
            events: 0,
            packets_sent: 0,
            packets_in_delay: 0,
            series_hash: SeriesHash::new(),
            scratch: Vec::new(),
        };
        sim.columns = sim.column_names();
        sim.samples = SampleBuffer::new(sim.columns.len());
        for (i, f) in sim.flows.iter().enumerate() {
            if f.start < f.stop {
                sim.queue.schedule(f.start, IpEvent::FlowStart { flow: i as u32 });
                if f.stop != SimTime::NEVER {
                    sim.queue.schedule(f.stop, IpEvent::FlowStop { flow: i as u32 });
                }
            }
        }
        for (i, p) in sim.ports.iter().enumerate() {
            if let Some(bat) = p.aqm.bat() {
                sim.queue.schedule(bat.config.interval, IpEvent::BatUpdate { port: i as u32 });
                if let Some(c) = &bat.clcc {
                    sim.queue.schedule(c.config.sample, IpEvent::ClccSample { port: i as u32 });
                }
            }
        }
        sim.queue.schedule(sim.sample_time(1), IpEvent::Sample);
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

    /// FNV-1a hash of every sample value so far, as hex: the same run gives the same hash.
    pub fn series_hash(&self) -> String {
        self.series_hash.hex()
    }

    /// Removes and returns the sample rows recorded since the last call (flat, row-major).
    pub fn take_samples(&mut self) -> Vec<f64> {
        self.samples.take()
    }

    /// Runs events up to and including `deadline`, handling at most `max_events`.
    pub fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        let (outcome, handled) = kernel::run_until(self, deadline, max_events);
        self.events += handled;
        outcome
    }
}

impl Handler<IpEvent> for IpSimulation {
    fn queue(&mut self) -> &mut EventQueue<IpEvent> {
        &mut self.queue
    }

    fn handle(&mut self, now: SimTime, event: IpEvent) {
        match event {
            IpEvent::FlowStart { flow } => self.on_flow_start(now, flow),
            IpEvent::FlowStop { flow } => {
                if let FlowEnds::Tcp { sender, .. } = &mut self.flows[flow as usize].ends {
                    sender.sending = false;
                }
            }
            IpEvent::UdpSend { flow } => self.send_datagram(now, flow),
            IpEvent::PortTxDone { port } => self.on_tx_done(now, port),
            IpEvent::LinkArrive { port } => self.on_link_arrive(now, port),
            IpEvent::Deliver { packet } => {
                self.packets_in_delay -= 1;
                self.receive_data(now, packet);
            }
            IpEvent::RtoTimer { flow, generation } => self.on_rto(now, flow, generation),
            IpEvent::DelayedAck { flow, generation } => self.on_delayed_ack(now, flow, generation),
            IpEvent::BatUpdate { port } => {
                let p = &mut self.ports[port as usize];
                let queue_len = p.queue_len();
                if let Some(bat) = p.aqm.bat_mut() {
                    bat.update(queue_len);
                    self.queue.schedule(now + bat.config.interval, event);
                }
            }
            IpEvent::ClccSample { port } => {
                if let Some(bat) = self.ports[port as usize].aqm.bat_mut() {
                    bat.clcc_sample();
                    if let Some(c) = &bat.clcc {
                        self.queue.schedule(now + c.config.sample, event);
                    }
                }
            }
            IpEvent::Sample => self.on_sample(now),
        }
    }
}

impl IpSimulation {
    fn on_flow_start(&mut self, now: SimTime, flow: u32) {
        let f = &mut self.flows[flow as usize];
        match &mut f.ends {
            FlowEnds::Tcp { sender, .. } => {
                let mut out = std::mem::take(&mut self.scratch);
                sender.start(now, &mut out);
                self.send_segments(now, flow, &mut out);
                self.scratch = out;
            }
            FlowEnds::Udp { .. } => self.send_datagram(now, flow),
        }
    }

    /// A UDP source sends one datagram and schedules the next.
    fn send_datagram(&mut self, now: SimTime, flow: u32) {
        let f = &mut self.flows[flow as usize];
        let FlowEnds::Udp { source, next_seq } = &mut f.ends else { return };
        if now >= source.stop {
            return;
        }
        let packet = Packet::data(flow, *next_seq, f.packet_bytes, PacketKind::Udp);
        *next_seq = next_seq.wrapping_add(1);
        if let Some(next) = source.next_send(now) {
            self.queue.schedule(next, IpEvent::UdpSend { flow });
        }
        f.packets_sent += 1;
        self.packets_sent += 1;
        let port = f.fwd_ports[0];
        self.enqueue(now, port, packet);
    }

    /// Puts TCP segments `seqs` of `flow` into its first port, then keeps the timers in step.
    fn send_segments(&mut self, now: SimTime, flow: u32, seqs: &mut Vec<u32>) {
        let (port, bytes) = {
            let f = &mut self.flows[flow as usize];
            f.packets_sent += seqs.len() as u64;
            (f.fwd_ports[0], f.packet_bytes)
        };
        self.packets_sent += seqs.len() as u64;
        for &seq in seqs.iter() {
            self.enqueue(now, port, Packet::data(flow, seq, bytes, PacketKind::TcpData));
        }
        seqs.clear();
        self.sync_timers(flow);
    }

    /// Schedules the events a flow's TCP timers need.
    fn sync_timers(&mut self, flow: u32) {
        if let FlowEnds::Tcp { sender, receiver } = &mut self.flows[flow as usize].ends {
            if let Some((at, generation)) = sender.rto_timer.event_needed() {
                self.queue.schedule(at, IpEvent::RtoTimer { flow, generation });
            }
            if let Some((at, generation)) = receiver.delack_timer.event_needed() {
                self.queue.schedule(at, IpEvent::DelayedAck { flow, generation });
            }
        }
    }

    fn on_rto(&mut self, now: SimTime, flow: u32, generation: u32) {
        let FlowEnds::Tcp { sender, .. } = &mut self.flows[flow as usize].ends else { return };
        if sender.rto_timer.fire(generation, now) {
            let mut out = std::mem::take(&mut self.scratch);
            sender.on_timeout(now, &mut out);
            self.send_segments(now, flow, &mut out);
            self.scratch = out;
        } else {
            self.sync_timers(flow);
        }
    }

    fn on_delayed_ack(&mut self, now: SimTime, flow: u32, generation: u32) {
        let FlowEnds::Tcp { receiver, .. } = &mut self.flows[flow as usize].ends else { return };
        if receiver.delack_timer.fire(generation, now) {
            if let Some(ack) = receiver.on_delack_timeout() {
                self.send_ack(now, flow, ack);
            }
        }
        self.sync_timers(flow);
    }

    fn send_ack(&mut self, now: SimTime, flow: u32, next_expected: u32) {
        let f = &mut self.flows[flow as usize];
        f.acks_sent += 1;
        let port = f.rev_ports[0];
        self.enqueue(now, port, Packet::ack(flow, next_expected));
    }

    /// Offers `packet` to `port`; an idle transmitter starts at once.
    fn enqueue(&mut self, now: SimTime, port: u32, packet: Packet) {
        let p = &mut self.ports[port as usize];
        if p.enqueue(now, packet) && !p.is_busy() {
            if let Some(done) = p.start_tx(now) {
                self.queue.schedule(done, IpEvent::PortTxDone { port });
            }
        }
    }

    fn on_tx_done(&mut self, now: SimTime, port: u32) {
        let p = &mut self.ports[port as usize];
        if p.finish_tx(now) {
            self.queue.schedule(now + p.delay, IpEvent::LinkArrive { port });
        }
        if let Some(done) = p.start_tx(now) {
            self.queue.schedule(done, IpEvent::PortTxDone { port });
        }
    }

    fn on_link_arrive(&mut self, now: SimTime, port: u32) {
        let p = &mut self.ports[port as usize];
        let (at, mut packet) =
            p.wire.pop_front().expect("an arrival event has a packet on the wire");
        debug_assert_eq!(at, now);
        if let Some(&(next, _)) = p.wire.front() {
            self.queue.schedule(next, IpEvent::LinkArrive { port });
        }
        let flow = packet.flow;
        let hop = packet.hop as usize + 1;
        packet.hop = hop as u16;
        let f = &self.flows[flow as usize];
        if packet.is_ack() {
            if hop == f.rev_ports.len() {
                self.receive_ack(now, packet);
            } else {
                let next = f.rev_ports[hop];
                self.enqueue(now, next, packet);
            }
        } else if hop == f.fwd_ports.len() {
            if f.receiver_delay > SimTime::ZERO {
                self.packets_in_delay += 1;
                self.queue.schedule(now + f.receiver_delay, IpEvent::Deliver { packet });
            } else {
                self.receive_data(now, packet);
            }
        } else {
            let next = f.fwd_ports[hop];
            self.enqueue(now, next, packet);
        }
    }

    /// A data packet reaches its receiver.
    fn receive_data(&mut self, now: SimTime, packet: Packet) {
        let flow = packet.flow;
        let f = &mut self.flows[flow as usize];
        f.packets_delivered += 1;
        match &mut f.ends {
            FlowEnds::Tcp { receiver, .. } => {
                let receipt = receiver.on_segment(now, packet.seq);
                if receipt.new_data {
                    f.goodput_bytes += packet.bytes as u64;
                    f.interval_bytes += packet.bytes as u64;
                }
                if let Some(ack) = receipt.ack_now {
                    self.send_ack(now, flow, ack);
                }
                self.sync_timers(flow);
            }
            FlowEnds::Udp { .. } => {
                f.goodput_bytes += packet.bytes as u64;
                f.interval_bytes += packet.bytes as u64;
            }
        }
    }

    /// An ACK reaches its sender.
    fn receive_ack(&mut self, now: SimTime, packet: Packet) {
        let flow = packet.flow;
        let f = &mut self.flows[flow as usize];
        f.acks_received += 1;
        let FlowEnds::Tcp { sender, .. } = &mut f.ends else { return };
        let mut out = std::mem::take(&mut self.scratch);
        sender.on_ack(now, packet.seq, &mut out);
        self.send_segments(now, flow, &mut out);
        self.scratch = out;
    }

    fn column_names(&self) -> Vec<String> {
        let mut names: Vec<String> = [
            "t_ms",
            "class.tcp.throughput_mbps",
            "class.udp.throughput_mbps",
            "ratio",
            "d_udp",
            "fairness",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if let Some(b) = self.bat_port.and_then(|p| self.ports[p].aqm.bat()) {
            for f in &b.flows {
                names.extend(AQM_COLUMNS.iter().map(|c| format!("aqm.{}.{c}", f.id)));
            }
        }
        for p in &self.ports {
            names.extend(PORT_COLUMNS.iter().map(|c| format!("port.{}.{c}", p.id)));
        }
        for f in &self.flows {
            names.extend(FLOW_COLUMNS.iter().map(|c| format!("flow.{}.{c}", f.id)));
        }
        names
    }

    /// The reference allocation (bit/s) of the BAT flows at `bat`, given the
    /// bytes each offered over `span_s` (Pletka et al. §III-B, §IV).
    pub fn reference_bps(bat: &Bat, offered_bytes: &[u64], span_s: f64) -> Vec<f64> {
        let clcc: Option<&ClccConfig> = bat.config.clcc.as_ref();
        let n_tcp = bat.flows.iter().filter(|f| f.responsive).count().max(1) as f64;
        let n_udp = bat.flows.iter().filter(|f| !f.responsive).count().max(1) as f64;
        let claims: Vec<Claim> = bat
            .flows
            .iter()
            .zip(offered_bytes)
            .map(|(f, &bytes)| {
                let offered = bytes as f64 * 8.0 / span_s.max(1e-12);
                let demand = if bytes == 0 {
                    0.0
                } else if f.responsive {
                    f64::INFINITY
                } else {
                    offered
                };
                let weight = match clcc {
                    Some(_) if f.responsive => 1.0 / n_tcp,
                    Some(c) => c.r_ref / n_udp,
                    None => 1.0,
                };
                Claim {
                    min: f.params.f_min_mbps * 1e6,
                    max: f.params.f_max_mbps * 1e6,
                    demand,
                    weight,
                }
            })
            .collect();
        reference_allocation(bat.capacity_bps(), &claims)
    }

    fn on_sample(&mut self, now: SimTime) {
        let span_s = (now.0 - self.last_sample.0).max(1) as f64 / crate::time::PS_PER_S;
        let mbps = |bytes: u64| bytes as f64 * 8.0 / span_s / 1e6;
        let row_start = self.samples.rows.len();
        let rows = &mut self.samples.rows;
        rows.push(now.as_ms());
        let (mut tcp_bytes, mut udp_bytes) = (0u64, 0u64);
        for f in &self.flows {
            match f.class {
                FlowClass::Tcp => tcp_bytes += f.interval_bytes,
                FlowClass::Udp => udp_bytes += f.interval_bytes,
            }
        }
        rows.push(mbps(tcp_bytes));
        rows.push(mbps(udp_bytes));
        rows.push(if tcp_bytes > 0 { udp_bytes as f64 / tcp_bytes as f64 } else { f64::NAN });
        let bat_index = self.bat_port;
        let mut aqm_values = Vec::new();
        let (d_udp, fairness) = match bat_index.and_then(|p| self.ports[p].aqm.bat_mut()) {
            Some(bat) => {
                let offered: Vec<u64> = bat.flows.iter().map(|f| f.sample_offered).collect();
                let serviced: Vec<f64> =
                    bat.flows.iter().map(|f| f.sample_serviced as f64 * 8.0 / span_s).collect();
                let reference = Self::reference_bps(bat, &offered, span_s);
                for (i, f) in bat.flows.iter_mut().enumerate() {
                    aqm_values.extend_from_slice(&[
                        f.t,
                        mbps(f.sample_offered),
                        serviced[i] / 1e6,
                        reference[i] / 1e6,
                    ]);
                    f.sample_offered = 0;
                    f.sample_serviced = 0;
                }
                (
                    bat.d_udp().unwrap_or(f64::NAN),
                    weighted_fairness_index(&serviced, &reference).unwrap_or(f64::NAN),
                )
            }
            None => {
                // No BAT port: Jain's index of the active flows' throughputs.
                let x: Vec<f64> = self
                    .flows
                    .iter()
                    .filter(|f| now > f.start && self.last_sample < f.stop)
                    .map(|f| f.interval_bytes as f64)
                    .collect();
                let w = vec![1.0; x.len()];
                (f64::NAN, weighted_fairness_index(&x, &w).unwrap_or(f64::NAN))
            }
        };
        let rows = &mut self.samples.rows;
        rows.push(d_udp);
        rows.push(fairness);
        rows.extend_from_slice(&aqm_values);
        for p in &mut self.ports {
            let s = p.take_interval(now);
            rows.extend_from_slice(&[
                p.queue_len() as f64,
                s.queue_mean,
                s.queue_max as f64,
                s.utilization,
                p.stats.lost_total() as f64,
            ]);
        }
        for f in &mut self.flows {
            rows.push(f.interval_bytes as f64 * 8.0 / span_s / 1e6);
            rows.push(f.cwnd());
            f.interval_bytes = 0;
        }
        debug_assert_eq!(rows.len() - row_start, self.columns.len());
        self.series_hash.add(&rows[row_start..]);
        self.last_sample = now;
        self.next_sample += 1;
        self.queue.schedule(self.sample_time(self.next_sample), IpEvent::Sample);
    }

    /// Names of the frame's entries, in order.
    pub fn frame_columns(&self) -> Vec<String> {
        let mut names = vec!["t_ms".to_string()];
        names.extend(self.ports.iter().map(|p| format!("port.{}.queue", p.id)));
        names
    }

    /// The live state for drawing: `[now_ms, queue packets per port…]` — the
    /// cell model's frame with no VCs, so a reader of either model splits it
    /// the same way. Per-flow and per-class rates, D_UDP and the fairness
    /// index come with the sample rows.
    pub fn frame(&self) -> Vec<f64> {
        let mut f = Vec::with_capacity(1 + self.ports.len());
        f.push(self.now().as_ms());
        f.extend(self.ports.iter().map(|p| p.queue_len() as f64));
        f
    }

    /// D_UDP at the first BAT port.
    pub fn d_udp(&self) -> Option<f64> {
        self.bat_port.and_then(|p| self.ports[p].aqm.bat()).and_then(Bat::d_udp)
    }

    /// Packets in the network now: queued, being sent, on a wire or in a receiver delay.
    pub fn packets_in_network(&self) -> u64 {
        self.ports.iter().map(IpPort::packets_held).sum::<u64>() + self.packets_in_delay
    }

    /// Packets on the links now, for animation, in the rows of the cell
    /// model's `cells_in_flight`: `[port index, progress 0..1 from leaving the
    /// transmitter to arriving, kind (4 TCP segment, 5 TCP ACK, 6 UDP
    /// datagram), flow index, packet bytes, 0, NaN]`. At most `max` rows,
    /// taken evenly across the links when there are more.
    pub fn packets_in_flight(&self, max: usize) -> Vec<f64> {
        let now = self.now();
        let total: usize = self.ports.iter().map(|p| p.wire.len()).sum();
        let stride = total.div_ceil(max.max(1)).max(1);
        let mut out = Vec::with_capacity(7 * total.min(max));
        let mut k = 0usize;
        for (pi, p) in self.ports.iter().enumerate() {
            for &(arrive, packet) in &p.wire {
                k += 1;
                if !k.is_multiple_of(stride) || out.len() >= 7 * max {
                    continue;
                }
                let span = p.delay.0 + p.tx_time(packet.bytes).0;
                let start = arrive.0.saturating_sub(span);
                let progress =
                    (now.0.saturating_sub(start) as f64 / span.max(1) as f64).clamp(0.0, 1.0);
                let kind = match packet.kind {
                    PacketKind::TcpData => 4.0,
                    PacketKind::TcpAck => 5.0,
                    PacketKind::Udp => 6.0,
                };
                out.extend_from_slice(&[
                    pi as f64,
                    progress,
                    kind,
                    packet.flow as f64,
                    packet.bytes as f64,
                    0.0,
                    f64::NAN,
                ]);
            }
        }
        out
    }

    /// One port's packets for the magnifier, in the rows of
    /// `packets_in_flight`: up to `max` on the wire (progress 0..1) and up to
    /// `max` waiting (the k-th, 0 next to be sent, with progress `-(k + 1)`).
    pub fn port_packets(&self, port: usize, max: usize) -> Vec<f64> {
        let Some(p) = self.ports.get(port) else { return Vec::new() };
        let now = self.now();
        let kind = |packet: &Packet| match packet.kind {
            PacketKind::TcpData => 4.0,
            PacketKind::TcpAck => 5.0,
            PacketKind::Udp => 6.0,
        };
        let mut out = Vec::new();
        for &(arrive, packet) in p.wire.iter().take(max) {
            let span = p.delay.0 + p.tx_time(packet.bytes).0;
            let start = arrive.0.saturating_sub(span);
            let progress =
                (now.0.saturating_sub(start) as f64 / span.max(1) as f64).clamp(0.0, 1.0);
            out.extend_from_slice(&[
                port as f64,
                progress,
                kind(&packet),
                packet.flow as f64,
                packet.bytes as f64,
                0.0,
                f64::NAN,
            ]);
        }
        for (k, packet) in p.waiting().take(max).enumerate() {
            out.extend_from_slice(&[
                port as f64,
                -(k as f64 + 1.0),
                kind(packet),
                packet.flow as f64,
                packet.bytes as f64,
                0.0,
                f64::NAN,
            ]);
        }
        out
    }

    /// Changes one parameter, by the `--set` path grammar, in `scenario` (the
    /// JSON this simulation was built from) and, where the model allows it, in
    /// the running simulation: BAT's and CLCC's knobs (`…aqm…`, keeping the
    /// transmit probabilities and the controller's state) and a UDP flow's
    /// rates (`flows.<id>.rate_mbps`, `alt_rate_mbps`) apply live; anything
    /// else asks for a restart. The edited scenario is validated whole first.
    pub fn set_param(
        &mut self,
        scenario: &mut Value,
        path: &str,
        raw: &str,
    ) -> Result<Applied, ScenarioError> {
        let mut edited = scenario.clone();
        crate::scenario::apply_set(&mut edited, path, raw)?;
        let parsed = ip_scenario::ip_scenario_from_value(&edited).map_err(|errors| {
            errors.into_iter().next().unwrap_or_else(|| ScenarioError::new(path, "invalid value"))
        })?;
        *scenario = edited;
        let fresh = IpSimulation::build(&parsed);
        let segments: Vec<&str> = path.split('.').collect();
        let applied = if segments.contains(&"aqm") && self.ports.len() == fresh.ports.len() {
            let mut ok = true;
            for (p, f) in self.ports.iter_mut().zip(&fresh.ports) {
                ok &= match (&mut p.aqm, &f.aqm) {
                    (Aqm::DropTail, Aqm::DropTail) => true,
                    (Aqm::Bat(a), Aqm::Bat(b)) => a.reconfigure_from(b),
                    _ => false,
                };
            }
            if ok {
                Applied::Live
            } else {
                Applied::Restart
            }
        } else if let ["flows", id, "rate_mbps" | "alt_rate_mbps"] = segments.as_slice() {
            for (mine, theirs) in self.flows.iter_mut().zip(&fresh.flows) {
                if mine.id == *id || mine.group == *id {
                    if let (FlowEnds::Udp { source, .. }, FlowEnds::Udp { source: new, .. }) =
                        (&mut mine.ends, &theirs.ends)
                    {
                        source.rate_bps = new.rate_bps;
                        source.alt_rate_bps = new.alt_rate_bps;
                    }
                }
            }
            Applied::Live
        } else {
            Applied::Restart
        };
        Ok(applied)
    }

    /// The topology, ids and sample columns, for the UI and the runner.
    pub fn layout(&self) -> Value {
        let node = |n: u32| self.nodes[n as usize].id.as_str();
        json!({
            "model": "ip",
            "scenario": {
                "id": self.meta.id, "title": self.meta.title, "paper": self.meta.paper,
                "explanation": self.meta.explanation, "things_to_try": self.meta.things_to_try,
                "variants": self.meta.variants.iter().map(|v| json!({"id": v.id, "label": v.label})).collect::<Vec<_>>(),
            },
            "until_ms": self.run.until_ms,
            "seed": self.run.seed,
            "sample_interval_ms": self.sample_interval_ms,
            "nodes": self.nodes.iter().map(|n| json!({"id": n.id, "kind": n.kind.as_str(), "x": n.x, "y": n.y})).collect::<Vec<_>>(),
            // The packet model has flows, not VCs; the empty list keeps cell-model readers working.
            "vcs": [],
            "links": self.links.iter().map(|l| json!({
                "id": l.id, "a": node(l.a), "b": node(l.b), "rate_mbps": l.rate_mbps, "delay_ms": l.delay.as_ms(),
            })).collect::<Vec<_>>(),
            "flows": self.flows.iter().map(|f| json!({
                "id": f.id, "group": f.group, "kind": f.class.as_str(),
                "source": node(f.nodes[0]), "destination": node(*f.nodes.last().expect("path")),
                "path": f.nodes.iter().map(|&n| node(n)).collect::<Vec<_>>(),
                "rtt_ms": f.rtt.as_ms(), "packet_bytes": f.packet_bytes,
                "start_ms": f.start.as_ms(),
            })).collect::<Vec<_>>(),
            "ports": self.ports.iter().map(|p| json!({
                "id": p.id, "link": self.links[p.link as usize].id,
                "from": node(p.from), "to": node(p.to),
                "from_kind": self.nodes[p.from as usize].kind.as_str(),
                "aqm": match &p.aqm { Aqm::DropTail => "drop_tail", Aqm::Bat(b) if b.clcc.as_ref().is_some_and(|c| c.config.enabled) => "bat+clcc", Aqm::Bat(_) => "bat" },
                "buffer_pkts": p.buffer_pkts,
            })).collect::<Vec<_>>(),
            "bat_port": self.bat_port.map(|p| self.ports[p].id.clone()),
            "classes": ["tcp", "udp"],
            "columns": self.columns,
            "frame_columns": self.frame_columns(),
            "warnings": self.warnings.iter().map(|w| json!({"path": w.path, "message": w.message})).collect::<Vec<_>>(),
        })
    }
}

/// Columns recorded per BAT flow of the first BAT port, after `aqm.<id>.`.
pub const AQM_COLUMNS: [&str; 4] = ["t", "offered_mbps", "serviced_mbps", "reference_mbps"];
/// Columns recorded per port, after `port.<id>.`.
pub const PORT_COLUMNS: [&str; 5] = ["queue", "queue_mean", "queue_max", "util", "lost"];
/// Columns recorded per flow, after `flow.<id>.`.
pub const FLOW_COLUMNS: [&str; 2] = ["throughput_mbps", "cwnd"];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one_flow(flow: Value) -> IpSimulation {
        let v = json!({
            "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": "t",
            "run": { "until_ms": 1000, "sample_interval_ms": 100 },
            "nodes": [ {"id": "S", "kind": "host"}, {"id": "R", "kind": "router"}, {"id": "D", "kind": "host"} ],
            "links": [ {"id": "a", "a": "S", "b": "R", "rate_mbps": 100, "delay_ms": 1},
                       {"id": "b", "a": "R", "b": "D", "rate_mbps": 100, "delay_ms": 1} ],
            "flows": [ flow ]
        });
        IpSimulation::build(&ip_scenario::ip_scenario_from_value(&v).unwrap())
    }

    #[test]
    fn the_first_rtt_sample_is_propagation_plus_receiver_delay_plus_transmission() {
        let mut sim = one_flow(
            json!({"id": "t", "kind": "tcp", "path": ["S", "R", "D"], "rtt_ms": 50, "initial_cwnd": 1}),
        );
        assert_eq!(sim.flows[0].receiver_delay, SimTime::from_ms(46.0), "50 ms less 4 ms of links");
        sim.run_until(SimTime::from_ms(60.0), u64::MAX);
        let FlowEnds::Tcp { sender, .. } = &sim.flows[0].ends else { panic!() };
        // 1500 bytes twice at 100 Mbit/s (120 µs each) and a 40-byte ACK twice (3.2 µs each).
        assert_eq!(sender.rtt.srtt(), Some(SimTime::from_us(50_000.0 + 240.0 + 6.4)));
        assert_eq!(sender.snd_una, 1);
    }

    #[test]
    fn a_udp_source_paces_its_datagrams_and_the_probe_counts_them() {
        let mut sim = one_flow(
            json!({"id": "u", "kind": "udp", "path": ["S", "R", "D"], "rate_mbps": 12, "packet_bytes": 1500}),
        );
        sim.run_until(SimTime::from_ms(1000.0), u64::MAX);
        // 12 Mbit/s of 1500-byte datagrams: one per millisecond, at 0, 1, …, 1000 ms.
        assert_eq!(sim.packets_sent, 1001);
        let rows = sim.take_samples();
        let cols = sim.columns().to_vec();
        let udp = cols.iter().position(|c| c == "class.udp.throughput_mbps").unwrap();
        let last = &rows[rows.len() - cols.len()..];
        assert!((last[udp] - 12.0).abs() < 1e-9, "{}", last[udp]);
        assert!(
            last[cols.iter().position(|c| c == "ratio").unwrap()].is_nan(),
            "no TCP: ratio undefined"
        );
    }
}
