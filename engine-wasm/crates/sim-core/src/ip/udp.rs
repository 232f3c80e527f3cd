//! A UDP constant-bit-rate source (Pletka et al. §III-B, §V): one datagram every
//! size/rate seconds, optionally alternating between two rates on a fixed
//! period (Pletka et al. §V, Figure 7: 50 and 120 Mbit/s every 5 s). It never
//! reacts to loss — the non-responsive class.

use crate::time::{SimTime, PS_PER_S};

/// A CBR source's schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UdpSource {
    /// Rate in the first period, bit/s.
    pub rate_bps: f64,
    /// Rate in every other period, bit/s; `None` for a constant rate.
    pub alt_rate_bps: Option<f64>,
    /// Length of each period of the alternation.
    pub period: SimTime,
    pub start: SimTime,
    pub stop: SimTime,
    /// Datagram size on the wire, bytes.
    pub packet_bytes: u32,
}

impl UdpSource {
    /// The rate in force at `now`, bit/s.
    pub fn rate_at(&self, now: SimTime) -> f64 {
        match self.alt_rate_bps {
            Some(alt) if self.period.0 > 0 => {
                let k = now.0.saturating_sub(self.start.0) / self.period.0;
                if k.is_multiple_of(2) {
                    self.rate_bps
                } else {
                    alt
                }
            }
            _ => self.rate_bps,
        }
    }

    /// When the datagram after one sent at `now` is due, or `None` once stopped.
    pub fn next_send(&self, now: SimTime) -> Option<SimTime> {
        let rate = self.rate_at(now);
        if rate <= 0.0 {
            return None;
        }
        let gap =
            SimTime(((self.packet_bytes as f64 * 8.0 / rate) * PS_PER_S).round().max(1.0) as u64);
        let next = now + gap;
        (next < self.stop).then_some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbr_spacing_and_alternation() {
        let s = UdpSource {
            rate_bps: 50e6,
            alt_rate_bps: Some(120e6),
            period: SimTime::from_ms(5000.0),
            start: SimTime::ZERO,
            stop: SimTime::NEVER,
            packet_bytes: 1500,
        };
        assert_eq!(s.rate_at(SimTime::from_ms(4999.0)), 50e6);
        assert_eq!(s.rate_at(SimTime::from_ms(5000.0)), 120e6);
        assert_eq!(s.rate_at(SimTime::from_ms(10_000.0)), 50e6);
        // 1500 bytes at 50 Mbit/s: 240 µs apart.
        assert_eq!(s.next_send(SimTime::ZERO), Some(SimTime::from_us(240.0)));
        // At 120 Mbit/s: 100 µs apart.
        assert_eq!(s.next_send(SimTime::from_ms(5000.0)), Some(SimTime::from_ms(5000.1)));
        let stopped = UdpSource { stop: SimTime::from_us(100.0), ..s };
        assert_eq!(stopped.next_send(SimTime::ZERO), None);
    }
}
