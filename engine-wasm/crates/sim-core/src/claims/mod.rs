//! Paper claims as data (SPEC §11): a scenario's `claims` list, read and
//! validated with the rest of the file, and evaluated over a run's sample rows.
//!
//! The same code judges a claim everywhere: `abrsim check` and the cargo test
//! feed a [`Tracker`] the rows of a headless run; the page feeds one (through
//! the wasm export) the rows of the run that is playing. A figure is the one
//! the runner's report gives over the same window (`vcs.<id>.acr_mbps` is the
//! mean of the sampled mean ACR, `ports.<id>.queue_max` the largest queue, …;
//! see [`tracker::resolve`]).

pub mod expr;
pub mod live;
pub mod tracker;

pub use live::LiveCheck;
pub use tracker::Tracker;

use crate::scenario::parse::element_path;
use crate::scenario::reader::{describe, Errors, Obj};
use crate::scenario::ScenarioError;
use serde_json::{json, Value};
use std::collections::HashMap;

/// Most claims a file may carry.
pub const MAX_CLAIMS: usize = 200;
/// Most windows one claim may declare.
pub const MAX_WINDOWS: usize = 8;

/// How the run's value is set against the paper's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Within the tolerance of the paper's value.
    Approx,
    /// At most the paper's value (plus the tolerance).
    AtMost,
    /// At least the paper's value (minus the tolerance).
    AtLeast,
}

impl Compare {
    pub fn as_str(self) -> &'static str {
        match self {
            Compare::Approx => "approx",
            Compare::AtMost => "at_most",
            Compare::AtLeast => "at_least",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    Abs(f64),
    /// A fraction of the paper's value.
    Rel(f64),
}

/// One claim of a paper, as a scenario file states it.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    pub id: String,
    /// What the paper says, quoted, with its section or figure.
    pub quote: String,
    pub metric: String,
    pub expr: expr::Expr,
    /// `[from, to]` in ms.
    pub windows: Vec<(f64, f64)>,
    pub variant: Option<String>,
    pub paper: f64,
    pub unit: String,
    pub compare: Compare,
    pub tolerance: Tolerance,
    pub expected: bool,
    pub reason: Option<String>,
}

impl Claim {
    /// The allowed range of the run's value.
    pub fn bounds(&self) -> (f64, f64) {
        let tol = match self.tolerance {
            Tolerance::Abs(t) => t,
            Tolerance::Rel(r) => r * self.paper.abs(),
        };
        match self.compare {
            Compare::Approx => (self.paper - tol, self.paper + tol),
            Compare::AtMost => (f64::NEG_INFINITY, self.paper + tol),
            Compare::AtLeast => (self.paper - tol, f64::INFINITY),
        }
    }

    /// The paper's value as the table shows it: "70 ± 3.5 Mbit/s", "≤ 3000 cells".
    pub fn paper_text(&self) -> String {
        let tol = match self.tolerance {
            Tolerance::Abs(t) => (t != 0.0).then(|| fmt_num(t)),
            Tolerance::Rel(r) => (r != 0.0).then(|| format!("{}%", fmt_num(r * 100.0))),
        };
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        let v = fmt_num(self.paper);
        match (self.compare, tol) {
            (Compare::Approx, Some(t)) => format!("{v} ± {t}{unit}"),
            (Compare::Approx, None) => format!("{v}{unit}"),
            (Compare::AtMost, Some(t)) => format!("≤ {v}{unit} (+{t})"),
            (Compare::AtMost, None) => format!("≤ {v}{unit}"),
            (Compare::AtLeast, Some(t)) => format!("≥ {v}{unit} (−{t})"),
            (Compare::AtLeast, None) => format!("≥ {v}{unit}"),
        }
    }

    /// The time after which every window the metric reads has passed.
    pub fn due_ms(&self, until_ms: f64) -> f64 {
        let mut refs = Vec::new();
        self.expr.refs(&mut refs);
        refs.iter()
            .map(|(w, _)| match w {
                expr::WindowRef::Index(i) => self.windows[*i].1,
                expr::WindowRef::Totals => until_ms,
            })
            .fold(0.0, f64::max)
    }
}

