//! A scenario's lecture: narrated `stops` on its timeline and predict-then-play
//! `questions`, read and validated with the rest of the envelope by either
//! model's walk. A question's figure is a claim's (the grammar of
//! `claims::expr`); judging it against a run is `crate::claims::questions`'.

use super::claims::expr;
use super::envelope::{element_path, read_id};
use super::reader::{describe, Errors, Obj};
use super::ScenarioError;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;

/// Most stops a file may carry.
pub const MAX_STOPS: usize = 100;
/// Most questions a file may carry.
pub const MAX_QUESTIONS: usize = 50;
/// Most choices one question may offer.
pub const MAX_CHOICES: usize = 8;
/// Longest title, in characters.
pub const MAX_TITLE: usize = 120;
/// Longest text (a stop's note, a prompt, an explanation), in characters.
pub const MAX_TEXT: usize = 2000;
/// The charts a stop may bring forward (the page's chart kinds).
pub const CHARTS: [&str; 8] =
    ["acr", "queue", "util", "received", "lost", "fairness", "classes", "ratio"];

/// A narrated stop: the run pauses at `t_ms` and shows its note.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Stop {
    /// Optional name a question's `before` refers to.
    pub id: Option<String>,
    pub t_ms: f64,
    pub title: String,
    pub text: String,
    pub view: Option<StopView>,
}

/// What the page shows at a stop: a selected element, a chart, a magnified port.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StopView {
    /// A node, link, VC, flow or background source id.
    pub selection: Option<String>,
    /// One of [`CHARTS`].
    pub chart: Option<String>,
    /// A port: `<link id>` (a→b) or `<link id>:rev`.
    pub magnify: Option<String>,
}

/// One choice of a multiple-choice question: the run's value picks the choice whose range holds it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Choice {
    pub text: String,
    /// `[low, high]`: the values of the metric this choice stands for.
    pub range: [f64; 2],
}

/// The paper's answer: a number within `[low, high]`, or one of `choices`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Answer {
    /// The number (absent for a choice).
    pub value: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub unit: String,
    pub choices: Vec<Choice>,
    /// Index of the paper's choice.
    pub correct: Option<usize>,
}

/// A predict-then-play question, answered by a figure of the run over a window.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Question {
    pub id: String,
    pub prompt: String,
    pub metric: String,
    /// `[from_ms, to_ms]` each.
    pub windows: Vec<[f64; 2]>,
    pub answer: Answer,
    pub explanation: String,
    /// The stop the question is asked at (its id), if not at the window's start.
    pub before: Option<String>,
    /// When the run stops for the student's answer: the `before` stop's time, else where the
    /// windows the metric reads begin.
    pub ask_ms: f64,
    /// When every window the metric reads has passed (the run's end for `totals`).
    pub due_ms: f64,
}

/// The element ids a stop's view may name, gathered from the raw file.
fn ids_of(whole: &Value, keys: &[&str]) -> Vec<String> {
    keys.iter()
        .filter_map(|k| whole.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(|x| x.get("id").and_then(Value::as_str).map(String::from))
        .collect()
}

fn text(obj: &mut Obj<'_>, key: &'static str, max: usize, errors: &mut Errors) -> Option<String> {
    let s = obj.required_string(key, errors)?;
    let n = s.trim().chars().count();
    if n == 0 || n > max {
        errors.push(ScenarioError::new(obj.at(key), format!("use 1–{max} characters ({n} given)")));
        return None;
    }
    Some(s)
}

fn list<'a>(whole: &'a Value, key: &str, max: usize, errors: &mut Errors) -> &'a [Value] {
    match whole.get(key) {
        None | Some(Value::Null) => &[],
        Some(Value::Array(items)) if items.len() <= max => items,
        Some(Value::Array(items)) => {
            errors.push(ScenarioError::new(
                key,
                format!("{} entries exceed the limit of {max}", items.len()),
            ));
            &[]
        }
        Some(other) => {
            errors.push(ScenarioError::new(
                key,
                format!("expected an array, found {}", describe(other)),
            ));
            &[]
        }
    }
}

