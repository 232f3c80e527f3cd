//! A scenario's lecture: narrated `stops` and predict-then-play `questions`
//! are validated with paths like every other key, every library file carries
//! stops at its key moments (each citing the paper's section, or for
//! the ERICA slides, which have none, the test) and every paper at least one question, and each
//! library question, judged on its own run by the claims' tracker, agrees with
//! the paper's answer.

mod common;

use serde_json::{json, Value};
use sim_core::claims::QuestionCheck;
use sim_core::model::Model;
use sim_core::runner::{run_report, RunOptions};
use sim_core::scenario::lecture::lecture_of;

fn two_source_wan() -> Value {
    serde_json::from_str(&common::scenario_text("two-source-wan.json")).unwrap()
}

/// The errors `Model::validate` gives for two-source-wan with `key` replaced by `value`.
fn errors_with(key: &str, value: Value) -> Vec<String> {
    let mut v = two_source_wan();
    if key == "stops" {
        // The file's questions name its stops.
        v.as_object_mut().unwrap().remove("questions");
    }
    v[key] = value;
    match Model::validate(&v.to_string()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(|e| format!("{}: {}", e.path, e.message)).collect(),
    }
}

fn assert_refused(key: &str, value: Value, path: &str, words: &str) {
    let errors = errors_with(key, value);
    assert!(
        errors.iter().any(|e| e.starts_with(&format!("{path}: ")) && e.contains(words)),
        "expected an error at {path} containing '{words}', got {errors:?}"
    );
}

fn question(extra: Value) -> Value {
    let mut q = json!({"id": "q", "prompt": "How fast?", "window": [150, 195],
        "metric": "window.vcs.vc1.acr_mbps", "explanation": "Because.",
        "answer": {"value": 70, "unit": "Mbit/s", "tolerance": {"rel": 0.03}}});
    for (k, v) in extra.as_object().unwrap() {
        q[k] = v.clone();
    }
    q
}

#[test]
fn stops_are_refused_by_path() {
    assert_refused("stops", json!({"t_ms": 1}), "stops", "expected an array");
    assert_refused("stops", json!([{"title": "a", "text": "b"}]), "stops[0].t_ms", "is required");
    assert_refused(
        "stops",
        json!([{"t_ms": -1, "title": "a", "text": "b"}]),
        "stops[0].t_ms",
        "before 0",
    );
    assert_refused(
        "stops",
        json!([{"t_ms": 1, "title": "", "text": "b"}]),
        "stops[0].title",
        "1–120",
    );
    assert_refused(
        "stops",
        json!([{"t_ms": 1, "title": "a", "text": "b", "colour": 1}]),
        "stops[0].colour",
        "unknown key",
    );
    let view = |v: Value| json!([{"t_ms": 1, "title": "a", "text": "b", "view": v}]);
    assert_refused("stops", view(json!({"selection": "vc9"})), "stops[0].view.selection", "'vc9'");
    assert_refused("stops", view(json!({"chart": "pie"})), "stops[0].view.chart", "not a chart");
    assert_refused("stops", view(json!({"magnify": "l9:rev"})), "stops[0].view.magnify", "no port");
    let many: Vec<Value> =
        (0..101).map(|i| json!({"t_ms": i, "title": "a", "text": "b"})).collect();
    assert_refused("stops", Value::Array(many), "stops", "limit of 100");
    // A sound view passes, and a port of either direction may be magnified.
    assert!(errors_with(
        "stops",
        view(json!({"selection": "vc2", "chart": "queue", "magnify": "l3:rev"}))
    )
    .is_empty());
}

