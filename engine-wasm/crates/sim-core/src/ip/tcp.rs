//! TCP NewReno, counted in whole segments as ns's TCP agents count them: a
//! greedy (FTP-like) sender that always has data, and a cumulative-ACK
//! receiver with optional delayed ACKs.
//!
//! - Slow start and congestion avoidance: RFC 5681 §3.1 (cwnd += 1 per new
//!   ACK below ssthresh, += 1/cwnd above; no byte counting, as in ns).
//! - Fast retransmit and fast recovery: RFC 5681 §3.2 with NewReno's partial
//!   ACKs, RFC 6582 §3.2 (the "recover" point, partial-ACK retransmission and
//!   window deflation, the "Impatient" timer reset on the first partial ACK only).
//! - Retransmission timeout: RFC 6298 (SRTT/RTTVAR estimator, RTO = SRTT +
//!   max(G, 4·RTTVAR), a floor, doubling back-off) with Karn's rule: no RTT
//!   sample from a retransmitted segment, and the backed-off RTO is kept until a
//!   fresh sample arrives. After a timeout the sender goes back to the first
//!   unacknowledged segment (go-back-N, as ns and BSD do).
//! - Delayed ACKs: RFC 5681 §4.2 — an ACK for at least every second full-size
//!   segment and within the delayed-ACK timeout; an immediate ACK for an
//!   out-of-order segment or one that fills a gap.

use super::timer::LazyTimer;
use crate::time::SimTime;
use std::collections::BTreeSet;

/// A TCP connection's parameters (scenario units converted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpParams {
    /// Congestion window at the start, in segments.
    pub initial_cwnd: f64,
    /// The receiver's advertised window, in segments: the most in flight.
    pub rwnd: u32,
    /// RTO before any RTT sample (RFC 6298 §2.1: 1 s).
    pub initial_rto: SimTime,
    /// Floor of the RTO (RFC 6298 §2.4 says 1 s; Linux and later ns use 200 ms).
    pub min_rto: SimTime,
    /// Ceiling of the backed-off RTO (RFC 6298 §2.5: at least 60 s).
    pub max_rto: SimTime,
    /// Clock granularity G of RFC 6298 §2.
    pub granularity: SimTime,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681: 3).
    pub dupack_threshold: u32,
    /// Whether the receiver delays ACKs (RFC 5681 §4.2).
    pub delayed_ack: bool,
    /// The delayed-ACK timeout (RFC 5681: under 500 ms; ns uses 100 ms).
    pub delayed_ack_timeout: SimTime,
}

impl Default for TcpParams {
    fn default() -> Self {
        TcpParams {
            initial_cwnd: 2.0,
            rwnd: 64,
            initial_rto: SimTime::from_ms(1000.0),
            min_rto: SimTime::from_ms(200.0),
            max_rto: SimTime::from_ms(60_000.0),
            granularity: SimTime::from_ms(1.0),
            dupack_threshold: 3,
            delayed_ack: false,
            delayed_ack_timeout: SimTime::from_ms(100.0),
        }
    }
}

/// The RFC 6298 round-trip estimator with exponential back-off.
#[derive(Clone, Copy, Debug)]
pub struct RttEstimator {
    /// Smoothed RTT in ps; `None` before the first sample.
    srtt: Option<f64>,
    rttvar: f64,
    /// RTO before back-off.
    rto: SimTime,
    /// How many times the RTO has been doubled since the last sample.
    backoff: u32,
}

impl RttEstimator {
    pub fn new(p: &TcpParams) -> RttEstimator {
        RttEstimator { srtt: None, rttvar: 0.0, rto: p.initial_rto, backoff: 0 }
    }

