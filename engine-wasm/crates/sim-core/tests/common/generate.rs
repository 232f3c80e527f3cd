//! Pieces of the generated cell-model scenarios that structured_fuzz.rs and
//! shortcuts.rs share: a switch port's settings, an ABR source's parameters,
//! background sources, the parking lot's nodes and links, and a seeded
//! proptest runner.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};
use sim_core::cell::scenario::{QUEUE_DISCIPLINES, STARTUP_OPTIONS};
use sim_core::cell::switch_alg::algorithm_kinds;
use std::ops::Range;

/// How a switch sends onto a link: its algorithm, buffer and queue discipline.
#[derive(Clone, Debug)]
pub struct SwitchPort {
    pub algorithm: &'static str,
    pub buffer_cells: f64,
    pub queue: &'static str,
}

/// Any switch algorithm, a buffer of 50, 1,000 or 100,000 cells, either discipline.
pub fn switch_port() -> impl Strategy<Value = SwitchPort> {
    (
        prop::sample::select(algorithm_kinds()),
        prop::sample::select(vec![50.0, 1000.0, 100_000.0]),
        prop::sample::select(QUEUE_DISCIPLINES.to_vec()),
    )
        .prop_map(|(algorithm, buffer_cells, queue)| SwitchPort {
            algorithm,
            buffer_cells,
            queue,
        })
}

impl SwitchPort {
    /// The link's `a_to_b` (or `b_to_a`) entry.
    pub fn json(&self) -> Value {
        json!({"buffer_cells": self.buffer_cells, "queue": self.queue,
               "algorithm": {"kind": self.algorithm}})
    }
}

/// An ABR source's parameters: its rates, Nrm, RIF and start-up option.
#[derive(Clone, Debug)]
pub struct SourceParams {
    pub pcr_mbps: f64,
    pub mcr_mbps: f64,
    pub nrm: u32,
    pub rif: f64,
    pub startup: &'static str,
}

/// PCR from `pcr`, MCR one of `mcr`, Nrm 2, 8 or 32, RIF 1/256, 1/16 or 1,
/// any start-up option.
pub fn source_params(
    pcr: impl Strategy<Value = f64>,
    mcr: Vec<f64>,
) -> impl Strategy<Value = SourceParams> {
    (
        pcr,
        prop::sample::select(mcr),
        prop::sample::select(vec![2u32, 8, 32]),
        prop::sample::select(vec![1.0 / 256.0, 1.0 / 16.0, 1.0]),
        prop::sample::select(STARTUP_OPTIONS.to_vec()),
    )
        .prop_map(|(pcr_mbps, mcr_mbps, nrm, rif, startup)| SourceParams {
            pcr_mbps,
            mcr_mbps,
            nrm,
            rif,
            startup,
        })
}

impl SourceParams {
    /// A VC's entry: `vc` (its id, path, traffic…) with these parameters added.
    pub fn json(&self, mut vc: Value) -> Value {
        let fields = vc.as_object_mut().expect("a VC is an object");
        fields.insert("pcr_mbps".into(), json!(self.pcr_mbps));
        fields.insert("mcr_mbps".into(), json!(self.mcr_mbps));
        fields.insert("nrm".into(), json!(self.nrm));
        fields.insert("rif".into(), json!(self.rif));
        fields.insert("startup".into(), json!(self.startup));
        vc
    }
}

/// A CBR or VBR source entering at switch `entry` (modulo the switches there are).
#[derive(Clone, Debug)]
pub struct Background {
    pub entry: usize,
    pub kind: &'static str,
    pub rate_mbps: f64,
    pub on_ms: f64,
    pub off_ms: f64,
    pub start_ms: f64,
}

/// Background with a rate and an off time drawn from these ranges.
pub fn background(rate_mbps: Range<f64>, off_ms: Range<f64>) -> impl Strategy<Value = Background> {
    (0..3usize, prop::sample::select(vec!["cbr", "vbr"]), rate_mbps, 1.0..20.0, off_ms, 0.0..10.0)
        .prop_map(|(entry, kind, rate_mbps, on_ms, off_ms, start_ms)| Background {
            entry,
            kind,
            rate_mbps,
            on_ms,
            off_ms,
            start_ms,
        })
}

/// The scenario's `background` entries, each along `path(entry)`.
pub fn background_json(sources: &[Background], path: impl Fn(usize) -> Vec<String>) -> Vec<Value> {
    sources
        .iter()
        .enumerate()
        .map(|(b, bg)| {
            json!({"id": format!("bg{b}"), "kind": bg.kind, "path": path(bg.entry),
                   "rate_mbps": bg.rate_mbps, "on_ms": bg.on_ms, "off_ms": bg.off_ms,
                   "start_ms": bg.start_ms})
        })
        .collect()
}

/// A parking lot's nodes and links: switch `i` has host `h{i}`, whose link
/// has the rate and delay `hosts[i]`, and a trunk to the next switch (the
/// last one's to the host `dst`) with rate, delay and its sending port
/// (`a_to_b`) from `trunks[i]`.
pub fn parking_lot(hosts: &[(f64, f64)], trunks: &[(f64, f64, Value)]) -> (Vec<Value>, Vec<Value>) {
    let n = trunks.len();
    let mut nodes = vec![json!({"id": "dst", "kind": "host"})];
    let mut links = Vec::new();
    for (i, ((rate, delay), (trunk_rate, trunk_delay, port))) in
        hosts.iter().zip(trunks).enumerate()
    {
        nodes.push(json!({"id": format!("sw{i}"), "kind": "switch"}));
        nodes.push(json!({"id": format!("h{i}"), "kind": "host"}));
        links.push(json!({"id": format!("in{i}"), "a": format!("h{i}"), "b": format!("sw{i}"),
                          "rate_mbps": rate, "delay_ms": delay}));
        let next = if i + 1 < n { format!("sw{}", i + 1) } else { "dst".to_string() };
        links.push(json!({"id": format!("t{i}"), "a": format!("sw{i}"), "b": next,
            "rate_mbps": trunk_rate, "delay_ms": trunk_delay, "a_to_b": port}));
    }
    (nodes, links)
}

/// The route through a parking lot of `n` switches from the host of switch
/// `entry` (modulo `n`) to `dst`.
pub fn parking_lot_path(n: usize, entry: usize) -> Vec<String> {
    let i = entry % n;
    let mut p = vec![format!("h{i}")];
    p.extend((i..n).map(|k| format!("sw{k}")));
    p.push("dst".to_string());
    p
}

/// A proptest runner seeded from the environment variable `seed_var` (else
/// `default_seed`), running `cases_var` cases (else `default_cases`): the
/// runner, the seed and the count, for the message that replays a failure.
pub fn seeded_runner(
    seed_var: &str,
    default_seed: u64,
    cases_var: &str,
    default_cases: u32,
    max_shrink_iters: u32,
) -> (TestRunner, u64, u32) {
    let seed = std::env::var(seed_var).ok().and_then(|s| s.parse().ok()).unwrap_or(default_seed);
    let cases = std::env::var(cases_var).ok().and_then(|s| s.parse().ok()).unwrap_or(default_cases);
    let config = Config { cases, failure_persistence: None, max_shrink_iters, ..Config::default() };
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    (TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key)), seed, cases)
}
