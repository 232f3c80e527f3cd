//! The packet-level simulation: a built IP scenario and the event loop that
//! drives it, on the same kernel as the cell model (`EventQueue<IpEvent>`).
//! Data packets go sender → host port → router ports → receiver (after the
//! flow's receiver-side delay); TCP acknowledgements come back along the
//! reverse ports. Every sample interval the probe records a row of columns
//! (per class, the UDP/TCP ratio, D_UDP, the fairness index, per BAT flow,
//! per port and per flow).

use super::aqm::AqmConfig;
use super::bat::{Bat, BatMember};
use super::packet::{Packet, PacketKind};
use super::port::{Aqm, IpPort};
use super::scenario::{self as ip_scenario, FlowKindSpec, IpNodeSpec, IpScenario};
use super::tcp::{TcpReceiver, TcpSender};
use super::udp::UdpSource;
use crate::kernel::{self, EventQueue, Handler, Rng, RunOutcome};
use crate::scenario::topology::PortEnds;
use crate::scenario::{Meta, RunSpec, ScenarioError};
use crate::session::Recorder;
use crate::time::SimTime;

mod edit;
mod sample;
mod view;

pub use sample::{AQM_COLUMNS, FLOW_COLUMNS, PORT_COLUMNS};

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

/// A link as built (the shape both models share).
pub use crate::scenario::topology::Link as IpLink;

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
    /// The sample rows, their columns and series hash, and the events handled.
    pub(super) rec: Recorder,
    /// Data packets the sources have emitted.
    pub packets_sent: u64,
    /// Data packets inside a receiver-side delay now.
    pub packets_in_delay: u64,
    scratch: Vec<u32>,
}

impl IpSimulation {
    /// Parses, validates and builds packet-level scenario text.
    pub fn from_json(text: &str) -> Result<IpSimulation, Vec<ScenarioError>> {
        let limits = crate::scenario::Limits::default();
        Ok(IpSimulation::build(&crate::scenario::parse_checked(text, &limits)?))
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
            for (dir, ends) in PortEnds::of_link(&l.id, li, l.a, l.b).into_iter().enumerate() {
                let spec = &l.ports[dir];
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
                ports.push(IpPort::new(ends, rate_bps, delay, spec.buffer_pkts, aqm));
            }
            let ports = [port_of(li, 0), port_of(li, 1)];
            links.push(IpLink::new(&l.id, (l.a, l.b), l.rate_mbps, delay, ports));
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
            rec: Recorder::new(Vec::new(), s.run.sample_interval_ms),
            packets_sent: 0,
            packets_in_delay: 0,
            scratch: Vec::new(),
        };
        sim.rec = Recorder::new(sim.column_names(), s.run.sample_interval_ms);
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
        sim.queue.schedule(sim.rec.due(), IpEvent::Sample);
        sim
    }

    /// The current simulated time.
    pub fn now(&self) -> SimTime {
        self.queue.now()
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        self.rec.events
    }

    /// Names of the sample columns, in row order.
    pub fn columns(&self) -> &[String] {
        self.rec.columns()
    }

    /// Hash of every sample value so far, as hex: the same run gives the same hash.
    pub fn series_hash(&self) -> String {
        self.rec.series_hash()
    }

    /// Removes and returns the sample rows recorded since the last call (flat, row-major).
    pub fn take_samples(&mut self) -> Vec<f64> {
        self.rec.take()
    }

    /// Runs events up to and including `deadline`, handling at most `max_events`.
    pub fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        let (outcome, handled) = kernel::run_until(self, deadline, max_events);
        self.rec.events += handled;
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
}

#[cfg(test)]
mod tests;
