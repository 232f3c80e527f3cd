//! The runner's own bounds: scenario files read up to the input
//! limit and undefined sample values written as empty CSV cells. (Sweep grids
//! are counted before any point is made by `sim_core::sweep::Grid`.)

/// Reads a scenario file, refusing one longer than `max_bytes` (`abrsim run
/// /dev/zero` stops at the limit with a message, not when memory runs out).
pub fn read_text(path: &std::path::Path, max_bytes: usize) -> Result<String, String> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max_bytes as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if bytes.len() > max_bytes {
        return Err(format!(
            "{}: longer than the limit of {max_bytes} bytes (limits.max_input_bytes; raise it with --limit max_input_bytes=N)",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8 text: {e}", path.display()))
}

/// A sample value as a CSV cell: an undefined value (NaN, e.g. a ratio with
/// nothing to divide by) is an empty cell, never the text "NaN".
pub fn csv_cell(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::Axis;
    use sim_core::runner::{run_report, RunOptions};
    use sim_core::scenario::Limits;
    use sim_core::sweep::Grid;

    #[test]
    fn a_grid_of_ten_billion_points_is_refused_at_once() {
        let axes: Vec<Axis> = (0..5)
            .map(|k| Axis {
                path: format!("p{k}"),
                values: (0..100).map(|v| v.to_string()).collect(),
            })
            .collect();
        let check = |limits: &Limits| Grid::new(axes.clone(), limits.max_sweep_points);
        let e = check(&Limits::default()).unwrap_err();
        assert!(e.contains("10000000000 points") && e.contains("limits.max_sweep_points"), "{e}");
        let mut limits = Limits::default();
        limits.set("max_sweep_points", 1e11).unwrap();
        assert_eq!(check(&limits).map(|g| g.len()), Ok(10_000_000_000));
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_file_stops_at_the_input_limit() {
        let e = read_text(std::path::Path::new("/dev/zero"), 1_000_000).unwrap_err();
        assert!(e.contains("limits.max_input_bytes"), "{e}");
    }

    #[test]
    fn undefined_sample_values_are_empty_csv_cells() {
        assert_eq!(csv_cell(f64::NAN), "");
        assert_eq!(csv_cell(f64::INFINITY), "");
        assert_eq!(csv_cell(0.25), "0.25");
        // pletka-fmin-fairness has no TCP flow: its ratio is undefined in every row.
        let path =
            format!("{}/../../../scenarios/pletka-fmin-fairness.json", env!("CARGO_MANIFEST_DIR"));
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        // Its claims read windows of the full run; this one is shorter.
        value.as_object_mut().unwrap().remove("claims");
        let text = value.to_string();
        let opts = RunOptions { until_ms: Some(500.0), ..RunOptions::default() };
        let mut csv = String::new();
        run_report(&text, &opts, &|| 0.0, &mut |src, rows| {
            for row in rows.chunks_exact(src.columns().len()) {
                csv += &row.iter().map(|&x| csv_cell(x)).collect::<Vec<_>>().join(",");
                csv.push('\n');
            }
        })
        .unwrap();
        assert!(!csv.is_empty() && !csv.contains("NaN"), "{csv}");
        assert!(csv.lines().all(|l| l.contains(",,")), "an empty ratio cell in every row");
    }
}
