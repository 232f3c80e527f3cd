//! `abrsim run` and `abrsim sweep` end to end on what a user can lose or be
//! shown: an output file replaced only by a run that succeeds, echoed values
//! escaped and clipped, a byte-order mark read, repeated sweep paths and
//! report windows past their limit refused.

use std::path::PathBuf;
use std::process::Command;

fn scenario(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../scenarios").join(name)
}

fn abrsim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_abrsim")).args(args).output().expect("abrsim runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("abrsim-run-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_refused_run_keeps_the_samples_file_it_would_have_replaced() {
    let dir = scratch("csv");
    let csv = dir.join("samples.csv");
    std::fs::write(&csv, "a good file\n").unwrap();
    let wan = scenario("two-source-wan.json");
    let (wan, d) = (wan.to_str().unwrap(), dir.to_str().unwrap());
    let out = abrsim(&["run", wan, "--set", "vcs.vc1.rif=3", "--csv", d]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "a good file\n");
    let out = abrsim(&["run", wan, "--until", "20", "--csv", d]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("t_ms,") && text.lines().count() > 10, "{text:.200}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn echoed_values_are_escaped_and_clipped() {
    let dir = scratch("echo");
    let file = dir.join("s.json");
    let digits = format!("1{}", "0".repeat(308));
    let text = std::fs::read_to_string(scenario("two-source-wan.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["run"]["until_ms"] = serde_json::from_str(&digits).unwrap();
    v["vcs"][0]["id"] = "vc\u{0}\u{202e}1".into();
    v["nodes"][0]["nope\u{1b}[2J"] = 1.into();
    // Written with a byte-order mark, as some editors save UTF-8: read, not refused at column 1.
    std::fs::write(&file, format!("\u{feff}{v}")).unwrap();
    let out = abrsim(&["run", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.contains("line 1 column 1"), "{err}");
    assert!(!err.contains(&digits[..40]), "a 309-digit number echoed: {err}");
    assert!(err.contains("1e308"), "{err}");
    assert!(
        !err.contains('\u{0}') && !err.contains('\u{202e}') && !err.contains('\u{1b}'),
        "{err}"
    );
    assert!(err.contains("\\u{1b}") || err.contains("\\u{001b}"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_path_swept_twice_is_refused_naming_both() {
    let wan = scenario("two-source-wan.json");
    // The same path twice, and `*` beside one of the elements it names.
    for (first, named) in [
        ("vcs.vc1.rif", "axes 1 and 2 both sweep vcs.vc1.rif"),
        ("vcs.*.rif", "both set vcs.vc1.rif"),
    ] {
        let (first, second) = (format!("{first}=1/16,1/8"), "vcs.vc1.rif=1/2");
        let out = abrsim(&["sweep", wan.to_str().unwrap(), "--param", &first, "--param", second]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(named), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn report_windows_past_their_limit_are_refused() {
    let wan = scenario("two-source-wan.json");
    let mut args = vec!["run".to_string(), wan.to_str().unwrap().to_string()];
    for _ in 0..20_000 {
        args.extend(["--window".into(), "0:10".into()]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_abrsim")).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("20000 report windows") && err.contains("limits.max_windows"), "{err}");
}
