//! The four figures a sweep reports for one grid point, computed from the sample rows of a run:
//! the one implementation behind `abrsim sweep` and the page's sweep (through `sim-wasm`).
//!
//! - a row counts towards the window [from, to] when the interval it covers, (t − Δ, t], lies in it;
//! - `max_queue`: the largest `queue_max` of any port in the network (a switch's or a router's);
//! - `utilization`: the highest mean `util` of any such port — the bottleneck's utilisation;
//! - `fairness`: the mean of the `fairness` column (Jain's index of the active VCs' mean ACR over
//!   their max-min shares; in the packet model the weighted index of Pletka et al., to 4 places);
//! - `cells_lost`: the growth of every port's `lost` counter over the window, summed (cells, or packets
//!   in the packet model).
//!
//! The figures equal those of the runner's report window over the same rows (runner.rs), which
//! `abrsim`'s sweep tests check point by point.
//!
//! The grid itself ([`Grid`]) is never materialised: it holds only its axes, counts its points as
//! the checked product of the axes' lengths (so 5 axes of 100 values, 10¹⁰ points, are refused
//! before anything is built) and maps an index to a point by its mixed-radix digits, the first
//! axis the most significant (varying slowest).

use crate::scenario::echo::clip;
use serde_json::Value;

/// One swept parameter: a path (the `--set` grammar, `*` for every element of an array) and its
/// values as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub path: String,
    pub values: Vec<String>,
}

/// Every combination of the axes' values, enumerated lazily: point `i` takes, on axis `k`, the
/// value whose index is the `k`-th digit of `i` in the mixed radix of the axes' lengths (the
/// first axis most significant). Only the axes are held, whatever the number of points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    axes: Vec<Axis>,
    len: usize,
}

impl Grid {
    /// A grid over `axes`, refused when its points (the product of the axes' lengths, multiplied
    /// with overflow checks, nothing built) exceed `max_points` (`limits.max_sweep_points`). The
    /// refusal names every axis path with its length, and the limit.
    pub fn new(axes: Vec<Axis>, max_points: usize) -> Result<Grid, String> {
        // The same path twice: the later axis would overwrite the earlier at every point, and
        // the earlier would vanish from the rows.
        for (j, later) in axes.iter().enumerate() {
            if let Some(i) = axes[..j].iter().position(|a| a.path == later.path) {
                return Err(format!(
                    "axes {} and {} both sweep {}: give each path once, with all its values",
                    i + 1,
                    j + 1,
                    clip(&later.path)
                ));
            }
        }
        let product = axes.iter().try_fold(1usize, |n, a| n.checked_mul(a.values.len()));
        match product {
            Some(len) if len <= max_points => Ok(Grid { axes, len }),
            n => {
                let sizes: Vec<String> = axes
                    .iter()
                    .map(|a| format!("{} ({})", clip(&a.path), a.values.len()))
                    .collect();
                Err(format!(
                    "the grid has {} points ({}), more than the limit of {max_points} (limits.max_sweep_points)",
                    n.map_or_else(|| format!("more than {}", usize::MAX), |n| n.to_string()),
                    sizes.join(" × "),
                ))
            }
        }
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the grid has no point (an axis without values).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The axes, first (slowest) first.
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// The value indices of point `index` on each axis (its mixed-radix digits), or None past
    /// the end.
    pub fn digits(&self, index: usize) -> Option<Vec<usize>> {
        if index >= self.len {
            return None;
        }
        let mut rest = index;
        let mut digits = vec![0; self.axes.len()];
        for (k, axis) in self.axes.iter().enumerate().rev() {
            let n = axis.values.len();
            digits[k] = rest % n;
            rest /= n;
        }
        Some(digits)
    }

    /// Point `index` as (path, value) pairs in axis order, or None past the end.
    pub fn point(&self, index: usize) -> Option<Vec<(&str, &str)>> {
        let digits = self.digits(index)?;
        Some(
            self.axes
                .iter()
                .zip(digits)
                .map(|(a, d)| (a.path.as_str(), a.values[d].as_str()))
                .collect(),
        )
    }

    /// The points in order, one at a time.
    pub fn iter(&self) -> GridIter<'_> {
        GridIter { grid: self, next: 0 }
    }
}

/// The points of a [`Grid`] in order, each made when asked for.
#[derive(Clone, Debug)]
pub struct GridIter<'a> {
    grid: &'a Grid,
    next: usize,
}

impl<'a> Iterator for GridIter<'a> {
    type Item = Vec<(&'a str, &'a str)>;

    fn next(&mut self) -> Option<Self::Item> {
        let point = self.grid.point(self.next)?;
        self.next += 1;
        Some(point)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.grid.len - self.next;
        (left, Some(left))
    }

    fn nth(&mut self, n: usize) -> Option<Self::Item> {
        self.next = self.next.saturating_add(n).min(self.grid.len);
        self.next()
    }
}

