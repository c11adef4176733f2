//! The CUPTI layer against a stand-in library (tests/fixtures/fake_cupti.c,
//! compiled here with the system's C compiler into a `libcupti.so`):
//! loading by path and through `$PTXSUITE_CUPTI`, the parameter structs'
//! sizes (the stand-in refuses any other), CUPTI's error names, the profiler
//! session, metric sets that refuse metric by metric, a collection replayed
//! once per pass inside its range, the collector's cached metric sets and a
//! device turned off for lack of permission, and the mapping of the values
//! to the report's figures.
//!
//! Without a C compiler each test prints `SKIPPED ...` and passes.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use ptxsuite::counters::{Counted, HardwareCounter, SharedAccess};
use ptxsuite::cupti::{
    CollectError, CounterCollector, Cupti, CuptiError, MetricHost, MetricSet, ProfilerSession, RawContext, collect,
};

/// Compiles the stand-in into a folder of its own (each test gets its own copy, so its
/// state is its own); `None` after saying so when there is no C compiler.
fn fake_library(test: &str) -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("ptxsuite-fake-cupti-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let library = dir.join(if test == "probe" {
        "libcupti.so.13"
    } else {
        "libcupti.so"
    });
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_cupti.c");
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    match Command::new(&compiler)
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&library)
        .arg(&source)
        .output()
    {
        Ok(out) if out.status.success() => Some(library),
        Ok(out) => panic!(
            "the fake CUPTI did not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: no C compiler ({compiler}: {e})");
            None
        }
    }
}

/// The stand-in's test controls, through a second handle on the same file (same state).
struct Fake {
    library: libloading::Library,
}

impl Fake {
    fn open(path: &PathBuf) -> Self {
        // SAFETY: the stand-in compiled above; loading it has no side effects.
        Self {
            library: unsafe { libloading::Library::new(path) }.unwrap(),
        }
    }

    fn count(&self, name: &str) -> i32 {
        // SAFETY: every fake_cupti_* counter is `int f(void)`.
        let f: libloading::Symbol<unsafe extern "C" fn() -> i32> =
            unsafe { self.library.get(name.as_bytes()) }.unwrap();
        // SAFETY: a plain read of a counter.
        unsafe { f() }
    }

    fn deny(&self, deny: bool) {
        // SAFETY: `void fake_cupti_deny(int)`.
        let f: libloading::Symbol<unsafe extern "C" fn(i32)> = unsafe { self.library.get(b"fake_cupti_deny") }.unwrap();
        // SAFETY: sets a flag.
        unsafe { f(deny as i32) }
    }

    fn launch(&self) {
        // SAFETY: `void fake_cupti_launch(void)`.
        let f: libloading::Symbol<unsafe extern "C" fn()> = unsafe { self.library.get(b"fake_cupti_launch") }.unwrap();
        // SAFETY: records a launch in the stand-in's state.
        unsafe { f() }
    }
}

/// A context pointer for the stand-in (it only checks that one is given).
fn context() -> RawContext {
    std::ptr::dangling_mut()
}

/// The metrics the stand-in schedules, in the suite's order: every counter but
/// the store bank conflicts (refused when scheduled) and the SM cycles (not a metric of FAKE100).
fn scheduled() -> Vec<&'static str> {
    HardwareCounter::metrics()
        .into_iter()
        .filter(|m| !m.contains("bank_conflicts_pipe_lsu_mem_shared_op_st") && !m.starts_with("sm__cycles"))
        .collect()
}

