//! A restartable timer for an event queue without cancellation (TCP's
//! retransmission and delayed-ACK timers are restarted on nearly every
//! packet). At most one live event per timer: moving the deadline later
//! schedules nothing — the pending event finds the deadline moved and is
//! rescheduled then; moving it earlier schedules a new event and makes the old
//! one stale through a generation number.

use crate::time::SimTime;

/// One timer's state.
#[derive(Clone, Copy, Debug)]
pub struct LazyTimer {
    /// When the timer expires; `NEVER` when stopped.
    deadline: SimTime,
    /// When the live event is due; `NEVER` when none is pending.
    scheduled: SimTime,
    /// Generation of the live event; older events are stale.
    generation: u32,
}

impl Default for LazyTimer {
    fn default() -> Self {
        LazyTimer { deadline: SimTime::NEVER, scheduled: SimTime::NEVER, generation: 0 }
    }
}

impl LazyTimer {
    /// Sets the expiry to `at` (restarting a running timer).
    pub fn set(&mut self, at: SimTime) {
        self.deadline = at;
    }

    /// Stops the timer.
    pub fn stop(&mut self) {
        self.deadline = SimTime::NEVER;
    }

    pub fn is_running(&self) -> bool {
        self.deadline != SimTime::NEVER
    }

    pub fn deadline(&self) -> SimTime {
        self.deadline
    }

    /// The event the caller must schedule (time, generation), if the live
    /// event would come too late or there is none.
    pub fn event_needed(&mut self) -> Option<(SimTime, u32)> {
        if self.deadline < self.scheduled {
            self.generation = self.generation.wrapping_add(1);
            self.scheduled = self.deadline;
            Some((self.deadline, self.generation))
        } else {
            None
        }
    }

    /// An event of generation `generation` fires at `now`: true when the timer
    /// expires now (it is then stopped). Afterwards call [`LazyTimer::event_needed`].
    pub fn fire(&mut self, generation: u32, now: SimTime) -> bool {
        if generation != self.generation || self.scheduled == SimTime::NEVER {
            return false;
        }
        self.scheduled = SimTime::NEVER;
        if self.deadline <= now {
            self.deadline = SimTime::NEVER;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_deadlines_reuse_the_pending_event() {
        let mut t = LazyTimer::default();
        t.set(SimTime(100));
        let (at, g) = t.event_needed().unwrap();
        assert_eq!(at, SimTime(100));
        t.set(SimTime(300));
        assert!(t.event_needed().is_none());
        assert!(!t.fire(g, SimTime(100)), "deadline moved: not yet");
        let (at2, g2) = t.event_needed().unwrap();
        assert_eq!(at2, SimTime(300));
        assert!(t.fire(g2, SimTime(300)));
        assert!(!t.is_running());
    }

    #[test]
    fn earlier_deadlines_make_the_old_event_stale() {
        let mut t = LazyTimer::default();
        t.set(SimTime(500));
        let (_, old) = t.event_needed().unwrap();
        t.set(SimTime(200));
        let (at, new) = t.event_needed().unwrap();
        assert_eq!(at, SimTime(200));
        assert!(t.fire(new, SimTime(200)));
        assert!(!t.fire(old, SimTime(500)), "stale");
    }

    #[test]
    fn a_stopped_timer_does_not_expire() {
        let mut t = LazyTimer::default();
        t.set(SimTime(10));
        let (_, g) = t.event_needed().unwrap();
        t.stop();
        assert!(!t.fire(g, SimTime(10)));
        assert!(t.event_needed().is_none());
    }
}