/// Reads `stops` and `questions` from a scenario root (marking both keys read).
/// `until_ms` is the run's length: a stop or window after it is an error.
pub(crate) fn read_lecture(
    whole: &Value,
    root: &mut Obj<'_>,
    until_ms: Option<f64>,
    errors: &mut Errors,
) -> (Vec<Stop>, Vec<Question>) {
    root.get("stops");
    root.get("questions");
    let stops = read_stops(whole, until_ms, errors);
    let questions = read_questions(whole, &stops, until_ms, errors);
    (stops, questions)
}

fn read_stops(whole: &Value, until_ms: Option<f64>, errors: &mut Errors) -> Vec<Stop> {
    let items = list(whole, "stops", MAX_STOPS, errors);
    let elements = ids_of(whole, &["nodes", "links", "vcs", "flows", "background"]);
    let links = ids_of(whole, &["links"]);
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("stops[{i}]");
        let Some(mut obj) = Obj::new(item, &at, errors) else { continue };
        let before = errors.len();
        let id = obj.get("id").is_some().then(|| read_id(&mut obj, &mut seen, i, errors)).flatten();
        let t_ms = obj.plain_number("t_ms", errors);
        if obj.map.get("t_ms").is_none() {
            errors.push(ScenarioError::new(obj.at("t_ms"), "is required: the stop's time in ms"));
        }
        match (t_ms, until_ms) {
            (Some(t), _) if t < 0.0 => {
                errors.push(ScenarioError::new(obj.at("t_ms"), format!("{t} ms is before 0")))
            }
            (Some(t), Some(u)) if t > u + 1e-9 => errors.push(ScenarioError::new(
                obj.at("t_ms"),
                format!("{t} ms is after the end of the run ({u} ms)"),
            )),
            _ => {}
        }
        let title = text(&mut obj, "title", MAX_TITLE, errors);
        let note = text(&mut obj, "text", MAX_TEXT, errors);
        let view =
            obj.get("view").and_then(|v| read_view(v, &obj.at("view"), &elements, &links, errors));
        obj.finish(errors);
        if errors.len() > before {
            continue;
        }
        if let (Some(t_ms), Some(title), Some(text)) = (t_ms, title, note) {
            out.push(Stop { id, t_ms, title, text, view });
        }
    }
    out
}

fn read_view(
    value: &Value,
    at: &str,
    elements: &[String],
    links: &[String],
    errors: &mut Errors,
) -> Option<StopView> {
    let mut obj = Obj::new(value, at, errors)?;
    let selection = obj.string("selection", errors);
    if let Some(s) = selection.as_deref().filter(|s| !elements.iter().any(|e| e == s)) {
        errors.push(ScenarioError::new(
            obj.at("selection"),
            format!("no node, link, VC, flow or background source '{s}' in this file"),
        ));
    }
    let chart = obj.string("chart", errors);
    if let Some(c) = chart.as_deref().filter(|c| !CHARTS.contains(c)) {
        errors.push(ScenarioError::new(
            obj.at("chart"),
            format!("'{c}' is not a chart: one of {}", CHARTS.join(", ")),
        ));
    }
    let magnify = obj.string("magnify", errors);
    if let Some(m) = magnify.as_deref() {
        let link = m.strip_suffix(":rev").unwrap_or(m);
        if !links.iter().any(|l| l == link) {
            errors.push(ScenarioError::new(
                obj.at("magnify"),
                format!("no port '{m}': name a link id, or a link id and ':rev'"),
            ));
        }
    }
    obj.finish(errors);
    Some(StopView { selection, chart, magnify })
}