/// A number for people: at most 4 significant decimals, no trailing zeros.
pub fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let digits = if x.abs() >= 1000.0 {
        0
    } else if x.abs() >= 10.0 {
        2
    } else {
        4
    };
    let s = format!("{x:.digits$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { &s };
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// How one claim stands in one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Its windows have not passed yet.
    Pending,
    /// Expected to hold and holds.
    Held,
    /// Expected to hold and does not.
    Failing,
    /// Expected not to hold (with a reason) and does not.
    ExpectedFail,
    /// Expected not to hold, yet holds in this run: `expected` may be flipped.
    NowHolds,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Held => "held",
            Status::Failing => "failing",
            Status::ExpectedFail => "expected_fail",
            Status::NowHolds => "now_holds",
        }
    }
}

/// A claim judged against a run.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub value: Option<f64>,
    pub status: Status,
}

/// Judges a claim given its value (None: no value, e.g. an empty window).
pub fn judge(claim: &Claim, value: Option<f64>, due: bool) -> Outcome {
    if !due {
        return Outcome { value, status: Status::Pending };
    }
    let (lo, hi) = claim.bounds();
    const EPS: f64 = 1e-9;
    let holds = value.is_some_and(|v| v >= lo - EPS && v <= hi + EPS);
    let status = match (claim.expected, holds) {
        (true, true) => Status::Held,
        (true, false) => Status::Failing,
        (false, false) => Status::ExpectedFail,
        (false, true) => Status::NowHolds,
    };
    Outcome { value, status }
}

/// A claim and its outcome as JSON, for `abrsim check --json` and the page.
pub fn outcome_json(scenario: &str, claim: &Claim, outcome: &Outcome, due_ms: f64) -> Value {
    let (lo, hi) = claim.bounds();
    json!({
        "scenario": scenario,
        "id": claim.id,
        "quote": claim.quote,
        "metric": claim.metric,
        "windows": claim.windows.iter().map(|&(a, b)| json!([a, b])).collect::<Vec<_>>(),
        "variant": claim.variant,
        "paper": claim.paper,
        "paper_text": claim.paper_text(),
        "unit": claim.unit,
        "compare": claim.compare.as_str(),
        "low": lo.is_finite().then_some(lo),
        "high": hi.is_finite().then_some(hi),
        "value": outcome.value,
        "value_text": outcome.value.map_or_else(|| "—".to_string(), fmt_num),
        "holds": match outcome.status {
            Status::Pending => None,
            Status::Held | Status::NowHolds => Some(true),
            Status::Failing | Status::ExpectedFail => Some(false),
        },
        "expected": claim.expected,
        "reason": claim.reason,
        "status": outcome.status.as_str(),
        "due_ms": due_ms,
    })
}

/// Reads a scenario root's `claims` against its variants (both models' readers).
/// A window past the end of the run is not an error here: a run shortened with
/// `--until`, a sweep or the page's run length simply leaves that claim
/// unjudged. `abrsim check` ([`file_claims`]) holds each library file's windows
/// to its own run length.
pub(crate) fn read_root_claims(
    root: &mut Obj<'_>,
    variants: &[crate::scenario::Variant],
    errors: &mut Errors,
) {
    let ids: Vec<String> = variants.iter().map(|v| v.id.clone()).collect();
    read_claims(root.get("claims"), &ids, None, errors);
}

