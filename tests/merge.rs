//! `ptxsuite merge` without a GPU: reports of several nodes made here,
//! merged point by point; the slow node found by the stated rule; the files
//! written (only into --out); refusals of overlapping hosts and other schemas;
//! the exit codes.

mod synthetic_reports;

use std::path::{Path, PathBuf};
use std::process::Command;

use ptxsuite::merge::{MERGED_SCHEMA, MERGED_SCHEMA_VERSION, MergedReport, merge};
use ptxsuite::report::{Metric, Report};
use synthetic_reports::{copy_result, node_report, result, series, time_point};

fn inputs(reports: Vec<Report>) -> Vec<(String, Report)> {
    reports
        .into_iter()
        .map(|r| (format!("results/{}/report.json", r.host), r))
        .collect()
}

/// Node figures of the same 4 points, node `slow` scaled by `factor`.
fn cluster(nodes: &[&str], slow: &str, factor: f64) -> Vec<(String, Report)> {
    let base = [3000.0, 2900.0, 2800.0, 2700.0];
    let reports = nodes
        .iter()
        .enumerate()
        .map(|(i, host)| {
            // Each node a little different (±0.5%), as real nodes are.
            let jitter = 1.0 + 0.005 * (i as f64 - 1.0);
            let scale = if *host == slow { factor } else { jitter };
            node_report(host, vec![copy_result(&base.map(|g| Some(g * scale)))])
        })
        .collect();
    inputs(reports)
}

#[test]
fn points_get_min_median_max_across_nodes() {
    let reports = cluster(&["a", "b", "c"], "none", 1.0);
    let merged = merge(&reports, 5.0).unwrap();
    assert_eq!(merged.nodes.len(), 3);
    assert_eq!(merged.points.len(), 4);
    for point in &merged.points {
        let mut values: Vec<f64> = point.nodes.iter().map(|f| f.value.unwrap()).collect();
        values.sort_by(f64::total_cmp);
        let s = point.across_nodes.unwrap();
        assert_eq!((s.min, s.median, s.max), (values[0], values[1], values[2]));
        assert!(point.missing.is_empty());
    }
    assert!(merged.slow_nodes().is_empty());
    assert!(merged.nodes.iter().all(|n| n.compared_points == 4));
}

#[test]
fn a_node_20_percent_slower_is_named_and_others_are_not() {
    let reports = cluster(&["node-a", "node-b", "node-c", "node-d"], "node-c", 0.8);
    let merged = merge(&reports, 5.0).unwrap();
    let slow: Vec<&str> = merged.slow_nodes().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(slow, vec!["node-c"]);
    let node_c = &merged.nodes[2];
    let series = &node_c.slow_series[0];
    assert_eq!(
        (series.experiment.as_str(), series.device, series.points),
        ("ceiling", Some(0), 4)
    );
    // Against the median of the four (two near 1.0, one 0.8): about 0.8.
    let r = series.relative.unwrap();
    assert!((0.79..0.81).contains(&r), "{r}");
    assert!(merged.points.iter().all(|p| p.nodes[2].slow && !p.nodes[0].slow));
    let text = ptxsuite::merge::summary(&merged);
    assert!(text.contains("SLOW node-c: ceiling (GPU 0) / vector_copy"), "{text}");
    assert!(text.contains("1 slow node beyond 5%: node-c"), "{text}");
    let md = ptxsuite::merge::markdown(&merged);
    assert!(md.contains("| **SLOW** node-c |"), "{md}");
    assert!(md.contains("- **node-c**:"), "{md}");
}

#[test]
fn the_threshold_decides() {
    let reports = cluster(&["a", "b", "c"], "c", 0.93);
    assert_eq!(merge(&reports, 5.0).unwrap().slow_nodes().len(), 1);
    assert_eq!(merge(&reports, 10.0).unwrap().slow_nodes().len(), 0);
}

#[test]
fn one_noisy_point_is_marked_but_does_not_name_the_node() {
    let mut figures = [3000.0, 2900.0, 2800.0, 2700.0].map(Some);
    let mut reports = cluster(&["a", "b", "c"], "none", 1.0);
    figures[1] = Some(2900.0 * 0.92);
    reports[1].1 = node_report("b", vec![copy_result(&figures)]);
    let merged = merge(&reports, 5.0).unwrap();
    assert!(merged.slow_nodes().is_empty());
    assert!(merged.points[1].nodes[1].slow, "the point itself is marked");
}

