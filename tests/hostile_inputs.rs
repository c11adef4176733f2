//! Hostile inputs, by class (issue 25): what a new user might hand `render`,
//! `compare` and `merge` on a machine without a GPU, and what each class must
//! get. Every case here was handled badly before; each now ends cleanly.
//!
//! * Outputs: never through a link, never over one of the command's inputs,
//!   nothing half-written, a one-line error.
//! * Counts and indices: bounded by what the report declares (GPUs, points)
//!   before anything is sized; inputs above the stated size refused.
//! * Prose: no NaN, infinity or zero figure in a sentence.
//! * Texts: escaped for SVG (well-formed XML) and Markdown (tables stay tables).
//! * Usage errors exit 2; merged reports of other versions say so.
//!
//! Time (render and merge near-linear in the report's size) is `tests/render_scaling.rs`.

mod synthetic_reports;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ptxsuite::experiments;
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::report::{
    Axis, Devices, ExperimentResult, Metric, PlotKind, Point, PointKey, Report, Series, SeriesKey, Status, Work,
};
use ptxsuite::testbed::Implementation;
use serde_json::{Value, json};
use synthetic_reports::{copy_result, device, node_report};

fn ptxsuite<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
        .args(args)
        .output()
        .expect("running ptxsuite")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxsuite-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The command failed with `code`, a one-line error naming `expected`, no panic.
fn refused(out: &Output, code: i32, expected: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains(expected), "expected {expected:?} in:\n{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn report() -> Report {
    node_report("node-a", vec![copy_result(&[Some(3000.0), Some(2900.0)])])
}

fn hooks(name: &str) -> Option<&'static dyn ptxsuite::report::SectionHooks> {
    experiments::hooks(name)
}

/// A two-GPU report with a peer matrix of `pairs` (source, destination, GB/s).
fn peer_report(pairs: &[(usize, usize, f64)]) -> Report {
    let mut r = report();
    r.devices.push(device(1, "NVIDIA H100 80GB HBM3"));
    let key = SeriesKey::new("cuMemcpyPeerAsync", Implementation::CopyEngine, "f32").on(Devices::All);
    let mut series = Series::new(key, "CE copy, one way");
    let work = Work::bytes(1 << 28, 1 << 30);
    for &(src, dst, gbps) in pairs {
        let ms = (1u64 << 30) as f64 / 1e9 / gbps * 1e3;
        series
            .points
            .push(Point::timed(PointKey::Pair { src, dst }, &Metric::Bandwidth, work, &[ms; 3], None).unwrap());
    }
    r.experiments.push(ExperimentResult {
        name: "peer".into(),
        title: "Peer copies".into(),
        source: "nvbandwidth".into(),
        device: None,
        status: Status::Ok,
        axis: Axis::lines("size (MiB)", Metric::Bandwidth).plot(PlotKind::HeatMap),
        byte_counting: String::new(),
        setup: Vec::new(),
        series: vec![series],
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    });
    r
}

fn json_of(report: &Report) -> Value {
    serde_json::from_str(&report.to_json()).unwrap()
}

fn load(value: &Value) -> Result<Report, String> {
    Report::from_json(&value.to_string(), "hostile.json").map_err(|e| e.to_string())
}

mod outputs {
    use super::*;

