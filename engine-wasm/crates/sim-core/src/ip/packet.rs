//! IP packets as the packet-level model moves them: small and `Copy`, so they
//! live in port queues and on wires by value. Sizes are whole bytes on the
//! wire (headers included), as ns's packet sizes are (Pletka et al. Table I: 1500
//! or 500 bytes).

/// Bytes of a pure TCP acknowledgement on the wire (20 IP + 20 TCP header).
pub const ACK_BYTES: u32 = 40;

/// What a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// A TCP data segment; `seq` numbers segments from 0.
    TcpData,
    /// A TCP cumulative acknowledgement; `seq` is the next segment expected.
    TcpAck,
    /// A UDP datagram of a CBR source; `seq` counts datagrams.
    Udp,
}

/// One IP packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Index of the flow it belongs to.
    pub flow: u32,
    pub seq: u32,
    pub bytes: u32,
    pub kind: PacketKind,
    /// Ports crossed so far on its route (forward for data, reverse for ACKs).
    pub hop: u16,
}

impl Packet {
    /// A data packet (TCP segment or UDP datagram) leaving its source.
    pub fn data(flow: u32, seq: u32, bytes: u32, kind: PacketKind) -> Packet {
        Packet { flow, seq, bytes, kind, hop: 0 }
    }

    /// An acknowledgement leaving the receiver.
    pub fn ack(flow: u32, next_expected: u32) -> Packet {
        Packet { flow, seq: next_expected, bytes: ACK_BYTES, kind: PacketKind::TcpAck, hop: 0 }
    }

    /// Whether it travels the flow's reverse route (receiver → sender).
    pub fn is_ack(&self) -> bool {
        self.kind == PacketKind::TcpAck
    }
}
