//! The event-saving shortcuts — data cells that land without events over links
//! into hosts, last trunks and host links; sole senders; lazy sources merged
//! into their trunk — change what a run costs, never what it computes:
//! "every cell is still simulated". The golden test pins the library's runs;
//! this one checks generated topologies, each against the same scenario
//! built without the shortcuts (`Simulation::build_without_shortcuts`: every
//! arrival over every link an event of its own, every source sending by its
//! own events). The two must record the same samples, bit for bit.
//!
//! Where two things happen at the same picosecond, the shortcuts settle
//! which comes first by rules of their own, and an event-per-cell build by
//! the order in which its events were scheduled, unless it keeps the same
//! rules. It keeps two. A cell a sole sender has due at an instant goes
//! before whatever changes the source then — a BRM arriving, or one handed to
//! it for its partner loop (`Vc::sends_first`): a source's sends and its own
//! BRMs fall on the same instants again and again once an ACR increase has
//! let it send at once. And a port's transmitter frees before a cell arriving
//! at that instant is queued, on every port (`Port::catch_up`): where an
//! explicit-rate switch gives a source exactly its link's rate, each of its
//! cells arrives as the one before leaves. Other ties it does not settle the
//! same way, and where the orders differ the runs part ways, the more so
//! with a full buffer, where the order decides which cell is lost. So the
//! generated scenarios draw rates, delays and start times from continuous
//! ranges, and leave out the request–response traffic and bidirectional VCs
//! whose replies and turned-around RM cells make instants meet by
//! construction. 18,000 generated runs (seeds 1–18, 1,000 cases each) were
//! the same bit for bit. With request–response traffic and bidirectional VCs
//! added, two searches of 1,000 in six found a run that differs. In the one
//! traced, a destination turned an RM cell around at the instant a reverse
//! loop's source on the same host sent a cell, and the two went onto the
//! host's link in the order their events had been scheduled, which differs
//! between the builds (the forward RM cell's arrival is scheduled at another
//! moment on a link whose data cells land without events). A failure here is
//! worth tracing to the instant where the runs part: a tie rule, or a
//! shortcut's error.
//!
//! Two families: a parking lot of up to three switches, with sources and
//! background entering at any of them, and the benchmark's shape — hosts
//! into one switch, a trunk, and a link to each VC's own destination or a
//! shared one — where the lazy sources and merged host links apply.
//! `SHORTCUT_SEED` replays a search (printed); `SHORTCUT_CASES` sets its size.

mod common;

use common::generate::{self, Background, SourceParams, SwitchPort};

use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Clone, Debug)]
struct Port {
    rate_mbps: f64,
    delay_ms: f64,
    port: SwitchPort,
}

#[derive(Clone, Debug)]
struct Vc {
    /// Where it enters: a switch of the parking lot, or a host of the star.
    entry: usize,
    /// In the star: a host of its own, or one of the shared ones.
    own_host: bool,
    /// In the star: a destination of its own, or the shared one.
    own_destination: bool,
    start_ms: f64,
    /// None: persistent; else on/off (on, off) or source-bottlenecked (rate, for).
    traffic: Option<(bool, f64, f64)>,
    source: SourceParams,
}

#[derive(Clone, Debug)]
struct Case {
    star: bool,
    /// The parking lot's trunks, or the star's trunk then its destination links.
    ports: Vec<Port>,
    /// Each host's link into its switch: rate and delay.
    hosts: Vec<(f64, f64)>,
    vcs: Vec<Vc>,
    background: Vec<Background>,
    until_ms: f64,
    seed: u64,
}

fn port() -> impl Strategy<Value = Port> {
    (5.0..155.52, 0.01..3.0, generate::switch_port()).prop_map(|(rate_mbps, delay_ms, port)| Port {
        rate_mbps,
        delay_ms,
        port,
    })
}

fn vc() -> impl Strategy<Value = Vc> {
    let traffic = prop_oneof![
        2 => Just(None),
        1 => (any::<bool>(), 0.5..10.0, 0.2..10.0).prop_map(Some),
    ];
    (
        (0..8usize, prop::bool::weighted(0.7), prop::bool::weighted(0.7), 0.0..5.0, traffic),
        generate::source_params(10.0..155.52, vec![0.0, 0.0, 0.5]),
    )
        .prop_map(|((entry, own_host, own_destination, start_ms, traffic), source)| Vc {
            entry,
            own_host,
            own_destination,
            start_ms,
            traffic,
            source,
        })
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        prop::collection::vec(port(), 1..=3),
        prop::collection::vec((100.0..155.52, 0.001..1.0), 1..=6),
        prop::collection::vec(vc(), 1..=8),
        prop::collection::vec(generate::background(1.0..40.0, 0.5..20.0), 0..=2),
        20.0..60.0,
        0..1000u64,
    )
        .prop_map(|(star, ports, hosts, vcs, background, until_ms, seed)| Case {
            star,
            ports,
            hosts,
            vcs,
            background,
            until_ms,
            seed,
        })
}

fn traffic(v: &Vc) -> Value {
    match v.traffic {
        None => json!({"kind": "persistent", "start_ms": v.start_ms}),
        Some((true, on_ms, off_ms)) => {
            json!({"kind": "on_off", "start_ms": v.start_ms, "on_ms": on_ms, "off_ms": off_ms})
        }
        Some((false, rate_mbps, for_ms)) => json!({"kind": "bottlenecked",
            "start_ms": v.start_ms, "rate_mbps": rate_mbps, "for_ms": for_ms}),
    }
}

fn vc_json(i: usize, v: &Vc, path: Vec<String>) -> Value {
    v.source.json(json!({"id": format!("vc{i}"), "path": path, "traffic": traffic(v)}))
}