#[test]
fn a_failed_point_names_its_node() {
    let mut reports = cluster(&["a", "b", "c"], "none", 1.0);
    reports[0].1 = node_report(
        "a",
        vec![copy_result(&[Some(3000.0), None, Some(2800.0), Some(2700.0)])],
    );
    let merged = merge(&reports, 5.0).unwrap();
    let slow = merged.slow_nodes();
    assert_eq!(slow.len(), 1);
    assert_eq!(slow[0].name, "a");
    assert_eq!(slow[0].slow_series[0].failed, 1);
    assert_eq!(merged.points[1].nodes[0].value, None);
    assert!(ptxsuite::merge::markdown(&merged).contains("**FAILED**"));
}

#[test]
fn longer_times_are_slower() {
    let timed = |host: &str, ms: f64| {
        node_report(
            host,
            vec![result(
                "streams",
                0,
                Metric::Time,
                vec![series("staged", 0, vec![time_point(1, ms), time_point(2, ms / 2.0)])],
            )],
        )
    };
    let reports = inputs(vec![timed("a", 10.0), timed("b", 10.1), timed("c", 12.5)]);
    let merged = merge(&reports, 5.0).unwrap();
    let slow: Vec<&str> = merged.slow_nodes().iter().map(|n| n.name.as_str()).collect();
    assert_eq!(slow, vec!["c"]);
    let r = merged.nodes[2].relative.unwrap();
    assert!((r - 10.1 / 12.5).abs() < 1e-9, "{r}");
}

#[test]
fn a_point_one_node_lacks_is_missing_not_slow() {
    let mut reports = cluster(&["a", "b"], "none", 1.0);
    reports[1].1 = node_report("b", vec![copy_result(&[Some(3000.0), Some(2900.0)])]);
    let merged = merge(&reports, 5.0).unwrap();
    assert!(merged.slow_nodes().is_empty());
    assert_eq!(merged.points[3].missing, vec!["b".to_string()]);
    assert_eq!(merged.points[3].nodes[0].relative, None, "nothing to compare with");
    assert_eq!(merged.nodes[0].compared_points, 2);
}

#[test]
fn overlapping_hosts_are_refused() {
    let mut reports = cluster(&["a", "b"], "none", 1.0);
    reports[1].1.host = "a".into();
    let error = merge(&reports, 5.0).unwrap_err().to_string();
    assert!(error.starts_with("overlapping hosts:"), "{error}");
    assert!(
        error.contains("results/a/report.json") && error.contains("results/b/report.json"),
        "{error}"
    );
    assert!(!error.contains('\n'));
}

/// Two lets of a cloud machine both call themselves `vm`: their GPUs' UUIDs tell them apart,
/// and a GPU in both reports is the same node twice.
#[test]
fn one_host_name_with_different_gpus_is_two_nodes() {
    let mut reports = cluster(&["vm", "other"], "none", 1.0);
    reports[1].1.host = "vm".into();
    reports[0].1.devices[0].uuid = Some("GPU-bc21289a".into());
    reports[1].1.devices[0].uuid = Some("GPU-09e7edf5".into());
    let merged = merge(&reports, 5.0).unwrap();
    let names: Vec<&str> = merged.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["vm (GPU-bc21289a)", "vm (GPU-09e7edf5)"]);
    assert!(merged.slow_nodes().is_empty());

    reports[1].1.devices[0].uuid = Some("GPU-bc21289a".into());
    let error = merge(&reports, 5.0).unwrap_err().to_string();
    assert!(
        error.starts_with("overlapping hosts:") && error.contains("share a GPU"),
        "{error}"
    );
    reports[1].1.devices[0].uuid = None;
    let error = merge(&reports, 5.0).unwrap_err().to_string();
    assert!(
        error.starts_with("overlapping hosts:"),
        "no UUID: nothing tells them apart: {error}"
    );
}

#[test]
fn merged_json_round_trips_and_names_its_schema() {
    let merged = merge(&cluster(&["a", "b", "c"], "b", 0.5), 5.0).unwrap();
    let text = merged.to_json();
    assert!(text.contains(&format!("\"schema\": \"{MERGED_SCHEMA}\"")));
    assert_eq!(MergedReport::from_json(&text, "merged.json").unwrap(), merged);
    let other = text.replace(
        &format!("\"schema_version\": {MERGED_SCHEMA_VERSION}"),
        "\"schema_version\": 99",
    );
    assert!(MergedReport::from_json(&other, "merged.json").is_err());
}

