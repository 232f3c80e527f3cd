//! The sampling recorder either model runs its probe through: the column
//! names, the rows waiting to be taken, when each sample is due (at k ×
//! the sample interval, so a long run does not drift), the time of the last
//! row, the series hash over every value recorded, and the count of events
//! handled. A model writes a row's values between [`Recorder::begin_row`]
//! and [`Recorder::end_row`]; everything else about sampling lives here once.

use super::SeriesHash;
use crate::probe::SampleBuffer;
use crate::time::SimTime;

/// A run's sample rows and what goes with them.
#[derive(Clone, Debug)]
pub struct Recorder {
    columns: Vec<String>,
    samples: SampleBuffer,
    interval_ms: f64,
    /// The index of the next sample (the first is at one interval).
    next: u64,
    /// When the last row was recorded (zero before any).
    last: SimTime,
    /// Where the row being written starts in `samples`.
    row_start: usize,
    hash: SeriesHash,
    /// Events handled so far.
    pub events: u64,
}

impl Recorder {
    pub fn new(columns: Vec<String>, interval_ms: f64) -> Recorder {
        Recorder {
            samples: SampleBuffer::new(columns.len()),
            columns,
            interval_ms,
            next: 1,
            last: SimTime::ZERO,
            row_start: 0,
            hash: SeriesHash::new(),
            events: 0,
        }
    }

    /// When the next sample is due.
    pub fn due(&self) -> SimTime {
        SimTime::from_ms(self.next as f64 * self.interval_ms)
    }

    /// When the last row was recorded (zero before any).
    pub fn last(&self) -> SimTime {
        self.last
    }

    /// The sample interval, ms.
    pub fn interval_ms(&self) -> f64 {
        self.interval_ms
    }

    /// Starts the row for `now` (its time column written) and returns the
    /// rows, to push the row's other values onto.
    pub fn begin_row(&mut self, now: SimTime) -> &mut Vec<f64> {
        self.row_start = self.samples.rows.len();
        self.samples.rows.push(now.as_ms());
        &mut self.samples.rows
    }

    /// The rows, to go on writing the row begun.
    pub fn row(&mut self) -> &mut Vec<f64> {
        &mut self.samples.rows
    }

    /// Ends the row begun at `now`: folds it into the series hash and
    /// returns when the next sample is due.
    pub fn end_row(&mut self, now: SimTime) -> SimTime {
        let row = &self.samples.rows[self.row_start..];
        debug_assert_eq!(row.len(), self.columns.len());
        self.hash.add(row);
        self.last = now;
        self.next += 1;
        self.due()
    }

    /// Names of the sample columns, in row order.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// Removes and returns the sample rows recorded since the last call (flat, row-major).
    pub fn take(&mut self) -> Vec<f64> {
        self.samples.take()
    }

    /// The hash of every sample value recorded so far, as 16 hex digits.
    pub fn series_hash(&self) -> String {
        self.hash.hex()
    }
}