    /// A new measurement `r` (RFC 6298 §2.2–2.3); clears the back-off (Karn).
    pub fn sample(&mut self, r: SimTime, p: &TcpParams) {
        let r = r.0 as f64;
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2.0;
            }
            Some(srtt) => {
                self.rttvar = 0.75 * self.rttvar + 0.25 * (srtt - r).abs();
                self.srtt = Some(0.875 * srtt + 0.125 * r);
            }
        }
        let srtt = self.srtt.expect("set above");
        let rto = srtt + (p.granularity.0 as f64).max(4.0 * self.rttvar);
        self.rto = SimTime(rto.round() as u64).max(p.min_rto).min(p.max_rto);
        self.backoff = 0;
    }

    /// The timer's length now: the RTO doubled once per back-off, capped.
    pub fn current(&self, p: &TcpParams) -> SimTime {
        let doubled = self.rto.0.saturating_mul(1u64 << self.backoff.min(20));
        SimTime(doubled).min(p.max_rto)
    }

    /// RFC 6298 §5.5: double the RTO after an expiry.
    pub fn back_off(&mut self) {
        self.backoff = (self.backoff + 1).min(20);
    }

    /// The smoothed RTT, if measured.
    pub fn srtt(&self) -> Option<SimTime> {
        self.srtt.map(|s| SimTime(s.round() as u64))
    }
}

/// Counters of a sender's loss recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpStats {
    pub segments_sent: u64,
    pub retransmits: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
}

/// A greedy NewReno sender.
#[derive(Clone, Debug)]
pub struct TcpSender {
    pub params: TcpParams,
    /// Oldest unacknowledged segment.
    pub snd_una: u32,
    /// Next segment to send (below `snd_max` after a timeout: go-back-N).
    pub snd_nxt: u32,
    /// One past the highest segment ever sent.
    pub snd_max: u32,
    /// Congestion window, segments.
    pub cwnd: f64,
    pub ssthresh: f64,
    dupacks: u32,
    in_recovery: bool,
    /// RFC 6582's "recover": `snd_max` when recovery (or a timeout) began.
    recover: u32,
    /// Whether a partial ACK has already reset the timer in this recovery.
    partial_seen: bool,
    pub rtt: RttEstimator,
    /// The segment being timed and when it was sent (one at a time, BSD style).
    timed: Option<(u32, SimTime)>,
    /// The retransmission timer.
    pub rto_timer: LazyTimer,
    /// False before the start and after the stop: no new data is sent.
    pub sending: bool,
    pub stats: TcpStats,
}

impl TcpSender {
    pub fn new(params: TcpParams) -> TcpSender {
        TcpSender {
            params,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            cwnd: params.initial_cwnd,
            // RFC 5681 §3.1: ssthresh starts arbitrarily high.
            ssthresh: f64::INFINITY,
            dupacks: 0,
            in_recovery: false,
            recover: 0,
            partial_seen: false,
            rtt: RttEstimator::new(&params),
            timed: None,
            rto_timer: LazyTimer::default(),
            sending: false,
            stats: TcpStats::default(),
        }
    }

    /// Segments sent and not yet acknowledged.
    pub fn flight(&self) -> u32 {
        self.snd_max - self.snd_una
    }

