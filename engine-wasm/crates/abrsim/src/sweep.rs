//! `abrsim sweep`: run one scenario over a grid of parameter values on every
//! core and print one summary row per grid point (the question of Ohsaki et al.'s Figures 2–3, answered by simulation).
//!
//! ```text
//! abrsim sweep SCENARIO.json --param PATH=V1,V2,... [--param PATH2=...] [--until MS] [--window A:B] [--jobs N]
//! ```
//!
//! `PATH` is the `--set` grammar (`vcs.vc1.rif`, `defaults.switch_port.algorithm.target_utilization`),
//! plus `*` for every element of an array (`vcs.*.rif` sets RIF on every VC). Values are JSON or
//! fractions (`1/16`). Each grid point is an independent run through [`run_report`], so a row is
//! exactly what `abrsim run --set ...` reports, condensed to four figures over the window (the
//! whole run without `--window`):
//!
//! - `max_queue`: the largest queue at any port in the network (a switch's or a router's), in cells
//!   (packets in the packet model);
//! - `utilization`: the bottleneck's utilisation — the highest mean utilisation of any such port;
//! - `fairness`: the mean of the `fairness` sample column (Jain's index of the active VCs' mean ACR
//!   over their max-min shares; in the packet model Pletka et al.'s weighted index);
//! - `cells_lost` (packet model: `packets_lost`): what all ports dropped.
//!
//! Both models sweep alike: a scenario with `"model": "ip"` runs at packet level.
//!
//! The figures come from `sim_core::sweep::WindowSummary` fed the run's sample rows, the code the
//! browser's sweep runs too (through sim-wasm's `SweepWindow`).
//! Rows are printed as JSON lines in grid order (the first `--param` varies slowest), each as soon
//! as it and every row before it are done; the output does not depend on `--jobs`.

use crate::cli;
use serde_json::{json, Map, Value};
use sim_core::runner::{apply_options, estimate, run_report, RunOptions};
use sim_core::scenario::set::{expand_path, parse_value};
use sim_core::scenario::{format_errors, ScenarioError};
use sim_core::sweep::{Grid, SweepSummary, WindowSummary};
use sim_core::Model;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::Instant;

pub use sim_core::sweep::Axis;

/// What to sweep and how.
#[derive(Clone, Debug)]
pub struct SweepArgs {
    pub scenario: PathBuf,
    pub axes: Vec<Axis>,
    pub until_ms: Option<f64>,
    pub window: Option<(f64, f64)>,
    pub jobs: usize,
}

/// What `abrsim sweep` takes, as typed.
#[derive(clap::Args, Debug)]
pub struct SweepCli {
    /// The scenario file (JSON, either model).
    scenario: PathBuf,
    /// A swept parameter: a dotted path (`*` for every element of an array) and its values
    /// (repeatable; the first varies slowest).
    #[arg(long = "param", value_name = "PATH=V1,V2,...", required = true, value_parser = axis)]
    params: Vec<Axis>,
    /// Run each point until this simulated time instead of the scenario's `run.until_ms`.
    #[arg(long, value_name = "MS", value_parser = cli::millis)]
    until: Option<f64>,
    /// Summarise over [FROM, TO] in ms instead of the whole run.
    #[arg(long, value_name = "FROM:TO", value_parser = cli::window)]
    window: Option<(f64, f64)>,
    /// Points run at once (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,
}

/// `--param PATH=V1,V2,...`.
fn axis(v: &str) -> Result<Axis, String> {
    let (path, list) = v.split_once('=').ok_or_else(|| format!("'{v}' is not PATH=V1,V2,..."))?;
    let values: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
    if path.trim().is_empty() || values.iter().any(String::is_empty) {
        return Err(format!("'{v}' is not PATH=V1,V2,... (an empty path or value)"));
    }
    Ok(Axis { path: path.trim().to_string(), values })
}

impl TryFrom<SweepCli> for SweepArgs {
    type Error = String;

    fn try_from(cli: SweepCli) -> Result<SweepArgs, String> {
        let jobs = match cli.jobs {
            Some(n) => usize::try_from(n).map_err(|_| format!("--jobs: {n} is too many"))?,
            None => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        };
        Ok(SweepArgs {
            scenario: cli.scenario,
            axes: cli.params,
            until_ms: cli.until,
            window: cli.window,
            jobs,
        })
    }
}

