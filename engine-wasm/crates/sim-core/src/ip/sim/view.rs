//! What the page and the runner see of a packet-model run besides the sample
//! rows: the live frame, the packets on the wires and in one port for the
//! animation and the magnifier, and the layout.

use super::IpSimulation;
use crate::ip::bat::Bat;
use crate::ip::packet::{Packet, PacketKind};
use crate::ip::port::{Aqm, IpPort};
use crate::ip::scenario::{IpNodeKind, IpNodeSpec};
use crate::session::layout::{Layout, LayoutFlow, LayoutNode, ModelName, NodeKind};
use serde_json::Value;

impl IpSimulation {
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
                if !k.is_multiple_of(stride) || out.len() >= max.saturating_mul(7) {
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

    /// The topology, ids and sample columns, for the UI and the runner.
    pub fn layout(&self) -> Value {
        let node = |n: u32| self.nodes[n as usize].id.clone();
        let mut layout = Layout {
            model: Some(ModelName::Ip),
            // The packet model has flows, not VCs: the empty lists (the base's) keep
            // cell-model readers working.
            flows: Some(
                self.flows
                    .iter()
                    .map(|f| LayoutFlow {
                        id: f.id.clone(),
                        group: f.group.clone(),
                        kind: f.class.as_str().to_string(),
                        source: node(f.nodes[0]),
                        destination: node(*f.nodes.last().expect("path")),
                        path: f.nodes.iter().map(|&n| node(n)).collect(),
                        rtt_ms: f.rtt.as_ms(),
                        packet_bytes: f.packet_bytes,
                        start_ms: f.start.as_ms(),
                    })
                    .collect(),
            ),
            bat_port: Some(self.bat_port.map(|p| self.ports[p].id.clone())),
            classes: Some(vec!["tcp".to_string(), "udp".to_string()]),
            frame_columns: Some(self.frame_columns()),
            ..Layout::base(
                (&self.meta, &self.run, &self.warnings),
                &self.rec,
                self.nodes.iter().map(layout_node).collect(),
                &self.links,
            )
        };
        for (lp, p) in layout.ports.iter_mut().zip(&self.ports) {
            let clcc = |b: &Bat| b.clcc.as_ref().is_some_and(|c| c.config.enabled);
            let aqm = match &p.aqm {
                Aqm::DropTail => "drop_tail",
                Aqm::Bat(b) if clcc(b) => "bat+clcc",
                Aqm::Bat(_) => "bat",
            };
            lp.aqm = Some(aqm.to_string());
            lp.buffer_pkts = Some(p.buffer_pkts);
        }
        layout.to_json()
    }
}

/// A packet-model node as the layout shows it.
fn layout_node(n: &IpNodeSpec) -> LayoutNode {
    let kind = match n.kind {
        IpNodeKind::Host => NodeKind::Host,
        IpNodeKind::Router => NodeKind::Router,
    };
    LayoutNode::new(&n.id, kind, n.x, n.y)
}