    /// The usable window: min(cwnd, rwnd) segments, at least one.
    fn window(&self) -> u32 {
        (self.cwnd.floor() as u32).clamp(1, self.params.rwnd.max(1))
    }

    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }

    fn restart_timer(&mut self, now: SimTime) {
        self.rto_timer.set(now + self.rtt.current(&self.params));
    }

    /// Records a retransmission of `seq` (Karn: stop timing).
    fn retransmit(&mut self, seq: u32, out: &mut Vec<u32>) {
        self.timed = None;
        self.stats.retransmits += 1;
        self.stats.segments_sent += 1;
        out.push(seq);
    }

    /// Sends what the window allows, pushing segment numbers to `out`.
    pub fn send_allowed(&mut self, now: SimTime, out: &mut Vec<u32>) {
        let limit = self.snd_una.saturating_add(self.window());
        while self.snd_nxt < limit {
            let seq = self.snd_nxt;
            if seq == self.snd_max {
                if !self.sending {
                    break;
                }
                if self.timed.is_none() {
                    self.timed = Some((seq, now));
                }
                self.snd_max += 1;
                self.stats.segments_sent += 1;
                out.push(seq);
            } else {
                self.retransmit(seq, out);
            }
            self.snd_nxt += 1;
        }
        // RFC 6298 §5.1: start the timer when data is outstanding.
        if self.snd_una < self.snd_max && !self.rto_timer.is_running() {
            self.restart_timer(now);
        }
    }

    /// The connection starts: send the initial window.
    pub fn start(&mut self, now: SimTime, out: &mut Vec<u32>) {
        self.sending = true;
        self.send_allowed(now, out);
    }

    /// An acknowledgement "next expected = `ack`" arrives.
    pub fn on_ack(&mut self, now: SimTime, ack: u32, out: &mut Vec<u32>) {
        if ack > self.snd_max {
            return; // cannot happen on a sane path; ignore rather than corrupt state
        }
        if ack > self.snd_una {
            let acked = ack - self.snd_una;
            if let Some((seq, sent)) = self.timed {
                if ack > seq {
                    self.rtt.sample(SimTime(now.0 - sent.0), &self.params);
                    self.timed = None;
                }
            }
            let mut reset_timer = true;
            if self.in_recovery {
                if ack >= self.recover {
                    // Full ACK (RFC 6582 §3.2 step 3, option 1): deflate.
                    self.in_recovery = false;
                    let flight_after = (self.snd_max - ack) as f64;
                    self.cwnd = self.ssthresh.min(flight_after.max(1.0) + 1.0);
                } else {
                    // Partial ACK: retransmit the next hole, deflate by the
                    // amount acknowledged, add back one segment.
                    self.snd_una = ack;
                    self.retransmit(ack, out);
                    self.cwnd = (self.cwnd - acked as f64 + 1.0).max(1.0);
                    reset_timer = !self.partial_seen;
                    self.partial_seen = true;
                }
            } else if self.cwnd < self.ssthresh {
                self.cwnd += 1.0; // slow start
            } else {
                self.cwnd += 1.0 / self.cwnd; // congestion avoidance
            }
            self.snd_una = ack;
            self.dupacks = 0;
            if self.snd_nxt < self.snd_una {
                self.snd_nxt = self.snd_una;
            }
            if self.snd_una == self.snd_max {
                self.rto_timer.stop(); // RFC 6298 §5.2
            } else if reset_timer {
                self.restart_timer(now); // §5.3
            }
            self.send_allowed(now, out);
        } else if ack == self.snd_una && self.snd_una < self.snd_max {
            self.dupacks += 1;
            if !self.in_recovery && self.dupacks == self.params.dupack_threshold {
                // RFC 6582 §3.2 step 1: only when the ACK covers more than
                // "recover", so a timeout's go-back-N does not trigger it again.
                if ack >= self.recover {
                    self.ssthresh = (self.flight() as f64 / 2.0).max(2.0);
                    self.recover = self.snd_max;
                    self.in_recovery = true;
                    self.partial_seen = false;
                    self.stats.fast_retransmits += 1;
                    self.retransmit(ack, out);
                    self.cwnd = self.ssthresh + self.params.dupack_threshold as f64;
                    self.restart_timer(now);
                }
            } else if self.in_recovery {
                self.cwnd += 1.0; // window inflation per extra dupACK
                self.send_allowed(now, out);
            }
        }
    }

    /// The retransmission timer expired (RFC 6298 §5.4–5.7, RFC 5681 eq. 4).
    pub fn on_timeout(&mut self, now: SimTime, out: &mut Vec<u32>) {
        if self.snd_una == self.snd_max {
            return;
        }
        self.stats.timeouts += 1;
        self.ssthresh = (self.flight() as f64 / 2.0).max(2.0);
        self.cwnd = 1.0;
        self.in_recovery = false;
        self.dupacks = 0;
        self.recover = self.snd_max;
        self.rtt.back_off();
        self.timed = None;
        self.snd_nxt = self.snd_una;
        self.restart_timer(now);
        self.send_allowed(now, out);
    }
}

/// What the receiver does with one arriving segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Receipt {
    /// Whether the segment was new (not a duplicate): it counts as goodput.
    pub new_data: bool,
    /// An ACK to send now: the next segment expected.
    pub ack_now: Option<u32>,
}

