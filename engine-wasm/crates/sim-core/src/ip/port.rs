//! A router or host output port for IP packets: a FIFO queue with a buffer
//! limit in packets, the packet being transmitted (size × 8 / link rate), the
//! packets propagating on the link (an in-order FIFO with one pending event
//! for its head) and, at router ports, an AQM deciding which arrivals to
//! admit. The port keeps the books (arrivals, drops by cause, queue integral,
//! busy time); the AQM only decides (ns-3 `QueueDisc`).

use super::bat::Bat;
use super::packet::Packet;
use crate::scenario::topology::PortEnds;
use crate::time::SimTime;
use std::collections::VecDeque;

/// An output port's AQM state.
#[derive(Clone, Debug)]
pub enum Aqm {
    DropTail,
    Bat(Box<Bat>),
}

impl Aqm {
    pub fn bat(&self) -> Option<&Bat> {
        match self {
            Aqm::Bat(b) => Some(b),
            Aqm::DropTail => None,
        }
    }

    pub fn bat_mut(&mut self) -> Option<&mut Bat> {
        match self {
            Aqm::Bat(b) => Some(b),
            Aqm::DropTail => None,
        }
    }
}

/// Counters an IP port keeps. `*_total` never reset; the rest cover the
/// current sample interval.
#[derive(Clone, Debug, Default)]
pub struct IpPortStats {
    pub arrived_total: u64,
    pub sent_total: u64,
    /// Packets lost because the buffer was full.
    pub tail_drops_total: u64,
    /// Packets the AQM refused.
    pub aqm_drops_total: u64,
    /// ∫ queue length dt over the interval, packet·ps.
    queue_area: u128,
    queue_max: u32,
    /// Transmitter busy time within the interval, ps.
    busy: u64,
}

impl IpPortStats {
    /// Every packet lost at this port.
    pub fn lost_total(&self) -> u64 {
        self.tail_drops_total + self.aqm_drops_total
    }
}

/// The interval statistics handed to the probe.
pub use crate::probe::IntervalStats as IpIntervalStats;

/// One direction of a link, seen from the node that transmits on it.
#[derive(Debug)]
pub struct IpPort {
    pub id: String,
    pub link: u32,
    pub from: u32,
    pub to: u32,
    pub rate_bps: f64,
    /// Transmission time of one byte, ps (fractional; rounded per packet).
    ps_per_byte: f64,
    pub delay: SimTime,
    pub buffer_pkts: u32,
    queue: VecDeque<Packet>,
    in_tx: Option<Packet>,
    tx_started: SimTime,
    /// Packets on the wire, with the time each reaches the far end.
    pub wire: VecDeque<(SimTime, Packet)>,
    pub aqm: Aqm,
    pub stats: IpPortStats,
    queue_since: SimTime,
    interval_start: SimTime,
}

impl IpPort {
    /// The packets waiting, in order of service, for drawing.
    pub fn waiting(&self) -> impl Iterator<Item = &Packet> {
        self.queue.iter()
    }

    #[allow(clippy::too_many_arguments, reason = "a port is built once from its scenario entry")]
    pub fn new(
        ends: PortEnds,
        rate_bps: f64,
        delay: SimTime,
        buffer_pkts: u32,
        aqm: Aqm,
    ) -> IpPort {
        let PortEnds { id, link, from, to } = ends;
        IpPort {
            id,
            link,
            from,
            to,
            rate_bps,
            ps_per_byte: 8.0 * crate::time::PS_PER_S / rate_bps,
            delay,
            buffer_pkts,
            queue: VecDeque::new(),
            in_tx: None,
            tx_started: SimTime::ZERO,
            wire: VecDeque::new(),
            aqm,
            stats: IpPortStats::default(),
            queue_since: SimTime::ZERO,
            interval_start: SimTime::ZERO,
        }
    }

    /// The time `bytes` occupy the link.
    pub fn tx_time(&self, bytes: u32) -> SimTime {
        SimTime(((bytes as f64 * self.ps_per_byte).round() as u64).max(1))
    }

    /// Packets waiting (not counting the one being transmitted).
    pub fn queue_len(&self) -> u32 {
        self.queue.len() as u32
    }

    pub fn is_busy(&self) -> bool {
        self.in_tx.is_some()
    }

