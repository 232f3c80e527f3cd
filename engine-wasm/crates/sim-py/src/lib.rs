//! `abrlab._native`: the engine as a Python extension module, the layer under the `abrlab` package
//! (python/abrlab). It only translates: every run goes through `sim_core::runner::run_report`, the
//! function behind `abrsim run`, so a report here is the one `abrsim run` prints for the same
//! arguments; a sweep point's figures come from `sim_core::sweep::WindowSummary`, the code behind
//! `abrsim sweep` and the page's sweep.
//!
//! Every simulation runs with the GIL released (`Python::detach`), so Python threads run
//! simulations at once. Bad input is raised as `abrlab.ScenarioError`, built by the package from
//! the message and the (path, message) pairs of every problem.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sample_out::SampleFile;
use serde_json::{json, Value};
use sim_core::runner::{apply_options, check_windows, run_report, RunOptions};
use sim_core::scenario::set::{expand_path, parse_value};
use sim_core::scenario::{format_errors, Limits, ScenarioError};
use sim_core::sweep::{Axis, Grid, WindowSummary};
use sim_core::Model;
use std::time::Instant;

/// The options of a run as the package passes them: until, seed, variant, `--set` pairs, windows
/// and `--limit` pairs.
type Options = (
    Option<f64>,
    Option<u64>,
    Option<String>,
    Vec<(String, String)>,
    Vec<(f64, f64)>,
    Vec<(String, f64)>,
);

/// A checked sweep: its number of points and, per axis, its concrete paths and its values as JSON.
type Plan = (usize, Vec<(Vec<String>, String)>);

fn run_options(opts: Options) -> PyResult<RunOptions> {
    let (until_ms, seed, variant, sets, windows, limit_pairs) = opts;
    let mut limits = Limits::default();
    for (key, value) in &limit_pairs {
        limits.set(key, *value).map_err(|e| PyValueError::new_err(format!("limits: {e}")))?;
    }
    Ok(RunOptions { until_ms, seed, sets, windows, variant, limits })
}

/// `abrlab.ScenarioError(message, problems)`: `message` is what `abrsim` prints after
/// `abrsim: `, `problems` every (path, message).
fn scenario_error(py: Python<'_>, heading: &str, errors: &[ScenarioError]) -> PyErr {
    let message = format!("{heading}:\n{}", format_errors(errors));
    let problems: Vec<(String, String)> =
        errors.iter().map(|e| (e.path.clone(), e.message.clone())).collect();
    match py.import("abrlab._errors").and_then(|m| m.getattr("ScenarioError")) {
        Ok(class) => match class.call1((message, problems)) {
            Ok(err) => PyErr::from_value(err),
            Err(e) => e,
        },
        Err(e) => e,
    }
}

/// Runs a scenario to its end: the report as JSON text, the sample columns and every sample row
/// as little-endian f64 values, row-major — or, with `samples_to`, no rows: they are streamed to
/// that Parquet file as the run makes them (as `abrsim run --samples`), and
/// `limits.max_memory_mb` leaves them out.
#[pyfunction]
#[pyo3(signature = (text, name, opts, samples_to=None))]
fn run(
    py: Python<'_>,
    text: String,
    name: String,
    opts: Options,
    samples_to: Option<std::path::PathBuf>,
) -> PyResult<(String, Vec<String>, Py<PyBytes>)> {
    let mut opts = run_options(opts)?;
    opts.limits.samples_on_disk = samples_to.is_some();
    let mut file = samples_to.as_deref().map(SampleFile::new);
    let outcome = py.detach(|| {
        let mut columns = Vec::new();
        let mut rows = Vec::new();
        let clock = Instant::now();
        let report =
            run_report(&text, &opts, &|| clock.elapsed().as_secs_f64() * 1000.0, &mut |src, r| {
                if columns.is_empty() {
                    columns = src.columns().to_vec();
                }
                match file.as_mut() {
                    Some(file) => file.add(src.columns(), r),
                    None => rows.extend_from_slice(r),
                }
            });
        report.map(|report| (report.to_string(), columns, rows))
    });
    let (report, columns, rows) = outcome.map_err(|errors| scenario_error(py, &name, &errors))?;
    if let Some(file) = file {
        file.finish().map_err(pyo3::exceptions::PyOSError::new_err)?;
    }
    let bytes = PyBytes::new_with(py, rows.len() * 8, |buf| {
        for (chunk, x) in buf.chunks_exact_mut(8).zip(&rows) {
            chunk.copy_from_slice(&x.to_le_bytes());
        }
        Ok(())
    })?;
    Ok((report, columns, bytes.unbind()))
}

/// Builds a run's model, so that bad options fail before it runs; the layout (`Model::layout`).
fn build(text: &str, opts: &RunOptions) -> Result<Value, Vec<ScenarioError>> {
    let value = apply_options(text, opts)?;
    let model = Model::from_json(&value.to_string())?;
    let layout = model.layout();
    check_windows(opts, layout["until_ms"].as_f64().unwrap_or(0.0))?;
    Ok(layout)
}