/// A parking lot: switch `i` has host `h{i}` and a trunk to the next switch
/// (the last one's to the destination); VCs and background enter anywhere.
fn parking_lot(c: &Case) -> Value {
    let n = c.ports.len();
    let hosts: Vec<(f64, f64)> = (0..n).map(|i| c.hosts[i % c.hosts.len()]).collect();
    let trunks: Vec<(f64, f64, Value)> =
        c.ports.iter().map(|p| (p.rate_mbps, p.delay_ms, p.port.json())).collect();
    let (nodes, links) = generate::parking_lot(&hosts, &trunks);
    let path = |entry: usize| generate::parking_lot_path(n, entry);
    let vcs: Vec<Value> =
        c.vcs.iter().enumerate().map(|(i, v)| vc_json(i, v, path(v.entry))).collect();
    let background = generate::background_json(&c.background, path);
    scenario(c, nodes, links, vcs, background)
}

/// The benchmark's shape: hosts into `sw0` (a VC's own, or one shared by several),
/// the trunk `sw0 → sw1`, and from `sw1` a link to each VC's own destination
/// or to the shared one. Background crosses the trunk from the first host.
fn star(c: &Case) -> Value {
    let trunk = &c.ports[0];
    let out = |k: usize| &c.ports[k % c.ports.len()];
    let hosts = c.hosts.len();
    let mut nodes = vec![
        json!({"id": "sw0", "kind": "switch"}),
        json!({"id": "sw1", "kind": "switch"}),
        json!({"id": "dst", "kind": "host"}),
    ];
    let mut links = vec![json!({"id": "trunk", "a": "sw0", "b": "sw1",
        "rate_mbps": trunk.rate_mbps, "delay_ms": trunk.delay_ms, "a_to_b": trunk.port.json()})];
    for (h, &(rate, delay)) in c.hosts.iter().enumerate() {
        nodes.push(json!({"id": format!("h{h}"), "kind": "host"}));
        links.push(json!({"id": format!("in{h}"), "a": format!("h{h}"), "b": "sw0",
                          "rate_mbps": rate, "delay_ms": delay}));
    }
    let shared = out(1);
    links.push(json!({"id": "out", "a": "sw1", "b": "dst", "rate_mbps": shared.rate_mbps,
                      "delay_ms": shared.delay_ms, "a_to_b": shared.port.json()}));
    let mut vcs = Vec::new();
    for (i, v) in c.vcs.iter().enumerate() {
        let host = if v.own_host {
            // The benchmark's sources: a host and a link each.
            let (rate, delay) = c.hosts[i % hosts];
            let k = 1.0 + 0.003 * (i + 1) as f64;
            nodes.push(json!({"id": format!("s{i}"), "kind": "host"}));
            links.push(json!({"id": format!("src{i}"), "a": format!("s{i}"), "b": "sw0",
                              "rate_mbps": rate / k, "delay_ms": delay * k}));
            format!("s{i}")
        } else {
            format!("h{}", v.entry % hosts)
        };
        let destination = if v.own_destination {
            let p = out(2 + i);
            nodes.push(json!({"id": format!("d{i}"), "kind": "host"}));
            // A rate of its own, never the trunk's: links of one rate back to
            // back make arrivals coincide with the transmitter freeing.
            links.push(json!({"id": format!("out{i}"), "a": "sw1", "b": format!("d{i}"),
                "rate_mbps": p.rate_mbps * (1.0 + 0.01 * (i + 1) as f64), "delay_ms": p.delay_ms,
                "a_to_b": p.port.json()}));
            format!("d{i}")
        } else {
            "dst".to_string()
        };
        vcs.push(vc_json(i, v, vec![host, "sw0".into(), "sw1".into(), destination]));
    }
    let background = generate::background_json(&c.background, |_| {
        ["h0", "sw0", "sw1", "dst"].map(String::from).to_vec()
    });
    scenario(c, nodes, links, vcs, background)
}

fn scenario(
    c: &Case,
    nodes: Vec<Value>,
    links: Vec<Value>,
    vcs: Vec<Value>,
    bg: Vec<Value>,
) -> Value {
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": "shortcuts",
        "run": {"until_ms": c.until_ms, "sample_interval_ms": 0.5, "seed": c.seed},
        "nodes": nodes, "links": links, "vcs": vcs, "background": bg
    })
}

#[test]
fn generated_runs_are_the_same_without_the_shortcuts() {
    // No shrinking: it moves continuous values to the ends of their ranges,
    // where links share a rate and instants coincide, so a shrunk case would
    // show a tie rule rather than what failed.
    let (mut runner, seed, cases) =
        generate::seeded_runner("SHORTCUT_SEED", 18, "SHORTCUT_CASES", 160, 0);
    println!("shortcuts: SHORTCUT_SEED={seed} SHORTCUT_CASES={cases}");
    let events = std::cell::Cell::new([0u64; 2]);
    let result = runner.run(&case(), |c| {
        let v = if c.star { star(&c) } else { parking_lot(&c) };
        let ([fast, plain], [fast_events, plain_events]) =
            common::with_and_without_shortcuts(v.clone(), f64::INFINITY).expect("a cell scenario");
        prop_assert_eq!(fast, plain, "the shortcuts changed the run of\n{}", v);
        prop_assert!(fast_events <= plain_events, "{} > {} events", fast_events, plain_events);
        let [a, b] = events.get();
        events.set([a + fast_events, b + plain_events]);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\nreplay this search with SHORTCUT_SEED={seed}");
    }
    let [fast, plain] = events.get();
    println!("{cases} runs the same; {fast} events with the shortcuts, {plain} without");
}