/// A cumulative-ACK receiver.
#[derive(Clone, Debug)]
pub struct TcpReceiver {
    /// Next in-order segment expected.
    pub rcv_nxt: u32,
    /// Segments received beyond a gap.
    out_of_order: BTreeSet<u32>,
    /// In-order segments not yet acknowledged (delayed ACKs).
    unacked: u32,
    pub delack_timer: LazyTimer,
    delayed: bool,
    timeout: SimTime,
}

impl TcpReceiver {
    pub fn new(p: &TcpParams) -> TcpReceiver {
        TcpReceiver {
            rcv_nxt: 0,
            out_of_order: BTreeSet::new(),
            unacked: 0,
            delack_timer: LazyTimer::default(),
            delayed: p.delayed_ack,
            timeout: p.delayed_ack_timeout,
        }
    }

    /// Segment `seq` arrives at `now`.
    pub fn on_segment(&mut self, now: SimTime, seq: u32) -> Receipt {
        if seq < self.rcv_nxt || self.out_of_order.contains(&seq) {
            return self.ack_immediately(false);
        }
        if seq > self.rcv_nxt {
            self.out_of_order.insert(seq);
            return self.ack_immediately(true); // out of order: duplicate ACK now
        }
        let filled_gap = !self.out_of_order.is_empty();
        self.rcv_nxt += 1;
        while self.out_of_order.remove(&self.rcv_nxt) {
            self.rcv_nxt += 1;
        }
        if !self.delayed || filled_gap {
            return self.ack_immediately(true);
        }
        self.unacked += 1;
        if self.unacked >= 2 {
            return self.ack_immediately(true);
        }
        if !self.delack_timer.is_running() {
            self.delack_timer.set(now + self.timeout);
        }
        Receipt { new_data: true, ack_now: None }
    }

    fn ack_immediately(&mut self, new_data: bool) -> Receipt {
        self.unacked = 0;
        self.delack_timer.stop();
        Receipt { new_data, ack_now: Some(self.rcv_nxt) }
    }

