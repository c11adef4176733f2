//! Report serialization, schema checks (version 2, version 1 converted),
//! validation of loaded figures, rendering and comparison, on synthetic
//! results and on a version 1 report of a real H100 run.

use ptxsuite::experiments;
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::gpu::{DeviceInfo, KernelResources};
use ptxsuite::report::comparison::compare;
use ptxsuite::report::{
    Axis, Devices, ExperimentResult, KernelRecord, Metric, Point, PointKey, Report, SCHEMA_VERSION, Series, SeriesKey,
    Status, Work,
};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::Implementation;

const V1_REPORT: &str = include_str!("fixtures/report_v1_h100.json");

fn device(ordinal: usize) -> DeviceInfo {
    DeviceInfo {
        ordinal: CudaOrdinal(ordinal),
        name: "Test GPU".into(),
        compute_capability: (9, 0),
        multiprocessors: 132,
        l2_cache_bytes: 50 << 20,
        total_memory_bytes: 80 << 30,
        memory_clock_khz: 2_619_000,
        memory_bus_width_bits: 5120,
        sm_clock_khz: 1_980_000,
        theoretical_bandwidth_gbps: 3352.32,
        ecc_enabled: true,
        can_map_host_memory: true,
        async_copy_engines: 3,
        max_threads_per_multiprocessor: 2048,
        max_shared_memory_per_multiprocessor: 233_472,
        pci_bus_id: "0000:00:06".into(),
        max_texture_1d_linear_texels: 1 << 28,
        uuid: Some("GPU-00112233-4455-6677-8899-aabbccddeeff".into()),
        pcie_link: Some("32.0 GT/s PCIe x16".into()),
        driver_version: 13000,
    }
}

/// A point of `gbps` GB/s (8 MiB per launch), or a failed one.
fn point(value: i64, gbps: Option<f64>) -> Point {
    let bytes = 8u64 << 20;
    let ms = |g: f64| bytes as f64 / 1e9 / g * 1e3;
    match gbps {
        Some(g) => Point::timed(
            PointKey::Value(value),
            &Metric::Bandwidth,
            Work::bytes(1 << 20, bytes),
            &[ms(g * 1.01), ms(g), ms(g * 0.99)],
            None,
        )
        .map(|p| p.with_extra("% of peak", 100.0 * g / 3352.32)),
        None => Point::timed(
            PointKey::Value(value),
            &Metric::Bandwidth,
            Work::bytes(1 << 20, bytes),
            &[1.0],
            Some("element 5 is 0 but the CPU reference says 5".into()),
        ),
    }
    .unwrap()
}

fn series(implementation: Implementation, scale: f64, failed_at: Option<i64>) -> Series {
    let mut s = Series::of(SeriesKey::new("offset_copy", implementation, "f32"));
    s.points = [(0, 2600.0), (1, 2500.0), (2, 2400.0)]
        .into_iter()
        .map(|(v, g)| point(v, if Some(v) == failed_at { None } else { Some(g * scale) }))
        .collect();
    s
}

fn offset_result(failed_at: Option<i64>) -> ExperimentResult {
    ExperimentResult {
        name: "offset".into(),
        title: "Misaligned access: offset copy".into(),
        source: "§3.2.1.3".into(),
        device: Some(0),
        status: Status::Ok,
        axis: Axis::lines("offset", Metric::Bandwidth),
        byte_counting: "Br + Bw".into(),
        setup: vec!["buffers of 400 MiB each".into()],
        series: vec![
            series(Implementation::Rust, 1.0, failed_at),
            series(Implementation::CudaC, 1.25, None),
        ],
        waived: Vec::new(),
        notes: vec!["a note".into()],
        artifacts: Vec::new(),
    }
}

fn kernel(name: &str, implementation: Implementation, registers: i32, occupancy: f64) -> KernelRecord {
    KernelRecord {
        name: name.into(),
        implementation,
        device: 0,
        resources: KernelResources {
            registers_per_thread: registers,
            local_bytes_per_thread: 0,
            static_shared_bytes: 0,
            max_threads_per_block: 1024,
            ptx_version: 70,
            binary_version: 90,
        },
        block_threads: 256,
        dynamic_shared_bytes: 0,
        active_blocks_per_sm: 8,
        theoretical_occupancy: occupancy,
        opencl: None,
    }
}

fn report() -> Report {
    Report::new(
        vec![device(0)],
        &RunSettings::default(),
        Vec::new(),
        vec![
            kernel("offset_copy", Implementation::Rust, 10, 1.0),
            kernel("offset_copy", Implementation::CudaC, 12, 0.5),
        ],
        vec![offset_result(Some(2))],
    )
}