#[test]
fn questions_are_refused_by_path() {
    let q = |extra: Value| json!([question(extra)]);
    assert!(errors_with("questions", q(json!({}))).is_empty());
    assert_refused(
        "questions",
        q(json!({"metric": "window.vcs.vc1.acr_mbps +"})),
        "questions.q.metric",
        "",
    );
    assert_refused(
        "questions",
        q(json!({"window": [200, 100]})),
        "questions.q.window",
        "from < to",
    );
    assert_refused(
        "questions",
        q(json!({"before": "nowhere"})),
        "questions.q.before",
        "no stop with id 'nowhere'",
    );
    assert_refused(
        "questions",
        q(json!({"answer": {"value": 70}})),
        "questions.q.answer.tolerance",
        "is required",
    );
    assert_refused("questions", q(json!({"answer": {}})), "questions.q.answer", "needs a value");
    let choices = json!({"choices": [{"text": "low", "range": [0, 80]}, {"text": "high", "range": [70, 200]}], "correct": 1});
    assert_refused(
        "questions",
        q(json!({"answer": choices})),
        "questions.q.answer.choices",
        "overlap",
    );
    let choices = json!({"choices": [{"text": "low", "range": [0, 80]}, {"text": "high", "range": [80, 200]}], "correct": 2});
    assert_refused(
        "questions",
        q(json!({"answer": choices})),
        "questions.q.answer.correct",
        "0 to 1",
    );
    // A question asked at a stop after its window begins cannot be answered before it.
    let mut v = two_source_wan();
    v["stops"] = json!([{"id": "late", "t_ms": 180, "title": "a", "text": "b"}]);
    v["questions"] = q(json!({"before": "late"}));
    let errors = Model::validate(&v.to_string()).unwrap_err();
    assert!(
        errors.iter().any(|e| e.path == "questions.q.before"
            && e.message.contains("after the question's window begins")),
        "{errors:?}"
    );
}

#[test]
fn a_question_is_asked_at_its_stop_or_where_its_window_begins() {
    let mut v = two_source_wan();
    v["stops"] = json!([{"id": "joins", "t_ms": 100, "title": "S2 joins", "text": "Watch."}]);
    v["questions"] = json!([
        question(json!({"before": "joins"})),
        question(json!({"id": "r"})),
        question(json!({"id": "t", "metric": "totals.ports.l3.queue_max"}))
    ]);
    let (_, questions) = lecture_of(&v).unwrap();
    let at: Vec<(f64, f64)> = questions.iter().map(|q| (q.ask_ms, q.due_ms)).collect();
    assert_eq!(at, vec![(100.0, 195.0), (150.0, 195.0), (0.0, 300.0)]);
}

/// Every row of a run, projected onto the columns a question check reads.
fn judged(text: &str) -> Value {
    let value: Value = serde_json::from_str(text).unwrap();
    let mut check: Option<QuestionCheck> = None;
    let mut picks: Vec<usize> = Vec::new();
    let mut rows: Vec<f64> = Vec::new();
    let report = run_report(text, &RunOptions::default(), &|| 0.0, &mut |src, chunk| {
        let all = src.columns();
        let c = check.get_or_insert_with(|| {
            let c = QuestionCheck::new(text, all).expect("the questions read");
            picks = c.columns().iter().map(|n| all.iter().position(|a| a == n).unwrap()).collect();
            c
        });
        let _ = c;
        for row in chunk.chunks(all.len()) {
            rows.extend(picks.iter().map(|&i| row[i]));
        }
    })
    .unwrap();
    let until = report["until_ms"].as_f64().unwrap();
    let out = check.expect("rows came").evaluate(&rows, until);
    assert_eq!(out.as_array().unwrap().len(), value["questions"].as_array().unwrap().len());
    out
}

#[test]
fn every_library_question_agrees_with_its_paper_on_the_run() {
    for (name, text) in common::library_texts() {
        let value: Value = serde_json::from_str(&text).unwrap();
        if value.get("questions").is_none() {
            continue;
        }
        for q in judged(&text).as_array().unwrap() {
            assert_eq!(q["status"], "due", "{name}: {q}");
            assert!(q["value"].is_number(), "{name}: {q}");
            assert_eq!(q["agrees_with_paper"], true, "{name}: {q}");
        }
    }
}

#[test]
fn every_library_file_has_stops_and_every_paper_a_question() {
    let mut papers_asked = std::collections::BTreeSet::new();
    for (name, text) in common::library_texts() {
        let value: Value = serde_json::from_str(&text).unwrap();
        let (stops, questions) = lecture_of(&value).unwrap();
        let until = value["run"]["until_ms"].as_f64().unwrap();
        assert!((2..=4).contains(&stops.len()), "{name}: {} stops", stops.len());
        assert!(stops.windows(2).all(|w| w[0].t_ms < w[1].t_ms), "{name}: stops out of order");
        for s in &stops {
            assert!(s.t_ms <= until, "{name}: stop at {} ms after the run", s.t_ms);
            assert!(
                s.text.contains('§') || s.text.contains("Case Study with ERICA”, "),
                "{name}: stop '{}' cites no section or test",
                s.title
            );
        }
        if !questions.is_empty() {
            let authors = value["paper"].as_str().unwrap().split(',').next().unwrap().to_string();
            papers_asked.insert(authors);
        }
    }
    assert_eq!(papers_asked.len(), 5, "papers with a question: {papers_asked:?}");
}