/// One grid point, ready to run: the values as swept and the concrete `--set` overrides.
struct Point {
    params: Map<String, Value>,
    opts: RunOptions,
}

/// What every point shares: the axes' concrete paths (`*` expanded once) and the run options.
struct Plan<'a> {
    args: &'a SweepArgs,
    grid: Grid,
    expanded: BTreeMap<String, Vec<String>>,
}

impl Plan<'_> {
    /// The point with these value indices, one per axis.
    fn point_at(&self, digits: &[usize]) -> Point {
        let mut params = Map::new();
        let mut opts = RunOptions { until_ms: self.args.until_ms, ..RunOptions::default() };
        if let Some(w) = self.args.window {
            opts.windows.push(w);
        }
        for (axis, &d) in self.grid.axes().iter().zip(digits) {
            let raw = &axis.values[d];
            for concrete in &self.expanded[&axis.path] {
                opts.sets.push((concrete.clone(), raw.clone()));
            }
            params.insert(axis.path.clone(), parse_value(raw));
        }
        Point { params, opts }
    }

    /// Grid point `index` (made when asked for, never stored).
    fn point(&self, index: usize) -> Point {
        self.point_at(&self.grid.digits(index).expect("an index inside the grid"))
    }
}

fn describe(params: &Map<String, Value>) -> String {
    params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
}

fn row(point: &Point, report: &Value, s: &SweepSummary) -> Value {
    let lost = if report["model"] == "ip" { "packets_lost" } else { "cells_lost" };
    let mut row = json!({
        "params": point.params,
        "max_queue": s.max_queue,
        "utilization": s.utilization,
        "fairness": s.fairness,
    });
    row[lost] = json!(s.cells_lost);
    row["events"] = report["stats"]["events"].clone();
    row
}

/// Builds a grid point's model (either kind), so that a bad value fails before it runs; the
/// summary its rows will feed and the point's estimated memory in MB (the run's cost model).
fn build_point(text: &str, point: &Point, scenario: &str) -> Result<(WindowSummary, f64), String> {
    let built = (|| {
        let mb = estimate(text, &point.opts)?.total_memory_mb();
        let value = apply_options(text, &point.opts)?;
        let model = Model::from_json(&value.to_string())?;
        Ok::<_, Vec<ScenarioError>>((model, mb))
    })()
    .map_err(|errors| {
        format!("{scenario} with {}:\n{}", describe(&point.params), format_errors(&errors))
    })?;
    let (built, mb) = built;
    let layout = built.layout();
    let window = point
        .opts
        .windows
        .first()
        .copied()
        .unwrap_or_else(|| (0.0, layout["until_ms"].as_f64().unwrap_or(0.0)));
    Ok((WindowSummary::from_layout(&layout, window)?, mb))
}

/// Runs one grid point to its row.
fn run_point(text: &str, plan: &Plan<'_>, index: usize, clock: &Instant) -> Result<Value, String> {
    let point = plan.point(index);
    let (mut summary, _) = build_point(text, &point, &plan.args.scenario.display().to_string())?;
    run_report(text, &point.opts, &|| clock.elapsed().as_secs_f64() * 1000.0, &mut |_, rows| {
        summary.add(rows)
    })
    .map(|report| row(&point, &report, &summary.summary()))
    .map_err(|errors| format!("{}:\n{}", describe(&point.params), format_errors(&errors)))
}

/// The points run at once: as asked, but no more than the memory limit holds of the largest
/// point's estimate (one at least: a point over the limit alone is refused by its own check).
fn jobs_within(jobs: usize, point_mb: f64, max_mb: f64) -> usize {
    if point_mb <= 0.0 {
        return jobs;
    }
    let fit = (max_mb / point_mb).floor().max(1.0);
    if (jobs as f64) > fit {
        eprintln!(
            "abrsim sweep: running {fit} points at once, not {jobs}: each may hold about {point_mb:.0} MB and together they stay under {max_mb} MB (limits.max_memory_mb)"
        );
        fit as usize
    } else {
        jobs
    }
}

/// How far ahead of the last printed row a worker may start a point: rows done out of order wait
/// in memory until those before them are printed, so this bounds what a sweep holds, whatever
/// its number of points.
fn lookahead(jobs: usize) -> usize {
    4 * jobs
}