fn hooks(name: &str) -> Option<&'static dyn ptxsuite::report::SectionHooks> {
    experiments::hooks(name)
}

#[test]
fn json_round_trips_at_schema_version_2() {
    let r = report();
    let text = r.to_json();
    assert!(text.contains("\"schema_version\": 2"), "{text}");
    assert_eq!(Report::from_json(&text, "r.json").unwrap(), r);
    assert_eq!(SCHEMA_VERSION, 2);
}

#[test]
fn version_1_reports_load_with_the_keys_todays_experiments_give() {
    let r = Report::from_json(V1_REPORT, "old.json").unwrap();
    assert_eq!(r.schema_version, 2);
    assert_eq!(r.devices.len(), 1);
    assert_eq!(r.devices[0].name, "NVIDIA H100 80GB HBM3");
    let names: Vec<&str> = r.experiments.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names.len(), 12, "{names:?}");
    let transfers = r.experiments.iter().find(|e| e.name == "transfers").unwrap();
    let pinned = transfers
        .variant("cuMemcpyHtoD", Implementation::CopyEngine, "pinned")
        .expect("the H2D pinned series, keyed by call, copy engine and memory kind");
    assert!(pinned.points[0].median().unwrap() > 0.0);
    let sgemm = r.experiments.iter().find(|e| e.name == "sgemm").unwrap();
    assert_eq!(sgemm.axis.metric, Metric::Gflops);
    let tiled = sgemm.series_of("tiled_sgemm", Implementation::Rust).unwrap();
    let p = &tiled.points[0];
    let expected = p.flops.unwrap() as f64 / 1e9 / (p.time_ms.unwrap().median / 1e3);
    assert!(
        (p.median().unwrap() / expected - 1.0).abs() < 1e-9,
        "GFLOP/s from the v1 time"
    );
    let streams = r.experiments.iter().find(|e| e.name == "streams").unwrap();
    assert_eq!(streams.axis.metric, Metric::Time);
    assert!(streams.variant("fma_chain", Implementation::Model, "staged").is_some());
    // A version 1 report compared with itself: every point matched, none lost.
    let same = compare(&r, &r);
    assert!(same.lost.is_empty() && same.only_new == 0 && !same.points.is_empty());
    assert!(same.points.iter().all(|p| p.speedup() == Some(1.0)));
    // And it renders with today's sections.
    let md = r.markdown(&hooks);
    assert!(
        md.contains("Table 3.2: C = AB") && md.contains("| streams | staged ms"),
        "{md}"
    );
}

