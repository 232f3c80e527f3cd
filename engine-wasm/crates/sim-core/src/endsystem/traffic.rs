//! ABR traffic models: when a source has cells to send.

use crate::time::SimTime;

/// The traffic offered to an ABR source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Traffic {
    /// Always has cells between `start` and `stop` (SPEC §3 "persistent", "start/stop times").
    Persistent { start: SimTime, stop: Option<SimTime> },
}

impl Traffic {
    /// The instants at which the source turns on or off, in order.
    pub fn change_times(&self) -> Vec<SimTime> {
        match *self {
            Traffic::Persistent { start, stop } => std::iter::once(start).chain(stop).collect(),
        }
    }

    /// Whether the source has cells to send at `now`.
    pub fn has_data(&self, now: SimTime) -> bool {
        match *self {
            Traffic::Persistent { start, stop } => now >= start && stop.map_or(true, |s| now < s),
        }
    }
}
