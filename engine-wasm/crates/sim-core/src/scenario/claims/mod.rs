//! Paper claims as a scenario file states them (scenarios/README.md, "Paper claims"): the `claims`
//! list, read and validated with the rest of the envelope by either model's
//! walk, and the expression grammar of a claim's figure (expr.rs). Judging a
//! claim against a run is `crate::claims`'.

pub mod checks;
pub mod expr;

use super::reader::{describe, element_path, read_id, Errors, Obj};
use super::ScenarioError;
use serde_json::Value;
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

/// The ids of a scenario document's `variants` (those that carry one).
pub fn variant_ids(doc: &Value) -> Vec<String> {
    doc.get("variants")
        .and_then(Value::as_array)
        .map(|vs| vs.iter().filter_map(|v| v.get("id")?.as_str().map(String::from)).collect())
        .unwrap_or_default()
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
        let id = read_id(&mut obj, &mut seen, i, errors);
        let quote = obj.required_string("quote", errors);
        if quote.as_deref().is_some_and(|q| q.trim().is_empty()) {
            errors.push(ScenarioError::new(obj.at("quote"), "must quote the paper"));
        }
        let windows = read_windows(&mut obj, until_ms, errors);
        let (metric, expr) = read_metric(&mut obj, windows.len(), expr::parse, errors);
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
        let compare = read_compare(&mut obj, errors);
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

pub(crate) fn read_windows(
    obj: &mut Obj<'_>,
    until_ms: Option<f64>,
    errors: &mut Errors,
) -> Vec<(f64, f64)> {
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

/// `metric` (required), parsed by `parse` against `windows` windows.
pub(crate) fn read_metric(
    obj: &mut Obj<'_>,
    windows: usize,
    parse: fn(&str, usize) -> Result<expr::Expr, String>,
    errors: &mut Errors,
) -> (Option<String>, Option<expr::Expr>) {
    let metric = obj.required_string("metric", errors);
    let parsed = metric.as_ref().and_then(|m| match parse(m, windows) {
        Ok(e) => Some(e),
        Err(msg) => {
            errors.push(ScenarioError::new(obj.at("metric"), msg));
            None
        }
    });
    (metric, parsed)
}

/// `compare` (absent: approx); None when it names no comparison.
pub(crate) fn read_compare(obj: &mut Obj<'_>, errors: &mut Errors) -> Option<Compare> {
    match obj.string("compare", errors).as_deref() {
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
    }
}

pub(crate) fn read_tolerance(
    obj: &mut Obj<'_>,
    compare: Option<Compare>,
    errors: &mut Errors,
) -> Tolerance {
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