fn read_questions(
    whole: &Value,
    stops: &[Stop],
    until_ms: Option<f64>,
    errors: &mut Errors,
) -> Vec<Question> {
    let items = list(whole, "questions", MAX_QUESTIONS, errors);
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = element_path("questions", i, item);
        let Some(mut obj) = Obj::new(item, &at, errors) else { continue };
        let before_count = errors.len();
        let id = read_id(&mut obj, &mut seen, i, errors);
        let prompt = text(&mut obj, "prompt", MAX_TEXT, errors);
        let explanation = text(&mut obj, "explanation", MAX_TEXT, errors);
        let windows = super::claims::read_windows(&mut obj, until_ms, errors);
        let metric = obj.required_string("metric", errors);
        let parsed = metric.as_ref().and_then(|m| match expr::parse(m, windows.len()) {
            Ok(e) => Some(e),
            Err(msg) => {
                errors.push(ScenarioError::new(obj.at("metric"), msg));
                None
            }
        });
        let answer = match obj.get("answer") {
            Some(v) => read_answer(v, &obj.at("answer"), errors),
            None => {
                errors.push(ScenarioError::new(
                    obj.at("answer"),
                    "is required: {value, tolerance, unit?} or {choices, correct}",
                ));
                None
            }
        };
        let before = obj.string("before", errors);
        obj.finish(errors);
        if errors.len() > before_count {
            continue;
        }
        let (Some(id), Some(prompt), Some(explanation), Some(metric), Some(parsed), Some(answer)) =
            (id, prompt, explanation, metric, parsed, answer)
        else {
            continue;
        };
        let until = until_ms.unwrap_or(f64::INFINITY);
        let mut refs = Vec::new();
        parsed.refs(&mut refs);
        let windows_ref = &windows;
        let refs_ref = &refs;
        let span = |pick: fn(&(f64, f64)) -> f64, totals: f64| {
            refs_ref.iter().map(move |(w, _)| match w {
                expr::WindowRef::Index(k) => pick(&windows_ref[*k]),
                expr::WindowRef::Totals => totals,
            })
        };
        let starts = span(|w| w.0, 0.0).fold(f64::INFINITY, f64::min);
        let due_ms = span(|w| w.1, until).fold(0.0, f64::max);
        let ask_ms = match &before {
            None => starts.min(due_ms),
            Some(stop_id) => match stops.iter().find(|s| s.id.as_deref() == Some(stop_id)) {
                None => {
                    errors.push(ScenarioError::new(
                        format!("{at}.before"),
                        format!("no stop with id '{stop_id}' in this file"),
                    ));
                    continue;
                }
                Some(stop) if stop.t_ms > starts + 1e-9 => {
                    errors.push(ScenarioError::new(
                        format!("{at}.before"),
                        format!(
                            "stop '{stop_id}' is at {} ms, after the question's window begins ({starts} ms)",
                            stop.t_ms
                        ),
                    ));
                    continue;
                }
                Some(stop) => stop.t_ms,
            },
        };
        out.push(Question {
            id,
            prompt,
            metric,
            windows: windows.iter().map(|&(a, b)| [a, b]).collect(),
            answer,
            explanation,
            before,
            ask_ms,
            due_ms,
        });
    }
    out
}

fn read_answer(value: &Value, at: &str, errors: &mut Errors) -> Option<Answer> {
    let mut obj = Obj::new(value, at, errors)?;
    let before = errors.len();
    let unit = obj.string("unit", errors).unwrap_or_default();
    let number = obj.plain_number("value", errors);
    let tolerance = obj.get("tolerance");
    let choices = obj.get("choices");
    let correct = obj.get("correct");
    let answer = match (number, choices) {
        (Some(_), Some(_)) => {
            errors.push(ScenarioError::new(at, "give a value or choices, not both"));
            None
        }
        (Some(v), None) => {
            let tol = match tolerance {
                Some(t) => read_tolerance(t, &obj.at("tolerance"), v, errors),
                None => {
                    errors.push(ScenarioError::new(
                        obj.at("tolerance"),
                        "is required with a value: {\"abs\": x} or {\"rel\": fraction}",
                    ));
                    None
                }
            };
            if correct.is_some() {
                errors
                    .push(ScenarioError::new(obj.at("correct"), "belongs to choices, not a value"));
            }
            tol.map(|t| Answer {
                value: Some(v),
                low: Some(v - t),
                high: Some(v + t),
                unit: unit.clone(),
                choices: Vec::new(),
                correct: None,
            })
        }
        (None, Some(list)) => {
            read_choices(list, &obj.at("choices"), correct, &obj.at("correct"), errors).map(
                |(choices, correct)| Answer {
                    value: None,
                    low: None,
                    high: None,
                    unit: unit.clone(),
                    choices,
                    correct: Some(correct),
                },
            )
        }
        (None, None) => {
            if obj.map.get("value").is_none() {
                errors.push(ScenarioError::new(at, "needs a value (with a tolerance) or choices"));
            }
            None
        }
    };
    obj.finish(errors);
    answer.filter(|_| errors.len() == before)
}

