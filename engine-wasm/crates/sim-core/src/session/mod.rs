//! What a run of either model shares, whichever model runs: how a parameter change took effect
//! ([`Applied`]) and the `set_param` pipeline that decides it (edit.rs), the hash of the sample
//! series ([`SeriesHash`]), the sampling recorder (recorder.rs), what a run is asked to do
//! ([`RunOptions`], run.rs), the headless report (report.rs) and the description of a built
//! scenario the page reads (layout.rs). Both models use these; neither model imports the other.

pub mod edit;
pub mod layout;
mod recorder;
pub mod report;
mod run;

pub use recorder::Recorder;
pub use run::{check_windows, drain_deadlines, RowSource, RunOptions};

/// How a parameter change took effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// In the running simulation, from now on.
    Live,
    /// The model cannot change it mid-run: rebuild from the edited scenario.
    Restart,
}

/// FNV-1a over the bits of every sample value recorded so far: equal hashes mean bit-identical
/// series (native against wasm, run against run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesHash(u64);

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

impl SeriesHash {
    pub const fn new() -> SeriesHash {
        SeriesHash(FNV_OFFSET)
    }

    /// Folds in sample values, in order (each as its 8 little-endian bytes).
    pub fn add(&mut self, values: &[f64]) {
        for x in values {
            for byte in x.to_bits().to_le_bytes() {
                self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
            }
        }
    }

    /// The hash as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

impl Default for SeriesHash {
    fn default() -> SeriesHash {
        SeriesHash::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a_over_the_values_bytes() {
        assert_eq!(SeriesHash::new().hex(), "cbf29ce484222325", "the FNV-1a offset basis");
        let mut h = SeriesHash::new();
        h.add(&[0.0]);
        // FNV-1a of eight zero bytes.
        let mut expected = FNV_OFFSET;
        for _ in 0..8 {
            expected = expected.wrapping_mul(FNV_PRIME);
        }
        assert_eq!(h, SeriesHash(expected));
        let mut a = SeriesHash::new();
        a.add(&[1.0, 2.0]);
        let mut b = SeriesHash::new();
        b.add(&[2.0, 1.0]);
        assert_ne!(a, b, "order matters");
    }
}
