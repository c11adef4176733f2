//! Report serialization, schema checks and rendering, on synthetic results.

use ptxsuite::experiments::{RunSettings, SeriesResult, SweepPoint, SweepResult};
use ptxsuite::gpu::{DeviceInfo, Implementation, KernelResources};
use ptxsuite::report::{KernelRecord, PtxRecord, Report, SCHEMA, SCHEMA_VERSION};
use ptxsuite::stats::Summary;

fn device() -> DeviceInfo {
    DeviceInfo {
        ordinal: 0,
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
        pcie_link: Some("32.0 GT/s PCIe x16".into()),
        driver_version: 13000,
    }
}

fn point(value: i64, gbps: Option<f64>) -> SweepPoint {
    SweepPoint {
        value,
        elements: 1 << 20,
        bytes_per_launch: 8 << 20,
        sector_bytes_per_launch: Some(8 << 20),
        flops_per_launch: None,
        time_ms: Summary {
            min: 0.1,
            median: 0.11,
            max: 0.12,
        },
        effective_gbps: gbps.map(|g| Summary {
            min: g - 1.0,
            median: g,
            max: g + 1.0,
        }),
        percent_of_theoretical: gbps.map(|g| 100.0 * g / 3352.32),
        sector_gbps: gbps,
        verified: gbps.is_some(),
        failure: if gbps.is_some() {
            None
        } else {
            Some("element 5 is 0 but the CPU reference says 5".into())
        },
    }
}

fn series(implementation: Implementation, scale: f64, failed_at: Option<i64>) -> SeriesResult {
    SeriesResult {
        name: format!("offset_copy · {}", implementation.label()),
        kernel: "offset_copy".into(),
        implementation,
        element: "f32".into(),
        element_bytes: 4,
        points: [(0, 2600.0), (1, 2500.0), (2, 2400.0)]
            .into_iter()
            .map(|(v, g)| point(v, if Some(v) == failed_at { None } else { Some(g * scale) }))
            .collect(),
    }
}

fn report() -> Report {
    Report {
        schema: SCHEMA.into(),
        schema_version: SCHEMA_VERSION,
        tool_version: "0.1.0".into(),
        generated_unix_s: 1,
        ptx: PtxRecord {
            target: "sm_75".into(),
            isa_version: "7.0".into(),
        },
        device: device(),
        settings: RunSettings::default(),
        kernels: vec![KernelRecord {
            name: "offset_copy".into(),
            implementation: Implementation::Rust,
            dynamic_shared_bytes: 0,
            resources: KernelResources {
                registers_per_thread: 10,
                local_bytes_per_thread: 0,
                static_shared_bytes: 0,
                max_threads_per_block: 1024,
                ptx_version: 70,
                binary_version: 90,
            },
            block_threads: 256,
            active_blocks_per_sm: 8,
            theoretical_occupancy: 1.0,
        }],
        experiments: vec![SweepResult {
            experiment: "offset".into(),
            title: "Misaligned access: offset copy".into(),
            guide_section: "§3.2.1.3".into(),
            parameter: "offset".into(),
            byte_counting: "Br + Bw".into(),
            buffer_bytes: 400 << 20,
            block_threads: 256,
            series: vec![
                series(Implementation::Rust, 1.0, Some(2)),
                series(Implementation::CudaC, 1.25, None),
            ],
            notes: vec!["a note about skipped twins".into()],
        }],
        partial: false,
        stop_reason: None,
        incomplete: Vec::new(),
    }
}

fn partial_report() -> Report {
    let mut r = report();
    r.experiments[0].notes.push(ptxsuite::experiments::stopped_note(2, 33));
    r.mark_partial(
        "stopped by Ctrl-C",
        vec![
            "offset (stopped after 2 of 33 points (the run was interrupted))".into(),
            "stride (not run)".into(),
        ],
    );
    r
}

#[test]
fn partial_reports_round_trip() {
    let r = partial_report();
    let back = Report::from_json(&r.to_json()).unwrap();
    assert_eq!(back, r);
    assert!(back.partial);
    assert_eq!(back.stop_reason.as_deref(), Some("stopped by Ctrl-C"));
    assert_eq!(back.incomplete.len(), 2);
}