    /// The delayed-ACK timer expired: the ACK to send, if one is owed.
    pub fn on_delack_timeout(&mut self) -> Option<u32> {
        if self.unacked > 0 {
            self.unacked = 0;
            Some(self.rcv_nxt)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: f64) -> SimTime {
        SimTime::from_ms(x)
    }

    fn sender() -> TcpSender {
        TcpSender::new(TcpParams { initial_cwnd: 1.0, rwnd: 1000, ..TcpParams::default() })
    }

    #[test]
    fn slow_start_doubles_per_round_then_avoidance_adds_one() {
        let mut s = sender();
        let mut out = Vec::new();
        s.start(ms(0.0), &mut out);
        assert_eq!(out, vec![0]);
        // Round 1: one ACK → cwnd 2, two segments out.
        out.clear();
        s.on_ack(ms(10.0), 1, &mut out);
        assert_eq!(out, vec![1, 2]);
        out.clear();
        s.on_ack(ms(20.0), 2, &mut out);
        s.on_ack(ms(20.0), 3, &mut out);
        assert_eq!(s.cwnd, 4.0);
        assert_eq!(out, vec![3, 4, 5, 6]);
        // In congestion avoidance cwnd grows by about one per window of ACKs.
        s.ssthresh = 4.0;
        let before = s.cwnd;
        for a in 4..=7 {
            s.on_ack(ms(30.0), a, &mut out);
        }
        assert!((s.cwnd - before - 1.0).abs() < 0.15, "{}", s.cwnd);
    }

    #[test]
    fn three_dupacks_fast_retransmit_and_partial_acks_retransmit_the_next_hole() {
        let mut s = sender();
        s.cwnd = 10.0;
        s.ssthresh = 10.0;
        let mut out = Vec::new();
        s.start(ms(0.0), &mut out);
        assert_eq!(out.len(), 10); // 0..9 in flight; 2 and 5 are lost
        out.clear();
        s.on_ack(ms(10.0), 2, &mut out); // 0,1 arrive: cwnd → 10.1, one new segment
        out.clear();
        for _ in 0..3 {
            s.on_ack(ms(11.0), 2, &mut out); // 3, 4, 6 arrive
        }
        assert_eq!(out, vec![2], "fast retransmit of the first hole");
        assert!(s.in_recovery());
        assert_eq!(s.ssthresh, (s.snd_max - 2) as f64 / 2.0);
        assert_eq!(s.stats.fast_retransmits, 1);
        out.clear();
        // The retransmission fills hole 2: partial ACK up to the next hole 5.
        s.on_ack(ms(20.0), 5, &mut out);
        assert_eq!(out.first(), Some(&5), "partial ACK retransmits the next hole");
        assert!(s.in_recovery());
        out.clear();
        let recover = s.snd_max;
        s.on_ack(ms(30.0), recover, &mut out);
        assert!(!s.in_recovery(), "full ACK ends recovery");
        assert!(s.cwnd <= s.ssthresh);
    }

    #[test]
    fn timeout_collapses_the_window_backs_off_and_goes_back_n() {
        let mut s = sender();
        s.cwnd = 8.0;
        let mut out = Vec::new();
        s.start(ms(0.0), &mut out);
        out.clear();
        let first = s.rtt.current(&s.params);
        assert_eq!(first, ms(1000.0), "RFC 6298 initial RTO");
        s.on_timeout(ms(1000.0), &mut out);
        assert_eq!(out, vec![0]);
        assert_eq!(s.cwnd, 1.0);
        assert_eq!(s.ssthresh, 4.0);
        assert_eq!(s.rtt.current(&s.params), ms(2000.0), "backed off");
        // Karn: the ACK of a retransmitted segment gives no sample.
        out.clear();
        s.on_ack(ms(1100.0), 1, &mut out);
        assert!(s.rtt.srtt().is_none());
        assert_eq!(out, vec![1, 2], "go-back-N resends what was in flight");
        assert_eq!(s.stats.retransmits, 3);
    }

    #[test]
    fn rtt_estimator_follows_rfc_6298() {
        let p = TcpParams { min_rto: ms(1.0), ..TcpParams::default() };
        let mut e = RttEstimator::new(&p);
        e.sample(ms(100.0), &p);
        // SRTT = 100, RTTVAR = 50, RTO = 100 + 4·50 = 300 ms.
        assert_eq!(e.current(&p), ms(300.0));
        e.sample(ms(100.0), &p);
        // RTTVAR = 37.5, SRTT = 100 → RTO 250 ms.
        assert_eq!(e.current(&p), ms(250.0));
        let floor = TcpParams::default();
        let mut f = RttEstimator::new(&floor);
        f.sample(ms(2.0), &floor);
        assert_eq!(f.current(&floor), ms(200.0), "min RTO");
    }

    #[test]
    fn receiver_acks_cumulatively_and_dupacks_out_of_order() {
        let p = TcpParams::default();
        let mut r = TcpReceiver::new(&p);
        assert_eq!(r.on_segment(ms(0.0), 0).ack_now, Some(1));
        assert_eq!(r.on_segment(ms(0.0), 2).ack_now, Some(1));
        let dup = r.on_segment(ms(0.0), 2);
        assert_eq!(dup, Receipt { new_data: false, ack_now: Some(1) });
        assert_eq!(r.on_segment(ms(0.0), 1).ack_now, Some(3));
    }

    #[test]
    fn delayed_acks_cover_two_segments_or_time_out() {
        let p = TcpParams { delayed_ack: true, ..TcpParams::default() };
        let mut r = TcpReceiver::new(&p);
        assert_eq!(r.on_segment(ms(0.0), 0).ack_now, None);
        assert_eq!(r.delack_timer.deadline(), ms(100.0));
        assert_eq!(r.on_segment(ms(1.0), 1).ack_now, Some(2));
        assert!(!r.delack_timer.is_running());
        assert_eq!(r.on_segment(ms(2.0), 2).ack_now, None);
        assert_eq!(r.on_delack_timeout(), Some(3));
        // Out of order: immediate.
        assert_eq!(r.on_segment(ms(3.0), 5).ack_now, Some(3));
    }
}
