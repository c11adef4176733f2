//! The NVML layer against a stand-in library (tests/fixtures/fake_nvml.c,
//! compiled here with the system's C compiler into a `libnvidia-ml.so.1`):
//! loading by path, the entry points and their C types (the PCI-info and
//! field-value structs, the versioned temperature query), matching CUDA
//! devices by UUID and PCI location, the facts and link figures, the
//! sampler, and nvmlShutdown paired with nvmlInit when NVML is dropped.
//!
//! Without a C compiler each test prints `SKIPPED ...` and passes.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

mod synthetic_reports;

use ptxsuite::facts::{CudaOrdinal, LinkEnd, LinkSpeedSource, MatchedBy, NvLinkVersion, PciLocation, TelemetrySample};
use ptxsuite::nvml::{CudaDeviceId, Nvml, NvmlGpus, TelemetrySampler};
use ptxsuite::testbed::DeviceSelection;

/// Compiles the stand-in into a folder of its own (each test gets its own copy, so its
/// init counter is its own); `None` after saying so when there is no C compiler.
fn fake_library(test: &str) -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("ptxsuite-fake-nvml-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let library = dir.join("libnvidia-ml.so.1");
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_nvml.c");
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    match Command::new(&compiler)
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&library)
        .arg(&source)
        .output()
    {
        Ok(out) if out.status.success() => Some(library),
        Ok(out) => panic!(
            "the fake NVML did not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: no C compiler ({compiler}: {e})");
            None
        }
    }
}

fn pci(bus: u32) -> PciLocation {
    PciLocation {
        domain: 0,
        bus,
        device: 0,
    }
}

/// CUDA device 0 is fake GPU B (by UUID, in upper case), CUDA device 1 fake GPU A (a MIG-like
/// UUID NVML does not list: by PCI location), CUDA device 2 is nowhere.
fn cuda_devices() -> Vec<CudaDeviceId> {
    vec![
        CudaDeviceId {
            ordinal: CudaOrdinal(0),
            uuid: Some("GPU-BBBBBBBB-0000-1111-2222-333333333333".into()),
            pci_bus_id: "0000:99:00".into(),
        },
        CudaDeviceId {
            ordinal: CudaOrdinal(1),
            uuid: Some("GPU-f00f0000-0000-0000-0000-000000000000".into()),
            pci_bus_id: "0000:18:00".into(),
        },
        CudaDeviceId {
            ordinal: CudaOrdinal(2),
            uuid: None,
            pci_bus_id: "0000:77:00".into(),
        },
    ]
}

#[test]
fn the_layer_reads_the_fake_library_through_its_c_types() {
    let Some(library) = fake_library("facts") else {
        return;
    };
    let path = library.display().to_string();
    // SAFETY: the stand-in compiled above; its counter takes no arguments.
    let fake = unsafe { libloading::Library::new(&library) }.unwrap();
    // SAFETY: `int fake_nvml_initialised(void)` as the stand-in declares it.
    let initialised: libloading::Symbol<unsafe extern "C" fn() -> i32> =
        unsafe { fake.get("fake_nvml_initialised") }.unwrap();
    // SAFETY: a plain read of the stand-in's counter.
    let count = || unsafe { initialised() };

    let nvml = Nvml::open_first(&["/nonexistent/libnvidia-ml.so.1", path.as_str()]).unwrap();
    assert_eq!(count(), 1, "nvmlInit_v2 once");
    assert_eq!(nvml.path(), path);
    assert_eq!(nvml.version(), "driver 999.1.2, NVML 99.999.1");
    assert_eq!(nvml.device_count().unwrap(), 2);

    let gpus = NvmlGpus::with(nvml, &cuda_devices()).unwrap();
    assert!(gpus.source().starts_with("NVML (driver 999.1.2, NVML 99.999.1; "));
    assert_eq!(gpus.gpus().len(), 2);
    assert_eq!(gpus.unmatched().len(), 1);
    assert!(gpus.unmatched()[0].contains("0000:77:00"), "{:?}", gpus.unmatched());

    let b = &gpus.gpu(CudaOrdinal(0)).unwrap().facts;
    assert_eq!((b.name.as_str(), b.matched_by), ("Fake GPU B", MatchedBy::Uuid));
    assert_eq!(b.pci, Some(pci(0x2a)));
    assert_eq!(
        b.pcie.describe(),
        "gen 4 ×8 (15.8 GB/s per direction), the GPU could do gen 5, gen 1 ×8 when read"
    );
    assert!(b.nvlinks.is_empty(), "NVLink not supported: no links");
    assert_eq!((b.max_sm_clock_mhz, b.max_memory_clock_mhz), (Some(1980), Some(2619)));
    assert_eq!(b.power_limit_w, Some(700.0));

    let a = &gpus.gpu(CudaOrdinal(1)).unwrap().facts;
    assert_eq!((a.name.as_str(), a.matched_by), ("Fake GPU A", MatchedBy::PciLocation));
    assert_eq!(a.uuid, "GPU-aaaaaaaa-0000-1111-2222-333333333333");
    assert_eq!(a.nvlinks.len(), 6, "links 0-5; link 6 is an invalid argument");
    assert_eq!(a.active_nvlinks().count(), 4);
    for link in a.active_nvlinks() {
        assert_eq!(link.version, Some(NvLinkVersion::V4_0));
        assert_eq!(link.speed_gbps, Some(26.562), "26562 MB/s from the field's low 4 bytes");
        assert_eq!(link.speed_source, Some(LinkSpeedSource::Nvml));
        assert_eq!(link.remote, LinkEnd::Gpu { pci: pci(0x2a) });
    }
    assert!(a.nvlinks[4..].iter().all(|l| !l.active && l.remote == LinkEnd::Unknown));
    assert_eq!(
        a.describe_nvlinks().unwrap(),
        "4 active links, NVLink 4.0, 26.6 GB/s each: 106.2 GB/s per direction"
    );

    let links = gpus.interconnect();
    let route = links.nvlink_route(CudaOrdinal(1), CudaOrdinal(0)).unwrap();
    assert_eq!((route.direct_links, route.switched_links), (4, 0));
    assert!((route.gbps - 4.0 * 26.562).abs() < 1e-9);
    assert_eq!(
        links.nvlink_theoretical_gbps(CudaOrdinal(0), CudaOrdinal(1)),
        None,
        "B reports no links of its own"
    );
    assert!((links.pcie_theoretical_gbps(CudaOrdinal(1)).unwrap() - 63.015).abs() < 1e-3);

    let now = TelemetrySample::read(&gpus.gpu(CudaOrdinal(1)).unwrap().device);
    assert_eq!(
        now,
        TelemetrySample {
            sm_clock_mhz: Some(1755),
            memory_clock_mhz: Some(2619),
            power_mw: Some(699_500),
            temperature_c: Some(71),
            reason_bits: Some(0x4),
            pcie_generation: Some(5),
        },
        "the temperature comes through nvmlDeviceGetTemperatureV"
    );

    drop(gpus);
    assert_eq!(count(), 0, "nvmlShutdown when the last handle goes");
    let _ = std::fs::remove_dir_all(library.parent().unwrap());
}