/// Reads `claims` (absent: none). `variants` are the file's variant ids;
/// `until_ms` its run length, when known (windows must end by then).
pub fn read_claims(
    value: Option<&Value>,
    variants: &[String],
    until_ms: Option<f64>,
    errors: &mut Errors,
) -> Vec<Claim> {
    let items = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            errors.push(ScenarioError::new(
                "claims",
                format!("expected an array, found {}", describe(other)),
            ));
            return Vec::new();
        }
    };
    if items.len() > MAX_CLAIMS {
        errors.push(ScenarioError::new(
            "claims",
            format!("{} entries exceed the limit of {MAX_CLAIMS}", items.len()),
        ));
        return Vec::new();
    }
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = element_path("claims", i, item);
        let Some(mut obj) = Obj::new(item, &at, errors) else { continue };
        let before = errors.len();
        let id = crate::scenario::parse::read_id(&mut obj, &mut seen, i, errors);
        let quote = obj.required_string("quote", errors);
        if quote.as_deref().is_some_and(|q| q.trim().is_empty()) {
            errors.push(ScenarioError::new(obj.at("quote"), "must quote the paper"));
        }
        let windows = read_windows(&mut obj, until_ms, errors);
        let metric = obj.required_string("metric", errors);
        let expr = metric.as_ref().and_then(|m| match expr::parse(m, windows.len()) {
            Ok(e) => Some(e),
            Err(msg) => {
                errors.push(ScenarioError::new(obj.at("metric"), msg));
                None
            }
        });
        let variant = obj.string("variant", errors);
        if let Some(v) = &variant {
            if !variants.iter().any(|x| x == v) {
                errors.push(ScenarioError::new(
                    obj.at("variant"),
                    format!("no variant '{v}' in this file (variants: {})", variants.join(", ")),
                ));
            }
        }
        let paper = obj.plain_number("paper", errors);
        if obj.map.get("paper").is_none() {
            errors.push(ScenarioError::new(obj.at("paper"), "is required: the paper's value"));
        }
        let unit = obj.string("unit", errors).unwrap_or_default();
        let compare = match obj.string("compare", errors).as_deref() {
            None | Some("approx") => Some(Compare::Approx),
            Some("at_most") => Some(Compare::AtMost),
            Some("at_least") => Some(Compare::AtLeast),
            Some(other) => {
                errors.push(ScenarioError::new(
                    obj.at("compare"),
                    format!("'{other}' is not one of approx, at_most, at_least"),
                ));
                None
            }
        };
        let tolerance = read_tolerance(&mut obj, compare, errors);
        let expected = match obj.get("expected") {
            None => true,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                errors.push(ScenarioError::new(
                    obj.at("expected"),
                    format!("expected true or false, found {}", describe(other)),
                ));
                true
            }
        };
        let reason = obj.string("reason", errors);
        if !expected && reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
            errors.push(ScenarioError::new(
                obj.at("reason"),
                "is required when expected is false: say why the model does not meet the paper",
            ));
        }
        obj.finish(errors);
        if errors.len() > before {
            continue;
        }
        if let (Some(id), Some(quote), Some(metric), Some(expr), Some(paper), Some(compare)) =
            (id, quote, metric, expr, paper, compare)
        {
            out.push(Claim {
                id,
                quote,
                metric,
                expr,
                windows,
                variant,
                paper,
                unit,
                compare,
                tolerance,
                expected,
                reason,
            });
        }
    }
    out
}

fn read_windows(obj: &mut Obj<'_>, until_ms: Option<f64>, errors: &mut Errors) -> Vec<(f64, f64)> {
    let one = obj.get("window");
    let many = obj.get("windows");
    let (key, list): (&str, Vec<&Value>) = match (one, many) {
        (Some(_), Some(_)) => {
            errors.push(ScenarioError::new(obj.at("windows"), "give window or windows, not both"));
            return Vec::new();
        }
        (Some(w), None) => ("window", vec![w]),
        (None, Some(Value::Array(ws))) if ws.len() <= MAX_WINDOWS => {
            ("windows", ws.iter().collect())
        }
        (None, Some(Value::Array(ws))) => {
            errors.push(ScenarioError::new(
                obj.at("windows"),
                format!("{} windows exceed the limit of {MAX_WINDOWS}", ws.len()),
            ));
            return Vec::new();
        }
        (None, Some(other)) => {
            errors.push(ScenarioError::new(
                obj.at("windows"),
                format!("expected a list of [from_ms, to_ms], found {}", describe(other)),
            ));
            return Vec::new();
        }
        (None, None) => return Vec::new(),
    };
    let mut out = Vec::new();
    for (i, w) in list.into_iter().enumerate() {
        let at = if key == "window" { obj.at("window") } else { format!("{}[{i}]", obj.at(key)) };
        let pair = w.as_array().filter(|a| a.len() == 2).and_then(|a| {
            Some((
                a[0].as_f64().filter(|x| x.is_finite())?,
                a[1].as_f64().filter(|x| x.is_finite())?,
            ))
        });
        match pair {
            Some((from, to)) if from >= 0.0 && from < to => {
                if let Some(until) = until_ms.filter(|&u| to > u + 1e-9) {
                    errors.push(ScenarioError::new(
                        at,
                        format!("ends at {to} ms, after the run ({until} ms)"),
                    ));
                } else {
                    out.push((from, to));
                }
            }
            Some((from, to)) => errors
                .push(ScenarioError::new(at, format!("[{from}, {to}] must satisfy 0 ≤ from < to"))),
            None => errors.push(ScenarioError::new(
                at,
                format!("expected [from_ms, to_ms], found {}", describe(w)),
            )),
        }
    }
    out
}