    fn account_queue(&mut self, now: SimTime) {
        let dt = now.0 - self.queue_since.0;
        self.stats.queue_area += crate::time::queue_area(self.queue.len() as u64, dt);
        self.queue_since = now;
    }

    /// Offers a packet: the AQM may refuse it, a full buffer drops it. Returns
    /// whether it was queued.
    pub fn enqueue(&mut self, now: SimTime, packet: Packet) -> bool {
        self.stats.arrived_total += 1;
        if let Aqm::Bat(bat) = &mut self.aqm {
            if !packet.is_ack() && !bat.admit(packet.flow, packet.bytes) {
                self.stats.aqm_drops_total += 1;
                return false;
            }
        }
        if self.queue.len() as u32 >= self.buffer_pkts {
            self.stats.tail_drops_total += 1;
            return false;
        }
        if let Aqm::Bat(bat) = &mut self.aqm {
            if !packet.is_ack() {
                bat.on_enqueued(packet.flow, packet.bytes);
            }
        }
        self.account_queue(now);
        self.queue.push_back(packet);
        self.stats.queue_max = self.stats.queue_max.max(self.queue.len() as u32);
        true
    }

    /// Starts sending the next queued packet; returns when it is done. Call
    /// only when idle.
    pub fn start_tx(&mut self, now: SimTime) -> Option<SimTime> {
        debug_assert!(self.in_tx.is_none(), "port {} started twice", self.id);
        self.account_queue(now);
        let packet = self.queue.pop_front()?;
        self.in_tx = Some(packet);
        self.tx_started = now;
        Some(now + self.tx_time(packet.bytes))
    }

    /// Finishes the current transmission: the packet goes onto the wire.
    /// Returns true when the wire was empty (the caller schedules the arrival).
    pub fn finish_tx(&mut self, now: SimTime) -> bool {
        let packet = self.in_tx.take().expect("finish_tx on an idle port");
        self.stats.busy += now.0 - self.tx_started.0.max(self.interval_start.0);
        self.stats.sent_total += 1;
        let was_empty = self.wire.is_empty();
        self.wire.push_back((now + self.delay, packet));
        was_empty
    }

    /// Closes the current sample interval at `now` and returns its statistics.
    pub fn take_interval(&mut self, now: SimTime) -> IpIntervalStats {
        self.account_queue(now);
        if self.in_tx.is_some() {
            self.stats.busy += now.0 - self.tx_started.0.max(self.interval_start.0);
        }
        let span = (now.0 - self.interval_start.0).max(1) as f64;
        let result = IpIntervalStats {
            queue_mean: self.stats.queue_area as f64 / span,
            queue_max: self.stats.queue_max,
            utilization: (self.stats.busy as f64 / span).min(1.0),
        };
        self.stats.queue_area = 0;
        self.stats.queue_max = self.queue.len() as u32;
        self.stats.busy = 0;
        self.interval_start = now;
        result
    }

    /// Packets in this port's care: queued, being sent, and on the wire.
    pub fn packets_held(&self) -> u64 {
        self.queue.len() as u64 + self.in_tx.is_some() as u64 + self.wire.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ip::packet::PacketKind;

    #[test]
    fn a_1500_byte_packet_takes_120_us_at_100_mbps_and_the_buffer_limits() {
        let mut p = IpPort::new(
            PortEnds::of_link("p", 0, 0, 1)[0].clone(),
            100e6,
            SimTime::from_ms(1.0),
            2,
            Aqm::DropTail,
        );
        let pkt = Packet::data(0, 0, 1500, PacketKind::Udp);
        assert!(p.enqueue(SimTime::ZERO, pkt));
        assert!(p.enqueue(SimTime::ZERO, pkt));
        assert!(!p.enqueue(SimTime::ZERO, pkt));
        assert_eq!(p.stats.tail_drops_total, 1);
        let done = p.start_tx(SimTime::ZERO).unwrap();
        assert_eq!(done, SimTime::from_us(120.0));
        assert!(p.finish_tx(done));
        assert_eq!(p.wire.front().unwrap().0, SimTime::from_us(1120.0));
        assert_eq!(p.packets_held(), 2);
        let s = p.take_interval(SimTime::from_us(240.0));
        assert!((s.utilization - 0.5).abs() < 1e-12);
    }
}