#[test]
fn the_layer_loads_the_fake_and_names_its_errors() {
    let Some(path) = fake_library("errors") else {
        return;
    };
    let fake = Fake::open(&path);
    let text = path.display().to_string();
    let cupti = Arc::new(Cupti::open_first(&["/nonexistent/libcupti.so", text.as_str()]).unwrap());
    assert_eq!(cupti.path(), text);
    assert_eq!(cupti.api_version(), Some(999));
    {
        let session = ProfilerSession::begin(&cupti).unwrap();
        assert_eq!(fake.count("fake_cupti_sessions"), 1);
        assert_eq!(session.chip_name(0).unwrap(), "FAKE100");
        let error = session.chip_name(5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "cuptiDeviceGetChipName failed: CUPTI_ERROR_INVALID_DEVICE (2): the fake says no"
        );
        assert!(!error.is_waiver());
        session.check_device(0).unwrap();
        let unsupported = session.check_device(1).unwrap_err();
        assert!(unsupported.is_waiver(), "{unsupported}");
        assert!(unsupported.to_string().contains("vGPU: disabled"), "{unsupported}");
        assert_eq!(session.counter_availability(context()).unwrap().len(), 64);
    }
    assert_eq!(
        fake.count("fake_cupti_sessions"),
        0,
        "de-initialized when the session ends"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn metric_sets_refuse_metric_by_metric() {
    let Some(path) = fake_library("metric-set") else {
        return;
    };
    let fake = Fake::open(&path);
    let cupti = Arc::new(Cupti::open_first(&[path.display().to_string()]).unwrap());
    let host = MetricHost::new(&cupti, "FAKE100").unwrap();
    assert_eq!(host.base_counter_metrics().unwrap().len(), 15);
    let properties = host.properties("dram__bytes_read.sum").unwrap();
    assert_eq!(
        (properties.kind, properties.dimension_unit.as_str()),
        ("counter", "byte"),
        "found through its base name"
    );
    assert!(
        host.properties("sm__cycles_elapsed.avg")
            .unwrap_err()
            .is_unknown_metric()
    );
    drop(host);

    let mut steps = Vec::new();
    let set = MetricSet::build(&cupti, "FAKE100", &HardwareCounter::metrics(), &mut |s| {
        steps.push(s.to_string())
    })
    .unwrap();
    assert_eq!(set.metrics, scheduled());
    let refused: Vec<&str> = set.refused.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        refused,
        [
            "sm__cycles_elapsed.avg",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
        ]
    );
    assert!(
        set.refused[0].1.starts_with("not a metric of FAKE100"),
        "{:?}",
        set.refused
    );
    assert!(
        set.refused[1].1.contains("CUPTI_ERROR_INVALID_METRIC_NAME"),
        "{:?}",
        set.refused
    );
    assert_eq!(set.passes, 3, "14 metrics, 6 a pass");
    assert!(steps.iter().any(|s| s.contains("one by one")), "{steps:?}");
    assert_eq!(fake.count("fake_cupti_host_objects"), 0, "every host object released");

    let none = MetricSet::build(&cupti, "FAKE100", &["nonsense__x.sum"], &mut |_| {}).unwrap_err();
    assert!(none.to_string().contains("none of the 1 metrics"), "{none}");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_collection_replays_the_workload_once_per_pass_inside_its_range() {
    let Some(path) = fake_library("collect") else {
        return;
    };
    let fake = Fake::open(&path);
    let cupti = Arc::new(Cupti::open_first(&[path.display().to_string()]).unwrap());
    let set = MetricSet::build(&cupti, "FAKE100", &HardwareCounter::metrics(), &mut |_| {}).unwrap();
    let host = MetricHost::new(&cupti, "FAKE100").unwrap();
    let session = ProfilerSession::begin(&cupti).unwrap();
    let mut runs = 0;
    let mut steps = Vec::new();
    let collected = collect::<String>(
        &cupti,
        &host,
        &set,
        context(),
        &mut || {
            runs += 1;
            fake.launch();
            Ok(())
        },
        &mut |s| steps.push(s.to_string()),
    )
    .unwrap();
    assert_eq!(collected.passes, 3);
    assert_eq!(runs, 6, "once outside the range and once inside, per pass");
    assert_eq!(fake.count("fake_cupti_stray_launches"), 0);
    // Metric i of the configuration is (i + 1) × 1000 per launch inside the range of its pass.
    for (i, (metric, value)) in collected.values.iter().enumerate() {
        assert_eq!(metric, scheduled()[i]);
        assert_eq!(*value, (i + 1) as f64 * 1000.0, "{metric}");
    }
    assert_eq!(
        fake.count("fake_cupti_range_profilers"),
        0,
        "disabled after the collection"
    );
    assert!(steps.iter().any(|s| s == "decoded: 1 range(s)"), "{steps:?}");
    drop(session);
    drop(host);
    assert_eq!(fake.count("fake_cupti_host_objects"), 0);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_failing_workload_is_its_own_error_and_leaves_nothing_enabled() {
    let Some(path) = fake_library("workload") else {
        return;
    };
    let fake = Fake::open(&path);
    let cupti = Arc::new(Cupti::open_first(&[path.display().to_string()]).unwrap());
    let set = MetricSet::build(&cupti, "FAKE100", &HardwareCounter::metrics(), &mut |_| {}).unwrap();
    let host = MetricHost::new(&cupti, "FAKE100").unwrap();
    let _session = ProfilerSession::begin(&cupti).unwrap();
    let mut runs = 0;
    let outcome = collect(
        &cupti,
        &host,
        &set,
        context(),
        &mut || {
            runs += 1;
            if runs == 2 { Err("the kernel faulted") } else { Ok(()) }
        },
        &mut |_| {},
    );
    assert!(matches!(outcome, Err(CollectError::Workload("the kernel faulted"))));
    assert_eq!(fake.count("fake_cupti_in_pass"), 0, "the pass was stopped");
    assert_eq!(fake.count("fake_cupti_range_profilers"), 0, "and the profiler disabled");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn the_collector_keeps_its_metric_set_and_turns_a_denied_device_off() {
    let Some(path) = fake_library("collector") else {
        return;
    };
    let fake = Fake::open(&path);
    let collector = CounterCollector::with(Cupti::open_first(&[path.display().to_string()]).unwrap());
    let metrics = HardwareCounter::metrics();
    let run = |collector: &CounterCollector| {
        collector.collect::<String>(
            0,
            context(),
            &metrics,
            &mut || {
                fake.launch();
                Ok(())
            },
            &mut |_| {},
        )
    };
    assert_eq!(
        fake.count("fake_cupti_sessions"),
        0,
        "nothing initialized before the first collection"
    );
    let first = run(&collector).unwrap();
    let inits = fake.count("fake_cupti_host_inits");
    assert_eq!(
        fake.count("fake_cupti_sessions"),
        1,
        "the profiler interface stays initialized"
    );
    assert_eq!(
        fake.count("fake_cupti_range_profilers"),
        0,
        "the range profiler does not"
    );
    let second = run(&collector).unwrap();
    assert_eq!(fake.count("fake_cupti_sessions"), 1, "initialized once");
    assert_eq!(first, second);
    assert_eq!(
        fake.count("fake_cupti_host_inits"),
        inits,
        "the metric set and host object are kept"
    );
    assert_eq!(collector.refused(0).len(), 2);

    // Counters of one launch, mapped by metric name (the refused metric shifts positions).
    let counted = Counted::of(first.values.clone(), first.passes);
    assert_eq!(counted.passes, 3);
    assert_eq!(counted.dram_bytes(), Some(1000.0 + 2000.0));
    assert_eq!(counted.get(HardwareCounter::L2Bytes), Some(3000.0));
    assert_eq!(
        counted.wavefronts_per_request(SharedAccess::Load),
        Some(5000.0 / 8000.0)
    );
    assert_eq!(counted.conflicts_per_request(SharedAccess::Load), Some(7000.0 / 8000.0));
    assert_eq!(
        counted.conflicts_per_request(SharedAccess::Store),
        None,
        "refused on this chip"
    );
    assert_eq!(counted.local_bytes(), Some(10000.0 + 11000.0));
    assert_eq!(counted.instructions_per_warp(), Some(12000.0 / 14000.0));
    assert_eq!(counted.thread_instructions_per(13.0), Some(1000.0));
    assert_eq!(counted.get(HardwareCounter::SmCycles), None);

    fake.deny(true);
    let enables = fake.count("fake_cupti_enables");
    let Err(CollectError::Cupti(denied)) = run(&collector) else {
        panic!("a denied collection must fail");
    };
    assert!(denied.is_permission_denied(), "{denied}");
    assert!(denied.waiver_reason().contains("NVreg_RestrictProfilingToAdminUsers"));
    assert!(
        denied.to_string().contains("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)"),
        "{denied}"
    );
    assert_eq!(fake.count("fake_cupti_enables"), enables + 1);
    let Err(CollectError::Cupti(again)) = run(&collector) else {
        panic!("the device stays off");
    };
    assert_eq!(again, denied);
    assert_eq!(
        fake.count("fake_cupti_enables"),
        enables + 1,
        "no second try on a device turned off"
    );
    assert!(matches!(collector.off(0), Some(CuptiError::Call { code: 35, .. })));

    let Err(CollectError::Cupti(vgpu)) =
        collector.collect::<String>(1, context(), &metrics, &mut || Ok(()), &mut |_| {})
    else {
        panic!("device 1 is a vGPU with profiling disabled");
    };
    assert!(vgpu.is_waiver() && collector.off(1).is_some(), "{vgpu}");
    drop(collector);
    assert_eq!(
        fake.count("fake_cupti_sessions"),
        0,
        "de-initialized with the collector"
    );
    assert_eq!(
        fake.count("fake_cupti_host_objects"),
        0,
        "and every host object released"
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn the_probe_finds_cupti_through_its_variable() {
    let Some(path) = fake_library("probe") else {
        return;
    };
    let folder = path.parent().unwrap();
    let probe = |value: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
            .arg("counters-probe")
            .env("PTXSUITE_CUPTI", value)
            .output()
            .unwrap()
    };
    let found = probe(folder);
    let stdout = String::from_utf8_lossy(&found.stdout);
    assert!(
        stdout.contains(&format!("step 1 CUPTI library: {} (API version 999)", path.display())),
        "{stdout}"
    );
    assert_eq!(
        found.status.code(),
        Some(1),
        "then no GPU here (or the fake cannot profile one)"
    );
    let missing = probe(std::path::Path::new("/nonexistent/cupti"));
    let stdout = String::from_utf8_lossy(&missing.stdout);
    assert!(
        stdout.contains("step 1 CUPTI library: FAILED: CUPTI is not available: PTXSUITE_CUPTI names no usable CUPTI"),
        "{stdout}"
    );
    assert_eq!(missing.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(folder);
}
