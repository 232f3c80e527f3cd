//! Simulated time: an integer count of picoseconds, so that no clock drift can
//! creep in over long runs. Rates are converted to whole-picosecond
//! intervals once; the rounding error is below one picosecond per cell.

use std::fmt;

/// Bits in one ATM cell: 53 bytes.
pub const CELL_BITS: f64 = 424.0;
/// Picoseconds per second.
pub const PS_PER_S: f64 = 1e12;
/// Picoseconds per millisecond.
pub const PS_PER_MS: u64 = 1_000_000_000;
/// Picoseconds per microsecond.
pub const PS_PER_US: u64 = 1_000_000;
/// Propagation delay per kilometre of fibre: 5 µs.
pub const PROPAGATION_PS_PER_KM: f64 = 5.0 * PS_PER_US as f64;

/// A point in simulated time, in picoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const NEVER: SimTime = SimTime(u64::MAX);

    /// Milliseconds, rounded to the nearest picosecond. Negative input clamps to zero.
    pub fn from_ms(ms: f64) -> SimTime {
        SimTime((ms.max(0.0) * PS_PER_MS as f64).round() as u64)
    }

    /// Microseconds, rounded to the nearest picosecond.
    pub fn from_us(us: f64) -> SimTime {
        SimTime((us.max(0.0) * PS_PER_US as f64).round() as u64)
    }

    pub fn as_ms(self) -> f64 {
        self.0 as f64 / PS_PER_MS as f64
    }

    pub fn as_secs(self) -> f64 {
        self.0 as f64 / PS_PER_S
    }

    pub fn saturating_add(self, d: SimTime) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }

    pub fn saturating_sub(self, d: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(d.0))
    }
}

/// Saturating: a time past the last representable picosecond (about 213 days) is "never", not a
/// wrap to the past (a source at an ACR of 10⁻⁸ cells/s has an interval past it).
impl std::ops::Add for SimTime {
    type Output = SimTime;
    fn add(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_add(rhs.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6} ms", self.as_ms())
    }
}

/// Cells per second carried by a link of `mbps` Mbit/s: R·10^6/424 (the
/// papers' rounded 353.7 and 365 cells/ms are not used).
/// `count × dt` exactly, as a queue's time integral (cells or packets × ps)
/// adds it up. In wasm a 128-bit multiply is a library call (`__multi3`), and
/// so is a 64-bit `checked_mul` (its overflow test is one): with a queue
/// waiting, that was a call per cell offered or started. There the product
/// is taken in 64 bits when [`fits_u64`] says it can be, as it mostly can (a
/// queue of thousands for milliseconds); natively `checked_mul` is a multiply
/// and a flag test, and stays.
#[inline]
pub fn queue_area(count: u64, dt: u64) -> u128 {
    if cfg!(target_arch = "wasm32") {
        if fits_u64(count, dt) {
            return (count * dt) as u128;
        }
    } else if let Some(area) = count.checked_mul(dt) {
        return area as u128;
    }
    count as u128 * dt as u128
}

/// Whether `a × b` surely fits in 64 bits: their leading zeros add up to 64
/// or more (two `clz`, where the exact test is a 128-bit multiply in wasm).
#[inline]
pub fn fits_u64(a: u64, b: u64) -> bool {
    a.leading_zeros() + b.leading_zeros() >= 64
}

pub fn mbps_to_cells_per_s(mbps: f64) -> f64 {
    mbps * 1e6 / CELL_BITS
}

/// Mbit/s carried by `cells_per_s` cells per second.
pub fn cells_per_s_to_mbps(cells_per_s: f64) -> f64 {
    cells_per_s * CELL_BITS / 1e6
}

/// `x.round() as u64` for a non-negative `x` (halves away from zero), without
/// the library call `f64::round` is on x86-64's baseline and in wasm: it runs
/// once per cell a source sends. Exact: a double's fractional part is exact.
#[inline]
fn round_positive(x: f64) -> u64 {
    let whole = x as u64; // saturates at u64::MAX
    if x - whole as f64 >= 0.5 {
        whole.saturating_add(1)
    } else {
        whole
    }
}

/// The interval between cells sent at `cells_per_s`, in whole picoseconds (at least 1).
pub fn cell_interval(cells_per_s: f64) -> SimTime {
    debug_assert!(cells_per_s > 0.0);
    SimTime(round_positive(PS_PER_S / cells_per_s).max(1))
}

/// Propagation delay of `km` kilometres.
pub fn propagation_delay(km: f64) -> SimTime {
    SimTime((km * PROPAGATION_PS_PER_KM).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_area_is_the_exact_product() {
        let edges = [0, 1, 2, 3, 0xffff_ffff, 0x1_0000_0000, 0x1_0000_0001, u64::MAX / 3, u64::MAX];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(queue_area(a, b), a as u128 * b as u128, "{a} × {b}");
                if fits_u64(a, b) {
                    assert!(a.checked_mul(b).is_some(), "{a} × {b} said to fit");
                }
            }
        }
        assert!(fits_u64(0xffff_ffff, 0xffff_ffff) && fits_u64(1 << 40, 1 << 22));
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = (x >> (x % 64), x.rotate_left(29) >> (x % 61));
            assert_eq!(queue_area(a, b), a as u128 * b as u128, "{a} × {b}");
            if fits_u64(a, b) {
                assert!(a.checked_mul(b).is_some(), "{a} × {b} said to fit");
            }
        }
    }

    #[test]
    fn round_positive_is_round() {
        let mut x = 0.0f64;
        for _ in 0..200_000 {
            assert_eq!(round_positive(x), x.round() as u64, "{x}");
            x = x * 1.37 + 0.25;
            if x > 1e15 {
                x = x.fract() + 0.5;
            }
        }
        for x in [0.5, 1.5, 2.5, 0.49999999999999994, 4503599627370495.5, 2726336.5, 1e18] {
            assert_eq!(round_positive(x), x.round() as u64, "{x}");
        }
    }

    #[test]
    fn a_tiny_rate_gives_a_huge_interval_never_a_wrap_to_zero() {
        // An ACR of 5.3 × 10⁻⁸ cells/s: 1.9 × 10¹⁹ ps, past u64::MAX. It used to wrap to 1 ps,
        // and the source sent a cell every picosecond for ever.
        let i = cell_interval(5.336604057520487e-8);
        assert_eq!(i, SimTime(u64::MAX));
        assert_eq!(SimTime::from_ms(23.0) + i, SimTime(u64::MAX));
        assert_eq!(round_positive(1e30), u64::MAX);
    }

    #[test]
    fn oc3_cell_rate_follows_the_exact_formula() {
        let cps = mbps_to_cells_per_s(155.52);
        assert!((cps - 366_792.45).abs() < 0.01);
        assert_eq!(cell_interval(cps), SimTime(2_726_337));
    }

    #[test]
    fn propagation_is_five_microseconds_per_km() {
        assert_eq!(propagation_delay(1000.0), SimTime::from_ms(5.0));
        assert_eq!(propagation_delay(1.0), SimTime::from_us(5.0));
    }

    #[test]
    fn conversions_round_trip() {
        assert_eq!(SimTime::from_ms(0.5).as_ms(), 0.5);
        assert!((cells_per_s_to_mbps(mbps_to_cells_per_s(70.0)) - 70.0).abs() < 1e-9);
    }
}