fn read_tolerance(obj: &mut Obj<'_>, compare: Option<Compare>, errors: &mut Errors) -> Tolerance {
    let Some(v) = obj.get("tolerance") else {
        if compare == Some(Compare::Approx) {
            errors.push(ScenarioError::new(
                obj.at("tolerance"),
                "is required for compare approx: {\"abs\": x} or {\"rel\": fraction}",
            ));
        }
        return Tolerance::Abs(0.0);
    };
    let at = obj.at("tolerance");
    let Some(mut t) = Obj::new(v, &at, errors) else { return Tolerance::Abs(0.0) };
    let abs = t.plain_number("abs", errors);
    let rel = t.plain_number("rel", errors);
    t.finish(errors);
    match (abs, rel) {
        (Some(a), None) if a >= 0.0 => Tolerance::Abs(a),
        (None, Some(r)) if (0.0..=10.0).contains(&r) => Tolerance::Rel(r),
        (Some(_), Some(_)) => {
            errors.push(ScenarioError::new(at, "give abs or rel, not both"));
            Tolerance::Abs(0.0)
        }
        (None, None) => {
            errors.push(ScenarioError::new(at, "needs abs or rel"));
            Tolerance::Abs(0.0)
        }
        _ => {
            errors.push(ScenarioError::new(at, "abs must be ≥ 0, rel between 0 and 10"));
            Tolerance::Abs(0.0)
        }
    }
}

/// A scenario file's id, variants and claims, read without building the run.
pub struct FileClaims {
    pub scenario: String,
    pub claims: Vec<Claim>,
    pub until_ms: f64,
}

/// Reads a scenario's claims after validating the whole file (either model).
pub fn file_claims(text: &str) -> Result<FileClaims, Vec<ScenarioError>> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| vec![ScenarioError::new("", format!("not valid JSON: {e}"))])?;
    crate::model::Model::validate(text)?;
    let variants: Vec<String> = value
        .get("variants")
        .and_then(Value::as_array)
        .map(|vs| vs.iter().filter_map(|v| v.get("id")?.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let until_ms = value.pointer("/run/until_ms").and_then(Value::as_f64).unwrap_or(300.0);
    let mut errors = Vec::new();
    let claims = read_claims(value.get("claims"), &variants, Some(until_ms), &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(FileClaims {
        scenario: value.get("id").and_then(Value::as_str).unwrap_or("").to_string(),
        claims,
        until_ms,
    })
}

/// Runs every variant a file's claims need (one run per variant, shared by
/// its claims) and judges each claim. Results come in the file's order.
pub fn check_file(
    text: &str,
    limits: &crate::scenario::Limits,
    clock_ms: &dyn Fn() -> f64,
) -> Result<(FileClaims, Vec<Outcome>), Vec<ScenarioError>> {
    let file = file_claims(text)?;
    let mut outcomes: Vec<Option<Outcome>> = vec![None; file.claims.len()];
    let mut variants: Vec<Option<String>> = Vec::new();
    for c in &file.claims {
        if !variants.contains(&c.variant) {
            variants.push(c.variant.clone());
        }
    }
    for variant in variants {
        let members: Vec<usize> =
            (0..file.claims.len()).filter(|&i| file.claims[i].variant == variant).collect();
        let group: Vec<Claim> = members.iter().map(|&i| file.claims[i].clone()).collect();
        let opts = crate::runner::RunOptions {
            variant: variant.clone(),
            limits: *limits,
            ..Default::default()
        };
        let applied = crate::runner::apply_options(text, &opts)?;
        let sample_ms =
            applied.pointer("/run/sample_interval_ms").and_then(Value::as_f64).unwrap_or(0.5);
        let mut tracker: Option<Result<Tracker, Vec<ScenarioError>>> = None;
        let report = crate::runner::run_report(text, &opts, clock_ms, &mut |src, rows| {
            let t = tracker.get_or_insert_with(|| Tracker::new(&group, src.columns()));
            if let Ok(t) = t {
                t.feed(rows, sample_ms);
            }
        })?;
        let until_ms = report.get("until_ms").and_then(Value::as_f64).unwrap_or(file.until_ms);
        let tracker = match tracker {
            Some(t) => t?,
            None => Tracker::new(&group, &[])?,
        };
        for (k, o) in tracker.evaluate(sample_ms, until_ms, until_ms).into_iter().enumerate() {
            outcomes[members[k]] = Some(o);
        }
    }
    Ok((file, outcomes.into_iter().map(|o| o.expect("every claim is in one group")).collect()))
}