impl ExactSizeIterator for GridIter<'_> {}

/// A sweep point's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SweepSummary {
    pub max_queue: f64,
    pub utilization: f64,
    /// None when the model samples no fairness column.
    pub fairness: Option<f64>,
    /// Cells (packets in the packet model) lost at every port.
    pub cells_lost: f64,
}

/// The columns of one port a summary reads.
#[derive(Clone, Debug)]
struct PortColumns {
    queue_max: usize,
    util: usize,
    lost: usize,
    /// Whether it transmits from a switch or router (not a host's own port).
    network: bool,
}

/// Sums over the sample rows of one window, fed as the run goes.
#[derive(Clone, Debug)]
pub struct WindowSummary {
    width: usize,
    ports: Vec<PortColumns>,
    fairness_column: Option<usize>,
    fairness_digits: i32,
    from_ms: f64,
    to_ms: f64,
    sample_ms: f64,
    prev: Vec<f64>,
    rows: u64,
    queue_max: Vec<f64>,
    util_sum: Vec<f64>,
    lost: Vec<f64>,
    fairness_sum: f64,
}

impl WindowSummary {
    /// A summary over [from, to] ms of the run a layout (`Model::layout`) describes.
    pub fn from_layout(layout: &Value, window: (f64, f64)) -> Result<WindowSummary, String> {
        let columns: Vec<&str> = layout["columns"]
            .as_array()
            .ok_or("the layout has no columns")?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let at = |name: String| {
            columns
                .iter()
                .position(|c| *c == name)
                .ok_or_else(|| format!("the engine has no sample column \"{name}\""))
        };
        let mut ports = Vec::new();
        for p in layout["ports"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let id = p["id"].as_str().ok_or("a port without an id")?;
            ports.push(PortColumns {
                queue_max: at(format!("port.{id}.queue_max"))?,
                util: at(format!("port.{id}.util"))?,
                lost: at(format!("port.{id}.lost"))?,
                network: p["from_kind"] != "host",
            });
        }
        let n = ports.len();
        Ok(WindowSummary {
            width: columns.len(),
            ports,
            fairness_column: columns.iter().position(|c| *c == "fairness"),
            fairness_digits: if layout["model"] == "ip" { 4 } else { 5 },
            from_ms: window.0,
            to_ms: window.1,
            sample_ms: layout["sample_interval_ms"].as_f64().unwrap_or(1.0),
            prev: vec![0.0; columns.len()],
            rows: 0,
            queue_max: vec![0.0; n],
            util_sum: vec![0.0; n],
            lost: vec![0.0; n],
            fairness_sum: 0.0,
        })
    }

    /// Folds in flat row-major sample rows, in time order.
    pub fn add(&mut self, rows: &[f64]) {
        const EPS: f64 = 1e-9;
        if self.width == 0 {
            return;
        }
        for row in rows.chunks_exact(self.width) {
            let end = row[0];
            let start = end - self.sample_ms;
            if start >= self.from_ms - EPS && end <= self.to_ms + EPS {
                self.rows += 1;
                for (i, p) in self.ports.iter().enumerate() {
                    self.queue_max[i] = self.queue_max[i].max(row[p.queue_max]);
                    self.util_sum[i] += row[p.util];
                    self.lost[i] += row[p.lost] - self.prev[p.lost];
                }
                if let Some(c) = self.fairness_column {
                    self.fairness_sum += row[c];
                }
            }
            self.prev.copy_from_slice(row);
        }
    }

    /// The figures so far.
    pub fn summary(&self) -> SweepSummary {
        let n = self.rows.max(1) as f64;
        let mut s =
            SweepSummary { max_queue: 0.0, utilization: 0.0, fairness: None, cells_lost: 0.0 };
        for (i, p) in self.ports.iter().enumerate() {
            s.cells_lost += self.lost[i].trunc();
            if p.network {
                s.max_queue = s.max_queue.max(self.queue_max[i].trunc());
                s.utilization = s.utilization.max(round(self.util_sum[i] / n, 5));
            }
        }
        s.fairness =
            self.fairness_column.map(|_| round(self.fairness_sum / n, self.fairness_digits));
        s
    }
}