fn read_tolerance(value: &Value, at: &str, paper: f64, errors: &mut Errors) -> Option<f64> {
    let mut obj = Obj::new(value, at, errors)?;
    let abs = obj.plain_number("abs", errors);
    let rel = obj.plain_number("rel", errors);
    obj.finish(errors);
    match (abs, rel) {
        (Some(a), None) if a >= 0.0 => Some(a),
        (None, Some(r)) if (0.0..=10.0).contains(&r) => Some(r * paper.abs()),
        _ => {
            errors.push(ScenarioError::new(
                at,
                "give one of abs (≥ 0) or rel (a fraction between 0 and 10)",
            ));
            None
        }
    }
}

fn read_choices(
    value: &Value,
    at: &str,
    correct: Option<&Value>,
    correct_at: &str,
    errors: &mut Errors,
) -> Option<(Vec<Choice>, usize)> {
    let Some(items) = value.as_array().filter(|a| (2..=MAX_CHOICES).contains(&a.len())) else {
        errors.push(ScenarioError::new(
            at,
            format!("expected a list of 2–{MAX_CHOICES} choices, found {}", describe(value)),
        ));
        return None;
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let here = format!("{at}[{i}]");
        let Some(mut obj) = Obj::new(item, &here, errors) else { continue };
        let label = text(&mut obj, "text", MAX_TITLE, errors);
        let range = obj.get("range").and_then(Value::as_array).and_then(|a| {
            let lo = a.first()?.as_f64().filter(|x| x.is_finite())?;
            let hi = a.get(1)?.as_f64().filter(|x| x.is_finite())?;
            (a.len() == 2 && lo < hi).then_some([lo, hi])
        });
        if range.is_none() {
            errors.push(ScenarioError::new(
                obj.at("range"),
                "is required: [low, high] with low < high, the values this choice stands for",
            ));
        }
        obj.finish(errors);
        if let (Some(text), Some(range)) = (label, range) {
            out.push(Choice { text, range });
        }
    }
    for (i, a) in out.iter().enumerate() {
        for b in &out[i + 1..] {
            if a.range[0] < b.range[1] && b.range[0] < a.range[1] {
                errors.push(ScenarioError::new(
                    at,
                    format!("the ranges of '{}' and '{}' overlap", a.text, b.text),
                ));
            }
        }
    }
    let index = correct.and_then(Value::as_u64).map(|c| c as usize).filter(|&c| c < items.len());
    if index.is_none() {
        errors.push(ScenarioError::new(
            correct_at,
            format!("is required: the index of the paper's choice, 0 to {}", items.len() - 1),
        ));
    }
    (out.len() == items.len()).then_some(()).and(index).map(|c| (out, c))
}

/// A scenario's stops and questions, read from its text alone (the caller has
/// validated the whole file): for the judges of questions.
pub fn lecture_of(whole: &Value) -> Result<(Vec<Stop>, Vec<Question>), Vec<ScenarioError>> {
    let mut errors = Errors::new();
    let until = whole.pointer("/run/until_ms").and_then(Value::as_f64);
    let stops = read_stops(whole, None, &mut errors);
    let mut questions = read_questions(whole, &stops, None, &mut errors);
    if let Some(u) = until {
        for q in &mut questions {
            q.due_ms = q.due_ms.min(u);
        }
    }
    if errors.is_empty() {
        Ok((stops, questions))
    } else {
        Err(errors)
    }
}
