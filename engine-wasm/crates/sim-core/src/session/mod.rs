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

/// A hash of the bits of every sample value recorded so far: equal hashes mean bit-identical
/// series (native against wasm, run against run). Each value's 64 bits are one word of FxHash's
/// fold as the `rustc-hash` crate had it before 2.0 (rotate left 5, xor the word, multiply by
/// 0x517cc1b727220a95), started from the FNV-1a offset basis. Byte-wise FNV-1a, used before,
/// made eight dependent multiplies per value: with 200 sources (about 3,500 values a row) that
/// was 5 % of a run. Not the crate itself: its hasher works on `usize` (32 bits in
/// wasm, where these hashes must match native ones) and changed its algorithm in 2.0, where these
/// hashes are compared across builds and pinned by the golden test; the fold is one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesHash(u64);

const SEED: u64 = 0xcbf2_9ce4_8422_2325;
const FX_K: u64 = 0x517c_c1b7_2722_0a95;

impl SeriesHash {
    pub const fn new() -> SeriesHash {
        SeriesHash(SEED)
    }

    /// Folds in sample values, in order (each as its 64 bits).
    pub fn add(&mut self, values: &[f64]) {
        for x in values {
            self.0 = (self.0.rotate_left(5) ^ x.to_bits()).wrapping_mul(FX_K);
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
    fn the_hash_folds_each_values_bits() {
        assert_eq!(SeriesHash::new().hex(), "cbf29ce484222325", "the seed");
        let mut h = SeriesHash::new();
        h.add(&[0.0, 1.0]);
        let once = SEED.rotate_left(5).wrapping_mul(FX_K);
        let twice = (once.rotate_left(5) ^ 1.0f64.to_bits()).wrapping_mul(FX_K);
        assert_eq!(h, SeriesHash(twice));
        let mut a = SeriesHash::new();
        a.add(&[1.0, 2.0]);
        let mut b = SeriesHash::new();
        b.add(&[2.0, 1.0]);
        assert_ne!(a, b, "order matters");
        // Two sign flips do not cancel (as they would in a bare xor–multiply over words).
        let mut c = SeriesHash::new();
        c.add(&[-1.0, -2.0]);
        assert_ne!(a, c);
        let mut z = SeriesHash::new();
        z.add(&[-0.0]);
        let mut p = SeriesHash::new();
        p.add(&[0.0]);
        assert_ne!(z, p, "bits, not values: -0 is not 0");
    }
}