/// Runs the sweep, writing one JSON line per grid point to `out`, in grid order. The grid is
/// enumerated lazily (`sim_core::sweep::Grid`): its size is checked from the axes' lengths before
/// anything is made, each point is built when a worker takes it, and each row is written as soon
/// as it and every row before it are done, so memory does not grow with the number of points.
pub fn run(args: &SweepArgs, out: &mut dyn Write) -> Result<(), String> {
    let limits = sim_core::scenario::Limits::default();
    let grid = Grid::new(args.axes.clone(), limits.max_sweep_points)
        .map_err(|e| format!("--param: {e}"))?;
    let text = crate::bounds::read_text(&args.scenario, limits.max_input_bytes)?;
    let scenario = sim_core::scenario::strict_json::parse(&text, limits.max_input_bytes)
        .map_err(|e| format!("{}:\n{}", args.scenario.display(), format_errors(&e)))?;
    let mut expanded = BTreeMap::new();
    // Which axis sets each concrete parameter: two axes over one (`vcs.*.rif` and
    // `vcs.vc1.rif`) would leave one of them unswept.
    let mut owner: BTreeMap<String, &str> = BTreeMap::new();
    for axis in grid.axes() {
        let paths = expand_path(&scenario, &axis.path)
            .map_err(|e| format!("--param {}: {}: {}", axis.path, e.path, e.message))?;
        for p in &paths {
            if let Some(first) = owner.insert(p.clone(), &axis.path) {
                return Err(format!(
                    "--param {first} and --param {} both set {p}: sweep each parameter once",
                    axis.path
                ));
            }
        }
        expanded.insert(axis.path.clone(), paths);
    }
    let plan = Plan { args, grid, expanded };
    let name = args.scenario.display().to_string();

    // Every value of every axis is validated (with the other axes at their first value) before
    // any point runs, so a bad value fails at once with the path that is wrong rather than after
    // the good points have taken their time: as many builds as values, not as points. The
    // largest point's estimated memory × the points run at once must fit the memory limit.
    let mut point_mb: f64 = 0.0;
    if !plan.grid.is_empty() {
        let axes = plan.grid.axes();
        for (k, axis) in axes.iter().enumerate() {
            for d in 0..axis.values.len() {
                let mut digits = vec![0; axes.len()];
                digits[k] = d;
                point_mb = point_mb.max(build_point(&text, &plan.point_at(&digits), &name)?.1);
            }
        }
    }

    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let total = plan.grid.len();
    let jobs = jobs_within(args.jobs.clamp(1, total.max(1)), point_mb, limits.max_memory_mb);
    // The number of rows printed so far, which workers wait on to stay within the look-ahead.
    let printed = (Mutex::new(0usize), Condvar::new());
    let (tx, rx) = mpsc::channel::<(usize, Result<Value, String>)>();
    let clock = Instant::now();
    let mut write_error = None;
    let mut closed = false;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, failed, plan, text, printed, clock) =
                (&next, &failed, &plan, &text, &printed, &clock);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total || failed.load(Ordering::Relaxed) {
                    break;
                }
                {
                    let (lock, wake) = printed;
                    let mut done = lock.lock().unwrap_or_else(|e| e.into_inner());
                    while i >= *done + lookahead(jobs) && !failed.load(Ordering::Relaxed) {
                        done = wake.wait(done).unwrap_or_else(|e| e.into_inner());
                    }
                }
                if failed.load(Ordering::Relaxed) {
                    break;
                }
                let result = run_point(text, plan, i, clock);
                if result.is_err() {
                    failed.store(true, Ordering::Relaxed);
                    // Under the lock, so that no waiting worker misses the news.
                    let _held = printed.0.lock().unwrap_or_else(|e| e.into_inner());
                    printed.1.notify_all();
                }
                if tx.send((i, result)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Print in grid order as soon as each row and all before it are in.
        let mut done: BTreeMap<usize, Value> = BTreeMap::new();
        let mut count = 0;
        for (i, result) in rx {
            match result {
                Ok(value) => {
                    done.insert(i, value);
                }
                Err(message) => {
                    if !closed {
                        write_error.get_or_insert(message);
                    }
                    continue;
                }
            }
            while let Some(value) = done.remove(&count) {
                if write_error.is_none() && !closed {
                    match writeln!(out, "{value}").and_then(|_| out.flush()) {
                        // `abrsim sweep … | head`: the reader has what it wanted; stop quietly.
                        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                            closed = true;
                            failed.store(true, Ordering::Relaxed);
                        }
                        Err(e) => {
                            write_error = Some(format!("cannot write the results: {e}"));
                            failed.store(true, Ordering::Relaxed);
                        }
                        Ok(()) => {}
                    }
                }
                count += 1;
            }
            let (lock, wake) = &printed;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = count;
            wake.notify_all();
        }
    });
    match write_error {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

/// `abrsim sweep ...`: run, print.
pub fn main(args: &SweepArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run(args, &mut out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    /// The arguments after `sweep`, through clap as `abrsim sweep` parses them.
    fn parse_args(args: &[String]) -> Result<SweepArgs, String> {
        #[derive(clap::Parser)]
        struct Sweep {
            #[command(flatten)]
            cli: SweepCli,
        }
        let argv = std::iter::once("sweep".to_string()).chain(args.iter().cloned());
        let cli = <Sweep as clap::Parser>::try_parse_from(argv).map_err(|e| e.to_string())?.cli;
        SweepArgs::try_from(cli)
    }

    #[test]
    fn parses_axes_and_options() {
        let a = parse_args(&strings(&[
            "s.json",
            "--param",
            "vcs.*.rif=1/64,1/8,1",
            "--param",
            "vcs.*.rdf=1/16,1",
            "--until",
            "50",
            "--window",
            "10:50",
            "--jobs",
            "3",
        ]))
        .unwrap();
        assert_eq!(a.axes.len(), 2);
        assert_eq!(
            a.axes[0],
            Axis { path: "vcs.*.rif".into(), values: strings(&["1/64", "1/8", "1"]) }
        );
        assert_eq!(a.until_ms, Some(50.0));
        assert_eq!(a.window, Some((10.0, 50.0)));
        assert_eq!(a.jobs, 3);
        assert!(parse_args(&strings(&["s.json", "--param", "x=1"])).unwrap().jobs >= 1);
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        assert!(parse_args(&strings(&["s.json"])).unwrap_err().contains("--param"));
        assert!(parse_args(&strings(&["s.json", "--param", "vcs.vc1.rif"]))
            .unwrap_err()
            .contains("PATH=V1,V2"));
        assert!(parse_args(&strings(&["s.json", "--param", "a=1,,2"]))
            .unwrap_err()
            .contains("empty"));
        assert!(parse_args(&strings(&["s.json", "--param", "a=1", "--jobs", "0"]))
            .unwrap_err()
            .contains("--jobs"));
        assert!(parse_args(&strings(&["--param", "a=1"])).unwrap_err().contains("<SCENARIO>"));
        assert!(parse_args(&strings(&["s.json", "--param", "a=1", "--bogus"]))
            .unwrap_err()
            .contains("--bogus"));
    }

    #[test]
    fn the_grid_varies_the_first_axis_slowest() {
        let axes = vec![
            Axis { path: "a".into(), values: strings(&["1", "2"]) },
            Axis { path: "b".into(), values: strings(&["x", "y", "z"]) },
        ];
        let g = Grid::new(axes, 10_000).unwrap();
        assert_eq!(g.len(), 6);
        assert_eq!(g.point(0).unwrap(), vec![("a", "1"), ("b", "x")]);
        assert_eq!(g.point(2).unwrap()[1].1, "z");
        assert_eq!(g.point(3).unwrap()[0].1, "2");
    }

    #[test]
    fn stars_expand_to_every_element_by_id_or_index() {
        let s = json!({"vcs": [{"id": "vc1"}, {"id": "vc2"}], "background": [{"rate_mbps": 1}], "defaults": {"vc": {}}});
        assert_eq!(expand_path(&s, "vcs.*.rif").unwrap(), strings(&["vcs.vc1.rif", "vcs.vc2.rif"]));
        assert_eq!(
            expand_path(&s, "background.*.rate_mbps").unwrap(),
            strings(&["background.0.rate_mbps"])
        );
        assert_eq!(expand_path(&s, "defaults.vc.nrm").unwrap(), strings(&["defaults.vc.nrm"]));
        assert!(expand_path(&s, "defaults.*.x").unwrap_err().message.contains("needs an array"));
    }
}