// The binary: files, exit codes, one-line errors.

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxsuite-merge-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_reports(dir: &Path, reports: &[(String, Report)]) -> Vec<String> {
    reports
        .iter()
        .map(|(_, report)| {
            let node = dir.join(&report.host);
            std::fs::create_dir_all(&node).unwrap();
            let path = node.join("report.json");
            std::fs::write(&path, report.to_json()).unwrap();
            path.display().to_string()
        })
        .collect()
}

fn ptxsuite(args: &[String]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
        .args(args)
        .output()
        .expect("running ptxsuite")
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_command_writes_only_into_out_and_exits_3_on_a_slow_node() {
    let dir = scratch("slow");
    let mut args = vec!["merge".to_string()];
    args.extend(write_reports(&dir, &cluster(&["n1", "n2", "n3"], "n2", 0.7)));
    let out = dir.join("merged");
    args.extend(["--out".to_string(), out.display().to_string()]);
    let run = ptxsuite(&args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(3),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("SLOW n2"), "{stdout}");
    assert_eq!(listing(&out), vec!["merged.json", "merged.md"]);
    assert_eq!(listing(&dir), vec!["merged", "n1", "n2", "n3"]);
    let merged = MergedReport::from_json(&std::fs::read_to_string(out.join("merged.json")).unwrap(), "m").unwrap();
    assert_eq!(merged.slow_nodes().len(), 1);

    // A looser threshold: nothing slow, exit 0.
    let mut loose = args.clone();
    loose.extend(["--threshold".to_string(), "40".to_string()]);
    assert_eq!(ptxsuite(&loose).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_refuses_overlapping_hosts_and_other_schemas_in_one_line() {
    let dir = scratch("refuse");
    let reports = cluster(&["x", "y"], "none", 1.0);
    let paths = write_reports(&dir, &reports);
    let out = dir.join("merged").display().to_string();
    let run = |files: Vec<String>| {
        let mut args = vec!["merge".to_string()];
        args.extend(files);
        args.extend(["--out".to_string(), out.clone()]);
        ptxsuite(&args)
    };
    let twice = run(vec![paths[0].clone(), paths[0].clone()]);
    let stderr = String::from_utf8_lossy(&twice.stderr);
    assert_eq!(twice.status.code(), Some(1));
    assert!(
        stderr.starts_with("error: overlapping hosts:") && stderr.lines().count() == 1,
        "{stderr}"
    );

    let foreign = dir.join("foreign.json");
    std::fs::write(&foreign, r#"{"schema": "something-else", "schema_version": 1}"#).unwrap();
    let other = run(vec![paths[0].clone(), foreign.display().to_string()]);
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(1));
    assert!(
        stderr.contains("is not a ptxsuite report") && stderr.lines().count() == 1,
        "{stderr}"
    );

    let future = dir.join("future.json");
    std::fs::write(
        &future,
        reports[1]
            .1
            .to_json()
            .replace("\"schema_version\": 2", "\"schema_version\": 7"),
    )
    .unwrap();
    let newer = run(vec![paths[0].clone(), future.display().to_string()]);
    let stderr = String::from_utf8_lossy(&newer.stderr);
    assert_eq!(newer.status.code(), Some(1));
    assert!(
        stderr.contains("schema version 7") && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(!Path::new(&out).exists(), "nothing is written when a report is refused");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn version_1_reports_merge_by_folder_name() {
    let dir = scratch("v1");
    let fixture = include_str!("fixtures/report_v1_h100.json");
    let mut args = vec!["merge".to_string()];
    for node in ["gpu-node-1", "gpu-node-2"] {
        std::fs::create_dir_all(dir.join(node)).unwrap();
        let path = dir.join(node).join("report.json");
        std::fs::write(&path, fixture).unwrap();
        args.push(path.display().to_string());
    }
    args.extend(["--out".to_string(), dir.join("merged").display().to_string()]);
    let run = ptxsuite(&args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("gpu-node-1") && stdout.contains("gpu-node-2"),
        "{stdout}"
    );
    assert!(stdout.contains("0 slow nodes"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