#[test]
fn the_sampler_records_a_power_capped_experiment() {
    let Some(library) = fake_library("sampler") else {
        return;
    };
    let nvml = Nvml::open_first(&[library.display().to_string()]).unwrap();
    let gpus = NvmlGpus::with(nvml, &cuda_devices()[..2]).unwrap();
    let mut sampler = TelemetrySampler::start(Ok(&gpus), Duration::from_millis(5));
    assert!(sampler.is_sampling());
    let start = sampler.begin();
    std::thread::sleep(Duration::from_millis(30));
    sampler.end(start, "sgemm", Some(1));
    let record = sampler.finish();
    assert!(record.source.starts_with("NVML (driver 999.1.2"));
    assert_eq!(record.interval_ms, 5);
    let a = record.device(CudaOrdinal(1)).unwrap();
    let sgemm = a.during("sgemm").unwrap();
    assert!(sgemm.samples >= 2);
    assert_eq!(sgemm.sm_clock_mhz.unwrap().max, 1755.0);
    assert_eq!(sgemm.power_w.unwrap().median, 699.5);
    assert_eq!(sgemm.reason_samples, sgemm.samples);
    assert!(sgemm.throttled());
    assert_eq!(ptxsuite::report::telemetry_slowdowns(a), "power-capped during sgemm");
    let b = record.device(CudaOrdinal(0)).unwrap();
    assert!(
        b.during("sgemm").is_none(),
        "an experiment on GPU 1 has no window on GPU 0"
    );
    assert_eq!(
        ptxsuite::report::telemetry_slowdowns(b),
        "no power or thermal slowdown seen"
    );
    let _ = std::fs::remove_dir_all(library.parent().unwrap());
}

#[test]
fn a_run_of_device_1_names_its_only_gpu_cuda_device_1() {
    let Some(library) = fake_library("device-1") else {
        return;
    };
    // `--device 1` on a two-GPU machine: the run's first place (slot 0) is CUDA device 1.
    let ordinals = DeviceSelection::parse("1").unwrap().resolve(2).unwrap();
    assert_eq!(ordinals, [CudaOrdinal(1)]);
    // CUDA device 1 is fake GPU A, at PCI 0000:18:00 under a UUID NVML does not list.
    let mut info = synthetic_reports::device(ordinals[0].0, "Fake GPU A");
    info.pci_bus_id = "0000:18:00".into();
    info.uuid = Some("GPU-f00f0000-0000-0000-0000-000000000000".into());
    let ids: Vec<CudaDeviceId> = [&info].into_iter().map(CudaDeviceId::of).collect();
    assert_eq!(ids[0].ordinal, CudaOrdinal(1));

    let nvml = Nvml::open_first(&[library.display().to_string()]).unwrap();
    let gpus = NvmlGpus::with(nvml, &ids).unwrap();
    assert_eq!(gpus.gpus().len(), 1);
    let slot_0 = &gpus.gpus()[0];
    assert_eq!(slot_0.ordinal, CudaOrdinal(1), "slot 0 keeps its CUDA ordinal");
    assert_eq!(
        (slot_0.facts.name.as_str(), slot_0.facts.matched_by),
        ("Fake GPU A", MatchedBy::PciLocation)
    );
    assert!(gpus.gpu(CudaOrdinal(0)).is_none(), "CUDA device 0 is not in this run");
    assert_eq!(gpus.gpu(CudaOrdinal(1)).unwrap().facts.name, "Fake GPU A");

    let mut sampler = TelemetrySampler::start(Ok(&gpus), Duration::from_millis(5));
    let start = sampler.begin();
    std::thread::sleep(Duration::from_millis(20));
    sampler.end(start, "spin", Some(1));
    let record = sampler.finish();
    assert_eq!(record.devices.len(), 1);
    assert_eq!(record.devices[0].ordinal, CudaOrdinal(1));
    assert!(record.device(CudaOrdinal(1)).unwrap().during("spin").is_some());
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(
        json["devices"][0]["ordinal"], 1,
        "reports name it GPU 1, as a bare number"
    );
    let _ = std::fs::remove_dir_all(library.parent().unwrap());
}