impl SweepSummary {
    /// `{"max_queue", "utilization", "fairness", "cells_lost"}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "max_queue": self.max_queue,
            "utilization": self.utilization,
            "fairness": self.fairness,
            "cells_lost": self.cells_lost,
        })
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_in_the_window_give_the_four_figures() {
        let layout = json!({
            "model": "cell", "sample_interval_ms": 1.0,
            "columns": ["t_ms", "port.p.queue_max", "port.p.util", "port.p.lost",
                        "port.h.queue_max", "port.h.util", "port.h.lost", "fairness"],
            "ports": [{"id": "p", "from_kind": "switch"}, {"id": "h", "from_kind": "host"}],
        });
        let mut s = WindowSummary::from_layout(&layout, (1.0, 3.0)).unwrap();
        s.add(&[
            1.0, 5.0, 0.5, 1.0, 90.0, 1.0, 0.0, 0.9, // (0, 1]: outside
            2.0, 7.0, 0.8, 3.0, 99.0, 1.0, 1.0, 1.0, // (1, 2]
            3.0, 2.0, 0.6, 4.0, 0.0, 1.0, 1.0, 0.5, // (2, 3]
        ]);
        let got = s.summary();
        assert_eq!(got.max_queue, 7.0, "the host's queue does not count");
        assert_eq!(got.utilization, 0.7);
        assert_eq!(got.fairness, Some(0.75));
        assert_eq!(got.cells_lost, 4.0, "growth within the window at every port");
    }

    fn axis(path: &str, n: usize) -> Axis {
        Axis { path: path.into(), values: (0..n).map(|v| format!("{path}{v}")).collect() }
    }

    /// The eager enumeration the sweep used before the grid was lazy: every combination built
    /// up front, the first axis varying slowest.
    fn eager(axes: &[Axis]) -> Vec<Vec<(String, String)>> {
        let mut points: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for axis in axes {
            points = points
                .into_iter()
                .flat_map(|point| {
                    axis.values.iter().map(move |v| {
                        let mut next = point.clone();
                        next.push((axis.path.clone(), v.clone()));
                        next
                    })
                })
                .collect();
        }
        points
    }

    #[test]
    fn the_lazy_grid_enumerates_exactly_the_eager_order() {
        for shape in [vec![], vec![1], vec![4], vec![2, 3], vec![3, 1, 2], vec![2, 2, 2, 3]] {
            let axes: Vec<Axis> =
                shape.iter().enumerate().map(|(k, &n)| axis(&format!("p{k}."), n)).collect();
            let grid = Grid::new(axes.clone(), 10_000).unwrap();
            let want = eager(&axes);
            assert_eq!(grid.len(), want.len(), "{shape:?}");
            let got: Vec<Vec<(String, String)>> = grid
                .iter()
                .map(|p| p.into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect())
                .collect();
            assert_eq!(got, want, "{shape:?}");
            for (i, w) in want.iter().enumerate() {
                let by_index: Vec<(String, String)> = grid
                    .point(i)
                    .unwrap()
                    .into_iter()
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .collect();
                assert_eq!(&by_index, w, "{shape:?} point {i}");
            }
            assert_eq!(grid.point(want.len()), None);
        }
    }

    #[test]
    fn a_path_swept_twice_is_refused_naming_both_axes() {
        let axes = vec![axis("vcs.vc1.rif", 2), axis("run.seed", 2), axis("vcs.vc1.rif", 3)];
        let e = Grid::new(axes, 10_000).unwrap_err();
        assert!(e.contains("axes 1 and 3 both sweep vcs.vc1.rif"), "{e}");
    }

    #[test]
    fn ten_billion_points_are_refused_before_anything_is_built() {
        let axes: Vec<Axis> = (0..5).map(|k| axis(&format!("vcs.*.p{k}"), 100)).collect();
        let e = Grid::new(axes.clone(), 10_000).unwrap_err();
        assert!(e.contains("10000000000 points"), "{e}");
        assert!(e.contains("limits.max_sweep_points") && e.contains("10000"), "{e}");
        assert!(e.contains("vcs.*.p0 (100)") && e.contains("vcs.*.p4 (100)"), "{e}");
        // Past 2^64 the count overflows and is refused all the same.
        let huge: Vec<Axis> = (0..12).map(|k| axis(&format!("p{k}"), 100)).collect();
        assert!(Grid::new(huge, usize::MAX).unwrap_err().contains("points (p0 (100)"));
    }

    #[test]
    fn a_large_grid_holds_only_its_axes() {
        // 10^10 points, allowed by a raised limit: the grid is its axes and a count, and walking
        // it makes one point at a time (the iterator knows its length without building any).
        let axes: Vec<Axis> = (0..5).map(|k| axis(&format!("p{k}"), 100)).collect();
        let grid = Grid::new(axes.clone(), usize::MAX).unwrap();
        assert_eq!(grid.len(), 10_000_000_000);
        assert_eq!(grid.axes(), axes.as_slice());
        assert_eq!(size_of::<Grid>(), size_of::<(Vec<Axis>, usize)>());
        let mut it = grid.iter();
        assert_eq!(it.size_hint(), (10_000_000_000, Some(10_000_000_000)));
        assert_eq!(it.len(), 10_000_000_000);
        let last = it.nth(9_999_999_999).unwrap();
        assert_eq!(
            last.iter().map(|p| p.1).collect::<Vec<_>>(),
            ["p099", "p199", "p299", "p399", "p499"]
        );
        assert_eq!(it.size_hint(), (0, Some(0)));
        assert_eq!(it.next(), None);
        assert_eq!(grid.digits(1_234_567_890), Some(vec![12, 34, 56, 78, 90]));
    }
}
