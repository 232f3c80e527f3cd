//! What a run records: a row of samples every sample interval, in columns named
//! for the UI and the runner, plus the max-min oracle.

pub mod maxmin;

pub use maxmin::{count_oracle_steps, jain_index, max_min_fair, oracle_steps, Flow};

/// Columns recorded per VC, in order, after the time column. `active` is 1
/// while the source has data to send.
pub const VC_COLUMNS: [&str; 6] = ["acr", "acr_mean", "maxmin", "received", "sent", "active"];
/// Columns recorded per port, in order, after the VC columns (either model).
pub const PORT_COLUMNS: [&str; 5] = ["queue", "queue_mean", "queue_max", "util", "lost"];

/// A port's statistics over one sample interval, in either model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalStats {
    pub queue_mean: f64,
    pub queue_max: u32,
    pub utilization: f64,
}

impl IntervalStats {
    /// The port's [`PORT_COLUMNS`]: the queue now, this interval's mean and
    /// peak queue and utilisation, and the units (cells, packets) lost so far.
    pub fn row(&self, queue_len: f64, lost_total: f64) -> [f64; 5] {
        [queue_len, self.queue_mean, self.queue_max as f64, self.utilization, lost_total]
    }
}

/// Columns recorded once per row, after the port columns: Jain's fairness
/// index of the active VCs' mean ACR over their max-min shares.
pub const RUN_COLUMNS: [&str; 1] = ["fairness"];

/// The names of a run's sample columns: `t_ms`, then `vc.<id>.<col>` for each
/// VC, then `port.<id>.<col>` for each port, then the run columns.
pub fn column_names<'a>(
    vcs: impl Iterator<Item = &'a str>,
    ports: impl Iterator<Item = &'a str>,
) -> Vec<String> {
    let mut names = vec!["t_ms".to_string()];
    for vc in vcs {
        names.extend(VC_COLUMNS.iter().map(|c| format!("vc.{vc}.{c}")));
    }
    for port in ports {
        names.extend(PORT_COLUMNS.iter().map(|c| format!("port.{port}.{c}")));
    }
    names.extend(RUN_COLUMNS.iter().map(|c| c.to_string()));
    names
}

/// Sample rows, flat and row-major, waiting to be taken.
#[derive(Clone, Debug, Default)]
pub struct SampleBuffer {
    pub width: usize,
    pub rows: Vec<f64>,
}

impl SampleBuffer {
    pub fn new(width: usize) -> SampleBuffer {
        SampleBuffer { width, rows: Vec::new() }
    }

    /// Removes and returns every row recorded since the last call.
    pub fn take(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.rows)
    }

    pub fn row_count(&self) -> usize {
        self.rows.len() / self.width.max(1)
    }
}
