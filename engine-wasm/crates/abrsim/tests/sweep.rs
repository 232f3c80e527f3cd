//! `abrsim sweep` end to end: the binary over the default scenario, a 3×2 grid on several cores.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn scenario(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../scenarios").join(name)
}

fn abrsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_abrsim")).args(args).output().expect("abrsim runs")
}

fn rows(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn a_rif_by_rdf_grid_prints_one_row_per_point_in_grid_order() {
    let wan = scenario("two-source-wan.json");
    let args = [
        "sweep",
        wan.to_str().unwrap(),
        "--param",
        "vcs.*.rif=1/64,1/16,1",
        "--param",
        "defaults.vc.rdf=1/16,1",
        "--until",
        "140",
        "--window",
        "110:140",
        "--jobs",
        "3",
    ];
    let out = abrsim(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = rows(&out.stdout);
    assert_eq!(rows.len(), 6);
    let rifs: Vec<f64> = rows.iter().map(|r| r["params"]["vcs.*.rif"].as_f64().unwrap()).collect();
    assert_eq!(rifs, [1.0 / 64.0, 1.0 / 64.0, 0.0625, 0.0625, 1.0, 1.0]);
    let rdfs: Vec<f64> =
        rows.iter().map(|r| r["params"]["defaults.vc.rdf"].as_f64().unwrap()).collect();
    assert_eq!(rdfs, [0.0625, 1.0, 0.0625, 1.0, 0.0625, 1.0]);
    for r in &rows {
        let util = r["utilization"].as_f64().unwrap();
        let fair = r["fairness"].as_f64().unwrap();
        assert!(util > 0.5 && util <= 1.0, "bottleneck utilisation {util}");
        assert!(fair > 0.5 && fair <= 1.0, "fairness {fair}");
        assert!(
            r["max_queue"].as_f64().unwrap() > 0.0,
            "S2 joining at ICR 150 Mbit/s builds a queue"
        );
        assert_eq!(r["cells_lost"].as_f64().unwrap(), 0.0);
    }
    // ERICA ignores RIF's cap only up to RIF·PCR per BRM: the most conservative RIF never queues more.
    assert!(rows[0]["max_queue"].as_f64() <= rows[4]["max_queue"].as_f64());

    // The same grid on one core prints the same figures (each point is its own seeded run).
    let serial = abrsim(&[&args[..args.len() - 1], &["1"]].concat());
    assert!(serial.status.success());
    let strip = |mut rs: Vec<Value>| {
        for r in &mut rs {
            r.as_object_mut().unwrap().remove("events");
        }
        rs
    };
    assert_eq!(strip(rows), strip(self::rows(&serial.stdout)));
}

#[test]
fn each_row_agrees_with_abrsim_run_with_the_same_overrides() {
    let wan = scenario("two-source-wan.json");
    let path = wan.to_str().unwrap();
    let out = abrsim(&["sweep", path, "--param", "vcs.vc1.nrm=8,256", "--until", "60"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = rows(&out.stdout);
    assert_eq!(rows.len(), 2);
    let report: Value = serde_json::from_slice(
        &abrsim(&["run", path, "--until", "60", "--set", "vcs.vc1.nrm=256"]).stdout,
    )
    .unwrap();
    let totals = &report["totals"];
    assert_eq!(rows[1]["fairness"], totals["fairness"]);
    // The switch ports of this topology: SW1 and SW2 towards everything, hosts excluded.
    let switch_ports = ["l1:rev", "l2:rev", "l3", "l3:rev", "l4", "l5"];
    let max_queue = switch_ports
        .iter()
        .map(|p| totals["ports"][p]["queue_max"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(rows[1]["max_queue"].as_f64().unwrap(), max_queue);
    let lost: f64 = totals["ports"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p["cells_lost"].as_f64().unwrap())
        .sum();
    assert_eq!(rows[1]["cells_lost"].as_f64().unwrap(), lost);
}

#[test]
fn a_bad_value_names_its_path_and_exits_2_before_running_anything() {
    let wan = scenario("two-source-wan.json");
    let out = abrsim(&["sweep", wan.to_str().unwrap(), "--param", "vcs.*.rif=1/16,0.3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("vcs.vc1.rif"), "{err}");
    assert!(err.contains("power of two"), "{err}");
    assert!(out.stdout.is_empty());

    let out = abrsim(&["sweep", wan.to_str().unwrap(), "--param", "nodes.*.nope.x=1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = abrsim(&["sweep", wan.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--param"));
}

#[test]
fn packet_level_scenarios_sweep_too() {
    let path = scenario("pletka-fmin-fairness.json");
    let out = abrsim(&[
        "sweep",
        path.to_str().unwrap(),
        "--param",
        "links.bottleneck.a_to_b.aqm.flows.cbr2.f_min_mbps=0,50",
        "--until",
        "3000",
        "--jobs",
        "2",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = rows(&out.stdout);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert!(r["packets_lost"].is_number(), "{r}");
        assert!(r.get("cells_lost").is_none());
        let util = r["utilization"].as_f64().unwrap();
        assert!(util > 0.5 && util <= 1.0, "{r}");
        assert!(r["fairness"].as_f64().unwrap() > 0.0, "{r}");
    }
}

#[test]
fn five_axes_of_a_hundred_values_are_refused_before_anything_is_made() {
    // 10^10 points: once built up front until memory ran out; now counted from the axes' lengths.
    let wan = scenario("two-source-wan.json");
    let values: Vec<String> = (1..=100).map(|v| v.to_string()).collect();
    let params: Vec<String> =
        ["vcs.*.nrm", "vcs.*.trm_ms", "vcs.*.tbe_cells", "run.seed", "vcs.*.crm"]
            .iter()
            .map(|p| format!("{p}={}", values.join(",")))
            .collect();
    let mut args = vec!["sweep", wan.to_str().unwrap()];
    for p in &params {
        args.extend(["--param", p.as_str()]);
    }
    let out = abrsim(&args);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("10000000000 points"), "{err}");
    assert!(err.contains("vcs.*.nrm (100)") && err.contains("vcs.*.crm (100)"), "{err}");
    assert!(err.contains("more than the limit of 10000 (limits.max_sweep_points)"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_grid_streams_its_rows_in_order_whatever_the_jobs() {
    // 24 points on 1 and 3 workers: the same rows in the same (grid) order, each written as it is
    // done; the workers never run more than a few points ahead of the last row written.
    let wan = scenario("two-source-wan.json");
    let run = |jobs: &str| {
        let out = abrsim(&[
            "sweep",
            wan.to_str().unwrap(),
            "--param",
            "vcs.*.rif=1/64,1/16,1/4,1",
            "--param",
            "defaults.vc.rdf=1/16,1",
            "--param",
            "vcs.vc1.nrm=8,16,32",
            "--until",
            "20",
            "--jobs",
            jobs,
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        rows(&out.stdout)
    };
    let one = run("1");
    assert_eq!(one.len(), 24);
    assert_eq!(one, run("3"));
    // The first axis varies slowest, the last fastest.
    assert_eq!(one[0]["params"]["vcs.*.rif"], 1.0 / 64.0);
    assert_eq!(one[1]["params"]["vcs.vc1.nrm"], 16);
    assert_eq!(one[3]["params"]["defaults.vc.rdf"], 1);
    assert_eq!(one[6]["params"]["vcs.*.rif"], 1.0 / 16.0);
}

#[cfg(unix)]
#[test]
fn an_endless_file_is_refused_at_the_input_limit() {
    // `abrsim run /dev/zero` read until memory ran out.
    for args in [vec!["run", "/dev/zero"], vec!["sweep", "/dev/zero", "--param", "run.seed=1,2"]] {
        let out = abrsim(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("limits.max_input_bytes"), "{args:?}: {err}");
    }
}
