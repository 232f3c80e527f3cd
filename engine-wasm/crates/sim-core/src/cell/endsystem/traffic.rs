//! ABR traffic models: when a source has cells to send, and how fast
//! the application can supply them.

use crate::time::SimTime;

/// The traffic offered to an ABR source. Every model is bounded by a start
/// time and an optional stop time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Traffic {
    /// Always has cells ("persistent").
    Persistent { start: SimTime, stop: Option<SimTime> },
    /// Source-bottlenecked: the application cannot supply more than
    /// `rate_cps` until `until` (Jain et al. "ACR retention"; the source keeps
    /// telling the network its ACR as CCR while sending less).
    Bottlenecked { start: SimTime, stop: Option<SimTime>, rate_cps: f64, until: SimTime },
    /// Bursty on/off: persistent for `on`, silent for `off`, repeating from `start`.
    OnOff { start: SimTime, stop: Option<SimTime>, on: SimTime, off: SimTime },
    /// Sends only the cells of the messages it is given (request–response):
    /// the source's backlog decides.
    Messages { start: SimTime, stop: Option<SimTime> },
}

impl Traffic {
    fn window(&self) -> (SimTime, Option<SimTime>) {
        match *self {
            Traffic::Persistent { start, stop }
            | Traffic::Bottlenecked { start, stop, .. }
            | Traffic::OnOff { start, stop, .. }
            | Traffic::Messages { start, stop } => (start, stop),
        }
    }

    /// When the model first becomes active.
    pub fn start(&self) -> SimTime {
        self.window().0
    }

    /// Whether the application is offering cells at `now` (for `Messages`,
    /// whether it may; the backlog then decides).
    pub fn active(&self, now: SimTime) -> bool {
        let (start, stop) = self.window();
        if now < start || stop.is_some_and(|s| now >= s) {
            return false;
        }
        match *self {
            Traffic::OnOff { on, off, .. } => {
                let period = (on.0 + off.0).max(1);
                (now.0 - start.0) % period < on.0
            }
            _ => true,
        }
    }

    /// The next instant after `now` at which [`Traffic::active`] may change.
    pub fn next_change(&self, now: SimTime) -> Option<SimTime> {
        let (start, stop) = self.window();
        let candidate = if now < start {
            Some(start)
        } else {
            match *self {
                Traffic::OnOff { on, off, .. } => {
                    let period = (on.0 + off.0).max(1);
                    let phase = (now.0 - start.0) % period;
                    let cycle_start = now.0 - phase;
                    Some(SimTime(if phase < on.0 {
                        cycle_start + on.0
                    } else {
                        cycle_start + period
                    }))
                }
                Traffic::Bottlenecked { until, .. } if now < until => Some(until),
                _ => None,
            }
        };
        match (candidate, stop) {
            (Some(c), Some(s)) if s <= c => (s > now).then_some(s),
            (Some(c), _) => Some(c),
            (None, Some(s)) if s > now => Some(s),
            _ => None,
        }
    }

    /// The most the application can supply at `now`, in cells/s, if limited.
    pub fn rate_cap(&self, now: SimTime) -> Option<f64> {
        match *self {
            Traffic::Bottlenecked { rate_cps, until, .. } if now < until => Some(rate_cps),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: f64) -> SimTime {
        SimTime::from_ms(x)
    }

    #[test]
    fn persistent_runs_between_start_and_stop() {
        let t = Traffic::Persistent { start: ms(100.0), stop: Some(ms(200.0)) };
        assert!(!t.active(ms(50.0)) && t.active(ms(100.0)) && !t.active(ms(200.0)));
        assert_eq!(t.next_change(ms(0.0)), Some(ms(100.0)));
        assert_eq!(t.next_change(ms(100.0)), Some(ms(200.0)));
        assert_eq!(t.next_change(ms(200.0)), None);
    }

    #[test]
    fn on_off_alternates_and_announces_each_edge() {
        let t =
            Traffic::OnOff { start: ms(2.0), stop: Some(ms(50.0)), on: ms(20.0), off: ms(20.0) };
        assert!(
            t.active(ms(2.0)) && t.active(ms(21.9)) && !t.active(ms(22.0)) && t.active(ms(42.0))
        );
        let mut edges = vec![];
        let mut now = ms(0.0);
        while let Some(next) = t.next_change(now) {
            edges.push(next.as_ms());
            now = next;
        }
        assert_eq!(edges, vec![2.0, 22.0, 42.0, 50.0]);
    }

    #[test]
    fn bottleneck_lifts_at_its_deadline() {
        let t = Traffic::Bottlenecked {
            start: ms(0.0),
            stop: None,
            rate_cps: 1000.0,
            until: ms(100.0),
        };
        assert_eq!(t.rate_cap(ms(10.0)), Some(1000.0));
        assert_eq!(t.rate_cap(ms(100.0)), None);
        assert_eq!(t.next_change(ms(10.0)), Some(ms(100.0)));
    }
}