    #[test]
    fn render_never_writes_through_a_link_and_writes_nothing_when_it_refuses() {
        let dir = scratch("render-link");
        let input = dir.join("report.json");
        std::fs::write(&input, report().to_json()).unwrap();
        let precious = dir.join("precious.txt");
        std::fs::write(&precious, "keep").unwrap();
        let out = dir.join("out");
        std::fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&precious, out.join("report.md")).unwrap();
        let run = ptxsuite(&["render".as_ref(), input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
        refused(&run, 1, "is a symbolic link");
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep");
        assert_eq!(files_in(&out), ["report.md"], "no plot written, no temporary left");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn render_never_replaces_its_own_input() {
        let dir = scratch("render-input");
        let text = report().to_json();
        for name in ["report.md", "ceiling.svg"] {
            let input = dir.join(name);
            std::fs::write(&input, &text).unwrap();
            let run = ptxsuite(&["render".as_ref(), input.as_os_str()]);
            refused(&run, 2, "one of this command's inputs");
            assert_eq!(std::fs::read_to_string(&input).unwrap(), text, "{name} is intact");
            std::fs::remove_file(&input).unwrap();
        }
        assert!(files_in(&dir).is_empty(), "{:?}", files_in(&dir));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn compare_never_writes_its_table_over_a_report_or_through_a_link() {
        let dir = scratch("compare");
        let (old, new) = (dir.join("old.json"), dir.join("new.json"));
        let text = report().to_json();
        std::fs::write(&old, &text).unwrap();
        std::fs::write(&new, &text).unwrap();
        let run = ptxsuite(&[
            "compare".as_ref(),
            old.as_os_str(),
            new.as_os_str(),
            "--markdown".as_ref(),
            new.as_os_str(),
        ]);
        refused(&run, 2, "one of this command's inputs");
        assert_eq!(std::fs::read_to_string(&new).unwrap(), text);
        let link = dir.join("cmp.md");
        std::os::unix::fs::symlink(&old, &link).unwrap();
        let run = ptxsuite(&[
            "compare".as_ref(),
            old.as_os_str(),
            new.as_os_str(),
            "--markdown".as_ref(),
            link.as_os_str(),
        ]);
        refused(&run, 1, "is a symbolic link");
        assert_eq!(std::fs::read_to_string(&old).unwrap(), text);
        assert_eq!(files_in(&dir), ["cmp.md", "new.json", "old.json"]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn merge_never_replaces_a_report_it_merges_nor_follows_a_link() {
        let dir = scratch("merge");
        let a = dir.join("merged.json");
        let a_text = report().to_json();
        std::fs::write(&a, &a_text).unwrap();
        let mut other = report();
        other.host = "node-b".into();
        let b = dir.join("b.json");
        let b_text = other.to_json();
        std::fs::write(&b, &b_text).unwrap();
        let run = ptxsuite(&[
            "merge".as_ref(),
            a.as_os_str(),
            b.as_os_str(),
            "--out".as_ref(),
            dir.as_os_str(),
        ]);
        refused(&run, 2, "one of this command's inputs");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), a_text, "the input is intact");
        assert_eq!(
            files_in(&dir),
            ["b.json", "merged.json"],
            "merged.md was not written either"
        );

        let out = dir.join("out");
        std::fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&b, out.join("merged.md")).unwrap();
        let run = ptxsuite(&[
            "merge".as_ref(),
            a.as_os_str(),
            b.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ]);
        refused(&run, 1, "is a symbolic link");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), b_text);
        assert_eq!(files_in(&out), ["merged.md"]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_successful_render_leaves_only_its_files() {
        let dir = scratch("render-ok");
        let input = dir.join("report.json");
        std::fs::write(&input, report().to_json()).unwrap();
        std::fs::write(dir.join("report.md"), "an old render").unwrap();
        let run = ptxsuite(&["render".as_ref(), input.as_os_str()]);
        assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
        assert_eq!(files_in(&dir), ["ceiling.svg", "report.json", "report.md"]);
        assert!(
            std::fs::read_to_string(dir.join("report.md"))
                .unwrap()
                .starts_with("# ptxsuite report")
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

mod counts_and_sizes {
    use super::*;

    #[test]
    fn a_pair_point_naming_an_undeclared_gpu_is_refused_before_anything_is_sized() {
        for src in [json!(1_000_000), json!(u64::MAX)] {
            let mut v = json_of(&peer_report(&[(0, 1, 390.0), (1, 0, 385.0)]));
            v["experiments"][1]["series"][0]["points"][0]["at"]["src"] = src.clone();
            let err = load(&v).unwrap_err();
            assert!(
                err.contains("names a GPU the report does not list") && err.contains(&src.to_string()),
                "{src}: {err}"
            );
        }
    }

    #[test]
    fn matrices_and_heat_maps_have_a_row_per_gpu_the_points_name() {
        // GPUs 0 and 7 (a run with --device 0,7): two rows, not eight.
        let mut r = peer_report(&[(0, 7, 390.0), (7, 0, 385.0)]);
        r.devices[1].ordinal = CudaOrdinal(7);
        let r = Report::from_json(&r.to_json(), "r.json").unwrap();
        let files = r.render(&hooks).unwrap().files;
        let md = &files.iter().find(|f| f.0 == "report.md").unwrap().1;
        assert!(md.contains("| src \\ dst | GPU 0 | GPU 7 |"), "{md}");
        let svg = &files.iter().find(|f| f.0 == "peer.svg").unwrap().1;
        assert!(svg.contains(">src 7<") && !svg.contains(">src 3<"), "{svg}");
    }

    #[test]
    fn declared_gpus_must_exist_be_unique_and_few() {
        let mut v = json_of(&report());
        v["devices"] = json!([]);
        assert!(load(&v).unwrap_err().contains("lists no GPU"));
        let mut v = json_of(&report());
        let gpu = v["devices"][0].clone();
        v["devices"] = json!([gpu.clone(), gpu]);
        assert!(load(&v).unwrap_err().contains("GPU 0 is listed twice"));
        let mut v = json_of(&report());
        v["devices"] = Value::Array(
            (0..300)
                .map(|i| {
                    let mut d = v["devices"][0].clone();
                    d["ordinal"] = json!(i);
                    d
                })
                .collect(),
        );
        assert!(load(&v).unwrap_err().contains("at most 256"));
        let mut v = json_of(&report());
        v["experiments"][0]["device"] = json!(3);
        assert!(load(&v).unwrap_err().contains("GPU 3, which the report does not list"));
    }

    #[test]
    fn an_experiment_listed_twice_is_refused() {
        let mut r = report();
        r.experiments.push(r.experiments[0].clone());
        let err = Report::from_json(&r.to_json(), "twice.json").unwrap_err().to_string();
        assert!(err.contains("experiment ceiling is listed twice"), "{err}");
    }

    #[test]
    fn figures_beyond_any_measurement_are_refused() {
        let mut v = json_of(&report());
        v["experiments"][0]["series"][0]["points"][0]["value"] = json!({"min": 1e300, "median": 1e300, "max": 1e300});
        assert!(load(&v).unwrap_err().contains("not a measurement"));
        let mut v = json_of(&report());
        v["experiments"][0]["series"][0]["points"][0]["value"] = json!({"min": 0.0, "median": 0.0, "max": 0.0});
        let err = load(&v).unwrap_err();
        assert!(err.contains("zero"), "a zero bandwidth is no measurement: {err}");
    }

    #[test]
    fn a_report_above_the_stated_size_is_refused_unread() {
        let dir = scratch("size");
        let big = dir.join("report.json");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(ptxsuite::report::MAX_REPORT_BYTES + 1).unwrap();
        let run = ptxsuite(&["render".as_ref(), big.as_os_str()]);
        refused(&run, 1, "larger than 64 MiB");
        assert_eq!(files_in(&dir), ["report.json"]);
        let _ = std::fs::remove_dir_all(dir);
    }
}

mod prose {
    use super::*;

    fn markdown(r: &Report) -> String {
        r.markdown(&hooks)
    }

    #[test]
    fn no_sentence_shows_nan_or_infinity_from_extreme_figures() {
        // The largest figures a report may hold and the smallest positive ones, side by side.
        let mut r = peer_report(&[(0, 1, 9e14), (1, 0, 1e-3)]);
        r.experiments[0] = copy_result(&[Some(9e14), Some(1e-12)]);
        let r = Report::from_json(&r.to_json(), "extreme.json").unwrap();
        let md = markdown(&r);
        assert!(!ptxsuite::report::has_nonfinite(&md), "{md}");
        for (_, svg) in r.render(&hooks).unwrap().files {
            assert!(!ptxsuite::report::has_nonfinite(&svg), "{svg}");
        }
    }

    #[test]
    fn a_tie_is_a_tie() {
        use ptxsuite::experiments::PeerTest;
        let mut r = peer_report(&[(0, 1, 390.0), (1, 0, 390.0)]);
        let ce = r.experiments[1].series[0].clone();
        for test in [PeerTest::Pull, PeerTest::Push] {
            let mut s = ce.clone();
            s.key = test.key(Implementation::Rust, Devices::All);
            r.experiments[1].series.push(s);
        }
        r.experiments[1].series[0].key = PeerTest::CopyEngine.key(Implementation::Rust, Devices::All);
        let md = markdown(&r);
        assert!(md.contains("GB/s (level)"), "{md}");
        assert!(!md.contains("wins by"), "{md}");
    }

    #[test]
    fn an_unknown_theoretical_bandwidth_prints_no_formula() {
        let mut r = report();
        r.devices[0].theoretical_bandwidth_gbps = 0.0;
        r.devices[0].memory_clock_khz = 0;
        let md = markdown(&Report::from_json(&r.to_json(), "r.json").unwrap());
        assert!(md.contains("| GPU: theoretical bandwidth | not known"), "{md}");
        assert!(!md.contains("0.0 GB/s ="), "{md}");
    }
}

mod texts {
    use super::*;

    #[test]
    fn control_characters_and_markup_in_free_texts_are_escaped() {
        let mut r = report();
        r.devices[0].name = "GPU\0 with | pipes\nand <b>tags</b>".into();
        r.host = "host\u{1b}[31m".into();
        r.experiments[0].title = "Title & \u{7} [link](x)".into();
        r.experiments[0].notes.push("a note | with a pipe".into());
        let r = Report::from_json(&r.to_json(), "texts.json").unwrap();
        let files = r.render(&hooks).unwrap().files;
        for (name, text) in &files {
            assert!(
                !text.chars().any(|c| c.is_control() && c != '\n'),
                "{name} holds a control character"
            );
            if name.ends_with(".svg") {
                assert!(text.contains("Title &amp; \u{fffd} [link](x)"), "{text}");
                assert!(!text.contains("<b>"), "{text}");
            }
        }
        let md = &files.iter().find(|f| f.0 == "report.md").unwrap().1;
        assert!(
            md.contains("| GPU | GPU\u{fffd} with \\| pipes and &lt;b&gt;tags&lt;/b&gt; (sm_90"),
            "one row, escaped: {md}"
        );
        assert!(md.contains("*Note:* a note \\| with a pipe"), "{md}");
        assert!(
            md.contains("![Title &amp; \u{fffd} \\[link\\](x)](ceiling.svg)")
                || md.contains("![Title & \u{fffd} \\[link\\](x)](ceiling.svg)"),
            "{md}"
        );
    }

    #[test]
    fn names_no_run_writes_are_refused() {
        for (field, bad) in [
            ("label", "a\0b"),
            ("label", "a|b"),
            ("kernel", "k\nl"),
            ("variant", "<script>"),
        ] {
            let mut v = json_of(&report());
            let series = &mut v["experiments"][0]["series"][0];
            if field == "label" {
                series["label"] = json!(bad);
            } else {
                series["key"][field] = json!(bad);
            }
            let err = load(&v).unwrap_err();
            assert!(
                err.contains("which no ptxsuite run writes into a name"),
                "{field} {bad:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
}

mod usage_and_versions {
    use super::*;

    #[test]
    fn an_unknown_experiment_is_a_usage_error() {
        let run = ptxsuite(&["run", "--only", "nosuch"]);
        refused(&run, 2, "unknown experiment \"nosuch\"");
    }

    #[test]
    fn help_into_a_full_disk_is_an_error() {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            eprintln!("SKIPPED help_into_a_full_disk_is_an_error: no /dev/full here");
            return;
        };
        let out = Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
            .arg("--help")
            .stdout(full)
            .output()
            .unwrap();
        refused(&out, 1, "cannot write to standard output");
    }

    #[test]
    fn merged_reports_of_other_versions_and_targets_say_so() {
        let a = report();
        let mut b = report();
        b.host = "node-b".into();
        b.tool_version = "0.0.9".into();
        b.ptx.target = "sm_90".into();
        let merged =
            ptxsuite::merge::merge(&[("a/report.json".into(), a.clone()), ("b/report.json".into(), b)], 5.0).unwrap();
        let md = ptxsuite::merge::markdown(&merged);
        assert!(
            md.contains(&format!(
                "different ptxsuite versions: 0.0.9 (node-b); {} (node-a)",
                a.tool_version
            )),
            "{md}"
        );
        assert!(md.contains("different PTX targets: sm_75"), "{md}");
        assert!(md.contains("sm_90 (PTX ISA"), "{md}");
    }
}