/// One sweep point: runs it and returns, as JSON, `{"model", "events", "figures": [whole run,
/// then each window]}`, each figure the four of `sim_core::sweep::SweepSummary`.
#[pyfunction]
#[pyo3(signature = (text, name, opts))]
fn sweep_point(py: Python<'_>, text: String, name: String, opts: Options) -> PyResult<String> {
    let opts = run_options(opts)?;
    let outcome = py.detach(|| {
        let layout = build(&text, &opts)?;
        let until = layout["until_ms"].as_f64().unwrap_or(0.0);
        let spans = std::iter::once((0.0, until)).chain(opts.windows.iter().copied());
        let mut sums = spans
            .map(|w| WindowSummary::from_layout(&layout, w))
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| vec![ScenarioError::new("", e)])?;
        let clock = Instant::now();
        let report = run_report(
            &text,
            &opts,
            &|| clock.elapsed().as_secs_f64() * 1000.0,
            &mut |_, rows| sums.iter_mut().for_each(|s| s.add(rows)),
        )?;
        let figures: Vec<Value> = sums.iter().map(|s| s.summary().to_json()).collect();
        Ok::<_, Vec<ScenarioError>>(json!({
            "model": report.get("model").cloned().unwrap_or(json!("cell")),
            "events": report["stats"]["events"],
            "figures": figures,
        }))
    });
    outcome.map(|v| v.to_string()).map_err(|errors| scenario_error(py, &name, &errors))
}

/// Checks a sweep before anything runs: counts the grid (the axes and, last, the seeds) against
/// `limits.max_sweep_points` as `abrsim sweep` does, expands each axis's `*` path to its concrete
/// paths, and builds every value of every axis (with the other axes at their first value),
/// collecting every problem. Returns the number of points and, per axis, its concrete paths and
/// its values as JSON (`1/16` as a number).
#[pyfunction]
#[pyo3(signature = (text, name, axes, seeds, opts))]
fn sweep_plan(
    py: Python<'_>,
    text: String,
    name: String,
    axes: Vec<(String, Vec<String>)>,
    seeds: Vec<u64>,
    opts: Options,
) -> PyResult<Plan> {
    let base = run_options(opts)?;
    let mut all: Vec<Axis> = axes
        .iter()
        .map(|(path, values)| Axis { path: path.clone(), values: values.clone() })
        .collect();
    all.push(Axis { path: "seed".into(), values: seeds.iter().map(u64::to_string).collect() });
    let grid = Grid::new(all, base.limits.max_sweep_points)
        .map_err(|e| scenario_error(py, &name, &[ScenarioError::new("grid", e)]))?;
    let scenario: Value = serde_json::from_str(&text).map_err(|e| {
        scenario_error(py, &name, &[ScenarioError::new("", format!("not valid JSON: {e}"))])
    })?;
    let mut expanded = Vec::new();
    let mut errors = Vec::new();
    for (path, values) in &axes {
        match expand_path(&scenario, path) {
            Ok(paths) => {
                let parsed: Vec<Value> = values.iter().map(|v| parse_value(v)).collect();
                expanded.push((paths, Value::from(parsed).to_string()));
            }
            Err(e) => errors.push(ScenarioError::new(format!("grid.{path}"), e.to_string())),
        }
    }
    if !errors.is_empty() {
        return Err(scenario_error(py, &name, &errors));
    }
    let outcome = py.detach(|| {
        let mut errors = Vec::new();
        if grid.is_empty() {
            return errors;
        }
        for (k, (_, values)) in axes.iter().enumerate() {
            for d in 0..values.len() {
                let mut opts = base.clone();
                opts.seed = seeds.first().copied();
                for (j, (paths, _)) in expanded.iter().enumerate() {
                    let raw = &axes[j].1[if j == k { d } else { 0 }];
                    opts.sets.extend(paths.iter().map(|p| (p.clone(), raw.clone())));
                }
                if let Err(found) = build(&text, &opts) {
                    for e in found {
                        if !errors.contains(&e) {
                            errors.push(e);
                        }
                    }
                }
            }
        }
        errors
    });
    if !outcome.is_empty() {
        return Err(scenario_error(py, &name, &outcome));
    }
    Ok((grid.len(), expanded))
}

/// The limits in force with these `(name, value)` raises, by name (`limits=` of the package).
#[pyfunction]
fn limits(pairs: Vec<(String, f64)>) -> PyResult<Vec<(String, f64)>> {
    let opts = run_options((None, None, None, Vec::new(), Vec::new(), pairs))?;
    let l = opts.limits;
    Ok(vec![
        ("max_vcs".into(), l.max_vcs as f64),
        ("max_nodes".into(), l.max_nodes as f64),
        ("max_links".into(), l.max_links as f64),
        ("max_background".into(), l.max_background as f64),
        ("max_until_ms".into(), l.max_until_ms),
        ("max_cell_slots".into(), l.max_cell_slots),
        ("max_events".into(), l.max_events),
        ("max_memory_mb".into(), l.max_memory_mb),
        ("max_variants".into(), l.max_variants as f64),
        ("max_path_nodes".into(), l.max_path_nodes as f64),
        ("max_sweep_points".into(), l.max_sweep_points as f64),
        ("max_input_bytes".into(), l.max_input_bytes as f64),
    ])
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_point, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(limits, m)?)?;
    Ok(())
}