#[test]
fn reports_written_before_partial_and_kernel_timeout_still_load() {
    let mut value: serde_json::Value = serde_json::from_str(&report().to_json()).unwrap();
    let object = value.as_object_mut().unwrap();
    object.remove("partial");
    object.remove("stop_reason");
    object.remove("incomplete");
    object["settings"].as_object_mut().unwrap().remove("kernel_timeout_s");
    let old = Report::from_json(&value.to_string()).unwrap();
    assert!(!old.partial && old.stop_reason.is_none() && old.incomplete.is_empty());
    assert_eq!(old.settings.kernel_timeout_s, 60.0);
    assert_eq!(old, report());
}

#[test]
fn markdown_of_a_partial_report_says_it_was_interrupted() {
    let dir = std::env::temp_dir().join(format!("ptxsuite-partial-{}", std::process::id()));
    partial_report().write(&dir).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let top: String = md.lines().take(4).collect::<Vec<_>>().join("\n");
    assert!(top.contains("Partial report: the run was interrupted"), "{top}");
    assert!(top.contains("stopped by Ctrl-C"), "{top}");
    assert!(top.contains("offset (stopped after 2 of 33 points"), "{top}");
    assert!(top.contains("stride (not run)"), "{top}");
    let complete = {
        report().write(&dir).unwrap();
        std::fs::read_to_string(dir.join("report.md")).unwrap()
    };
    assert!(!complete.contains("Partial report"), "a complete report is not marked");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn json_round_trips() {
    let r = report();
    assert_eq!(Report::from_json(&r.to_json()).unwrap(), r);
}

#[test]
fn other_schemas_versions_and_garbage_are_refused() {
    let mut value: serde_json::Value = serde_json::from_str(&report().to_json()).unwrap();
    value["schema_version"] = serde_json::json!(SCHEMA_VERSION + 1);
    let err = Report::from_json(&value.to_string()).unwrap_err().to_string();
    assert!(err.contains("schema version"), "{err}");
    value["schema"] = serde_json::json!("something-else");
    assert!(Report::from_json(&value.to_string()).is_err());
    assert!(Report::from_json("{ not json").is_err());
    let mut truncated: serde_json::Value = serde_json::from_str(&report().to_json()).unwrap();
    truncated.as_object_mut().unwrap().remove("device");
    assert!(Report::from_json(&truncated.to_string()).is_err());
}

#[test]
fn markdown_names_the_gpu_and_marks_failed_points() {
    let dir = std::env::temp_dir().join(format!("ptxsuite-report-{}", std::process::id()));
    report().write(&dir).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("Test GPU") && md.contains("sm_75") && md.contains("CUDA 13.0"));
    assert!(
        md.contains("| 0 | 2600.0 (2599–2601) | 3250.0 (3249–3251) | 0.800 | 2600.0 |"),
        "{md}"
    );
    assert!(
        md.contains("| 2 | **FAILED** | 3000.0 (2999–3001) | — | — |"),
        "a failed point shows no bandwidth:\n{md}"
    );
    assert!(
        md.contains("**FAILED** offset_copy · Rust at offset 2: element 5"),
        "{md}"
    );
    assert!(
        md.contains("ranges 0.800 to 0.800 over 2 points; 0 of them within 3%"),
        "{md}"
    );
    assert!(md.contains("*Note:* a note about skipped twins"));
    assert!(
        md.contains("74") && md.contains("120"),
        "the guide's figures are quoted"
    );
    let svg = std::fs::read_to_string(dir.join("offset.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("offset"),
        "{}",
        &svg[..200.min(svg.len())]
    );
    let json = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert!(Report::from_json(&json).is_ok());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn streams_sweeps_plot_time_and_show_the_model_table() {
    let mut r = report();
    let mut sweep = r.experiments[0].clone();
    sweep.experiment = "streams".into();
    sweep.title = "Staged concurrent copy and execute (streams)".into();
    sweep.parameter = "streams".into();
    sweep.series[1].implementation = Implementation::Model;
    sweep.series[1].name = "model".into();
    r.experiments = vec![sweep];
    let dir = std::env::temp_dir().join(format!("ptxsuite-streams-{}", std::process::id()));
    r.write(&dir).unwrap();
    let svg = std::fs::read_to_string(dir.join("streams.svg")).unwrap();
    assert!(svg.contains("time per pipeline run"), "the streams plot shows time");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        md.contains("| streams | staged ms (min–max) | model ms | measured / model | verified |"),
        "{md}"
    );
    assert!(md.contains("| 0 | 0.110 (0.100–0.120) | 0.110 | 1.000 | yes |"), "{md}");
    let _ = std::fs::remove_dir_all(dir);
}

/// One series of one verified point at `value` that took `ms` every sample and
/// moved `megabytes` (so `megabytes / ms` GB/s).
fn timed_series(kernel: &str, implementation: Implementation, value: i64, ms: f64, megabytes: f64) -> SeriesResult {
    let mut p = point(value, Some(1.0));
    p.time_ms = Summary {
        min: ms,
        median: ms,
        max: ms,
    };
    let gbps = megabytes / ms;
    p.effective_gbps = Some(Summary {
        min: gbps,
        median: gbps,
        max: gbps,
    });
    SeriesResult {
        name: format!("{kernel} · {}", implementation.label()),
        kernel: kernel.into(),
        implementation,
        element: "f32".into(),
        element_bytes: 4,
        points: vec![p],
    }
}

#[test]
fn matmul_tables_show_guide_figures_gflops_speedups_and_twin_ratios() {
    let mut r = report();
    let one = |kernel: &str, implementation: Implementation, ms: f64| {
        let mut s = timed_series(kernel, implementation, 10240, ms, 400.0);
        s.points[0].flops_per_launch = Some(2_000_000_000);
        s
    };
    let mut sweep = r.experiments[0].clone();
    sweep.experiment = "matmul".into();
    sweep.parameter = "M = N".into();
    sweep.series = vec![
        one("simple_multiply", Implementation::Rust, 2.0),
        one("simple_multiply", Implementation::CudaC, 2.0),
        one("shared_ab_multiply", Implementation::Rust, 0.5),
        one("shared_ab_multiply", Implementation::CudaC, 0.4),
        one("simple_multiply_aat", Implementation::Rust, 8.0),
        one("coalesced_multiply_aat_padded", Implementation::Rust, 1.0),
    ];
    r.experiments = vec![sweep];
    let record = |implementation, registers, occupancy| {
        let mut k = r.kernels[0].clone();
        k.name = "shared_ab_multiply".into();
        k.implementation = implementation;
        k.resources.registers_per_thread = registers;
        k.block_threads = 1024;
        k.theoretical_occupancy = occupancy;
        k
    };
    r.kernels = vec![
        record(Implementation::Rust, 32, 1.0),
        record(Implementation::CudaC, 34, 0.5),
    ];
    let md = r.markdown();
    // The 0.8 twin gap is explained from the kernel table; the 1.0 pairs are not mentioned.
    assert!(
        md.contains("**Rust vs CUDA C.** `shared_ab_multiply`: Rust / CUDA C = 0.800; Rust uses 32 registers per thread (100% occupancy at 1024-thread blocks), CUDA C 34 (50%)."),
        "{md}"
    );
    assert!(!md.contains("`simple_multiply`: Rust / CUDA C"), "{md}");
    assert!(md.contains("**Table 3.2: C = AB** (M = N = 10240)"), "{md}");
    assert!(md.contains("**Table 3.3: C = AAᵀ** (M = N = 10240)"), "{md}");
    // 2 GFLOP in 0.5 ms = 4000 GFLOP/s; 4x faster than the 2 ms baseline; 0.8 of the CUDA C bandwidth.
    assert!(
        md.contains("| tiles of A and B in shared memory (no redundant reads) (`shared_ab_multiply`) | 29.7 | 15.7 | 0.500 | 800.0 (800–800) | 4000.0 (4000–4000) | 4.0x | 1000.0 (1000–1000) | 0.800 |"),
        "{md}"
    );
    // The AAᵀ speedup is over the AAᵀ baseline (8 ms), and a missing twin shows a dash.
    assert!(
        md.contains("| 30.4 | 15.6 | 1.000 | 400.0 (400–400) | 2000.0 (2000–2000) | 8.0x | — | — |"),
        "{md}"
    );
}

#[test]
fn matvec_twin_gaps_say_when_both_builds_fit_the_sm_alike() {
    let mut r = report();
    let one =
        |kernel: &str, implementation: Implementation, ms: f64| timed_series(kernel, implementation, 60989, ms, 270.0);
    let mut sweep = r.experiments[0].clone();
    sweep.experiment = "matvec".into();
    sweep.parameter = "height".into();
    sweep.series = vec![
        one("matvec_row_per_thread", Implementation::Rust, 0.162),
        one("matvec_row_per_thread", Implementation::CudaC, 0.163),
        one("matvec_grid_stride_rows", Implementation::Rust, 0.160),
        one("matvec_grid_stride_rows", Implementation::CudaC, 0.184),
    ];
    r.experiments = vec![sweep];
    let record = |implementation, registers| {
        let mut k = r.kernels[0].clone();
        k.name = "matvec_grid_stride_rows".into();
        k.implementation = implementation;
        k.resources.registers_per_thread = registers;
        k.block_threads = 256;
        k.active_blocks_per_sm = 8;
        k.theoretical_occupancy = 1.0;
        k
    };
    r.kernels = vec![record(Implementation::Rust, 32), record(Implementation::CudaC, 30)];
    let md = r.markdown();
    assert!(
        md.contains("**Rust vs CUDA C, height 60989.** `matvec_grid_stride_rows`: Rust / CUDA C = 1.150; Rust uses 32 registers per thread (100% occupancy at 256-thread blocks), CUDA C 30 (100%). Both fit the SM alike, so the builds differ in their instruction schedules"),
        "{md}"
    );
    // Within 3%: no sentence.
    assert!(!md.contains("`matvec_row_per_thread`: Rust / CUDA C"), "{md}");
}

mod comparing {
    use super::report;
    use ptxsuite::report::comparison::compare;
    use std::process::Command;

    #[test]
    fn identical_reports_have_no_regression() {
        let (points, unmatched) = compare(&report(), &report());
        assert_eq!(points.len(), 6);
        assert_eq!(unmatched, 0);
        assert!(points.iter().all(|p| !p.is_regression(0.05)));
        assert!(points.iter().filter_map(|p| p.ratio()).all(|r| r == 1.0));
    }

    #[test]
    fn slower_and_newly_failing_points_are_regressions() {
        let old = report();
        let mut new = report();
        // CUDA C series, offset 1: 10% slower.
        let point = &mut new.experiments[0].series[1].points[1];
        let g = point.effective_gbps.as_mut().unwrap();
        g.median *= 0.9;
        // Rust series, offset 0: now fails verification.
        new.experiments[0].series[0].points[0].effective_gbps = None;
        let (points, _) = compare(&old, &new);
        let regressions: Vec<_> = points.iter().filter(|p| p.is_regression(0.05)).collect();
        assert_eq!(regressions.len(), 2, "{regressions:?}");
        assert!(
            points.iter().filter(|p| p.is_regression(0.15)).count() == 1,
            "10% is within a 15% threshold"
        );
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
        let mut slower = report();
        slower.experiments[0].series[1].points[1]
            .effective_gbps
            .as_mut()
            .unwrap()
            .median *= 0.5;
        std::fs::write(path("new.json"), slower.to_json()).unwrap();
        std::fs::write(path("corrupt.json"), "{ \"schema\": ").unwrap();
        let mut future: serde_json::Value = serde_json::from_str(&report().to_json()).unwrap();
        future["schema_version"] = serde_json::json!(99);
        std::fs::write(path("future.json"), future.to_string()).unwrap();

        let same = binary(&["compare", &path("old.json"), &path("old.json")]);
        assert_eq!(same.status.code(), Some(0), "{}", String::from_utf8_lossy(&same.stderr));
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
        for (file, message) in [("corrupt.json", "not valid JSON"), ("future.json", "schema version 99")] {
            let out = binary(&["compare", &path("old.json"), &path(file)]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{file}");
            assert!(
                stderr.contains(message) && !stderr.contains("panicked"),
                "{file}: {stderr}"
            );
        }
        let bad_threshold = binary(&["compare", &path("old.json"), &path("old.json"), "--threshold", "150"]);
        assert_eq!(bad_threshold.status.code(), Some(1));
        let _ = std::fs::remove_dir_all(dir);
    }
}