#[test]
fn other_schemas_versions_garbage_and_byte_order_marks() {
    let err = Report::from_json("{ nope", "bad.json").unwrap_err().to_string();
    assert!(err.contains("bad.json is not valid JSON"), "the file is named: {err}");
    let err = Report::from_json("{\"schema\": \"other\"}", "x.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("x.json is not a ptxsuite report"), "{err}");
    let mut future: serde_json::Value = serde_json::from_str(&report().to_json()).unwrap();
    future["schema_version"] = serde_json::json!(99);
    let err = Report::from_json(&future.to_string(), "f.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("schema version 99") && err.contains("f.json"), "{err}");
    let with_bom = format!("\u{feff}{}", report().to_json());
    assert!(
        Report::from_json(&with_bom, "bom.json").is_ok(),
        "a byte-order mark is read"
    );
}

#[test]
fn figures_no_measurement_can_give_are_refused_on_load() {
    let text = report().to_json();
    for (what, field, number) in [
        ("negative", "min", "-1.0"),
        ("above its median", "min", "1e9"),
        ("beyond f64", "max", "1e999"),
    ] {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let point = &mut v["experiments"][0]["series"][1]["points"][0];
        point["value"][field] = serde_json::Value::Null;
        let edited = v
            .to_string()
            .replacen(&format!("\"{field}\":null"), &format!("\"{field}\":{number}"), 1);
        let err = Report::from_json(&edited, "r.json")
            .err()
            .unwrap_or_else(|| panic!("{what} was accepted"));
        assert!(err.to_string().contains("r.json"), "{what}: {err}");
    }
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["experiments"][0]["series"][1]["points"][0]["time_ms"]["min"] = serde_json::json!(0.0);
    let err = Report::from_json(&v.to_string(), "r.json").unwrap_err().to_string();
    assert!(
        err.contains("times must be finite, above 0") && err.contains("offset"),
        "{err}"
    );
}

#[test]
fn markdown_names_the_gpu_and_marks_failed_points() {
    let md = report().markdown(&hooks);
    assert!(
        md.contains("Test GPU") && md.contains("sm_90") && md.contains("3352.3 GB/s"),
        "{md}"
    );
    assert!(md.contains("GPU-00112233"), "the UUID is in the header");
    assert!(md.contains("**FAILED**"), "{md}");
    assert!(md.contains("![Misaligned access: offset copy](offset.svg)"));
    assert!(md.contains("**Rust vs CUDA C.**"), "{md}");
    // Rust at 0.8 of its twin with fewer registers and more occupancy: the gap sentence says so.
    assert!(md.contains("Rust uses 10 registers per thread (100% occupancy"), "{md}");
    assert!(
        md.contains("% of peak (offset_copy · Rust)"),
        "the % of peak column exists: {md}"
    );
}

#[test]
fn waived_and_not_run_experiments_say_why_and_partial_reports_say_they_were_interrupted() {
    let mut r = report();
    r.experiments[0].series[0].points[2] = point(2, Some(2400.0));
    let mut waived = offset_result(None);
    waived.name = "zero-copy".into();
    waived.title = "Zero copy".into();
    waived.series.clear();
    waived.status = Status::Waived("Test GPU cannot map host memory".into());
    r.experiments.push(waived);
    let md = r.markdown(&hooks);
    assert!(md.contains("**Waived:** Test GPU cannot map host memory"), "{md}");
    assert!(!md.contains("Partial report"));
    r.experiments[1].status = Status::NotRun("stopped by Ctrl-C".into());
    r.mark_partial("stopped by Ctrl-C");
    let md = r.markdown(&hooks);
    assert!(md.contains("Partial report: the run was interrupted"), "{md}");
    assert!(md.contains("zero-copy (not run: stopped by Ctrl-C)"), "{md}");
    assert_eq!(
        Report::from_json(&r.to_json(), "p.json").unwrap(),
        r,
        "partial reports round-trip"
    );
}

#[test]
fn rendering_checks_every_file_name_before_writing_and_never_writes_report_json() {
    let dir = std::env::temp_dir().join(format!("ptxsuite-render-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut r = report();
    r.experiments.push({
        let mut e = offset_result(None);
        e.name = "../escape".into();
        e
    });
    assert!(r.render(&hooks).is_err(), "a name leaving the folder is refused");
    assert!(!dir.exists(), "nothing was written");
    let r = report();
    let rendered = r.render(&hooks).unwrap();
    let names: Vec<&str> = rendered.files.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        names.contains(&"report.md") && names.contains(&"offset.svg"),
        "{names:?}"
    );
    assert!(
        names.contains(&"offset-relative.svg"),
        "the experiment's extra plot: {names:?}"
    );
    assert!(!names.contains(&"report.json"));
    let mut twice = report();
    twice.experiments.push(offset_result(None));
    let err = twice.render(&hooks).unwrap_err().to_string();
    assert!(err.contains("offset.svg"), "{err}");
}

#[test]
fn reports_of_several_gpus_have_a_section_per_gpu_and_files_per_gpu() {
    let mut r = report();
    r.devices.push(device(1));
    let mut second = offset_result(None);
    second.device = Some(1);
    for s in &mut second.series {
        s.key = s.key.clone().on(Devices::One(1));
    }
    r.experiments.push(second);
    let md = r.markdown(&hooks);
    assert!(
        md.contains("# GPU 0: Test GPU") && md.contains("# GPU 1: Test GPU"),
        "{md}"
    );
    let names: Vec<String> = r.render(&hooks).unwrap().files.into_iter().map(|f| f.0).collect();
    assert!(names.contains(&"offset-gpu0.svg".to_string()) && names.contains(&"offset-gpu1.svg".to_string()));
}

mod comparing {
    use super::*;
    use std::process::Command;

    #[test]
    fn identical_reports_have_no_regression() {
        let c = compare(&report(), &report());
        assert_eq!(c.points.len(), 6);
        assert_eq!((c.only_new, c.lost.len()), (0, 0));
        assert!(c.points.iter().all(|p| !p.is_regression(0.05)));
    }

    #[test]
    fn slower_and_newly_failing_points_are_regressions() {
        let old = report();
        let mut new = report();
        let v = new.experiments[0].series[1].points[1].value.as_mut().unwrap();
        (v.min, v.median, v.max) = (v.min * 0.9, v.median * 0.9, v.max * 0.9); // CUDA C, offset 1: 10% slower
        new.experiments[0].series[0].points[0] = point(0, None); // Rust, offset 0: now fails
        let c = compare(&old, &new);
        assert_eq!(c.regressions(0.05).len(), 2, "{:?}", c.regressions(0.05));
        assert_eq!(c.regressions(0.15).len(), 1, "10% is within a 15% threshold");
    }

    #[test]
    fn points_are_found_by_key_not_by_label() {
        let old = report();
        let mut new = report();
        new.experiments[0].series[1].label = "renamed".into();
        new.experiments[0].series.swap(0, 1);
        let c = compare(&old, &new);
        assert_eq!(c.points.len(), 6);
        assert!(c.lost.is_empty());
    }

    #[test]
    fn lost_coverage_duplicates_and_incomparable_old_values_are_reported() {
        let old = report();
        let mut new = report();
        new.experiments[0].series[1].points.pop(); // a lost point
        new.experiments.push(offset_result(None)); // a duplicated experiment
        let c = compare(&old, &new);
        assert_eq!(c.lost.len(), 1, "{:?}", c.lost);
        assert!(c.lost[0].contains("offset_copy · CUDA C"), "{:?}", c.lost);
        assert_eq!(c.duplicates.len(), 1);
        assert_eq!(c.points.len(), 5, "the duplicate is not counted twice");
        let mut zero = report();
        zero.experiments[0].series[1].points[0].value.as_mut().unwrap().median = 0.0;
        let c = compare(&zero, &report());
        assert_eq!(c.points.iter().filter(|p| p.is_incomparable()).count(), 1);
        let mut partial = report();
        partial.mark_partial("stopped by Ctrl-C");
        assert!(compare(&report(), &partial).lost_coverage());
        let mut fewer = report();
        fewer.experiments.clear();
        assert_eq!(compare(&report(), &fewer).lost, ["experiment offset"]);
    }

    fn binary(args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
            .args(args)
            .output()
            .unwrap()
    }

    #[test]
    fn compare_command_exit_codes_are_usable_in_ci() {
        let dir = std::env::temp_dir().join(format!("ptxsuite-compare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
        std::fs::write(path("old.json"), report().to_json()).unwrap();
        std::fs::write(path("v1.json"), V1_REPORT).unwrap();
        let mut slower = report();
        let v = slower.experiments[0].series[1].points[1].value.as_mut().unwrap();
        (v.min, v.median, v.max) = (v.min * 0.5, v.median * 0.5, v.max * 0.5);
        std::fs::write(path("new.json"), slower.to_json()).unwrap();
        let mut partial = report();
        partial.mark_partial("stopped by Ctrl-C");
        std::fs::write(path("partial.json"), partial.to_json()).unwrap();
        std::fs::write(path("corrupt.json"), "{ \"schema\": ").unwrap();

        let same = binary(&["compare", &path("old.json"), &path("old.json")]);
        assert_eq!(same.status.code(), Some(0), "{}", String::from_utf8_lossy(&same.stderr));
        let v1 = binary(&["compare", &path("v1.json"), &path("v1.json")]);
        assert_eq!(v1.status.code(), Some(0), "{}", String::from_utf8_lossy(&v1.stderr));
        let regressed = binary(&[
            "compare",
            &path("old.json"),
            &path("new.json"),
            "--markdown",
            &path("cmp.md"),
        ]);
        assert_eq!(regressed.status.code(), Some(3));
        assert!(String::from_utf8_lossy(&regressed.stdout).contains("REGRESSION offset"));
        assert!(std::fs::read_to_string(path("cmp.md")).unwrap().contains("**0.500**"));
        let lost = binary(&["compare", &path("old.json"), &path("partial.json")]);
        assert_eq!(lost.status.code(), Some(4), "{}", String::from_utf8_lossy(&lost.stdout));
        assert!(String::from_utf8_lossy(&lost.stdout).contains("LOST COVERAGE"));
        let corrupt = binary(&["compare", &path("old.json"), &path("corrupt.json")]);
        let stderr = String::from_utf8_lossy(&corrupt.stderr);
        assert_eq!(corrupt.status.code(), Some(1));
        assert!(
            stderr.contains("corrupt.json is not valid JSON") && !stderr.contains("panicked"),
            "{stderr}"
        );
        let bad_threshold = binary(&["compare", &path("old.json"), &path("old.json"), "--threshold", "150"]);
        assert_eq!(bad_threshold.status.code(), Some(2), "a usage error");
        let _ = std::fs::remove_dir_all(dir);
    }
}
