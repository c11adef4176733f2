use crate::error::Result;
use crate::experiments::kernel_records;
use crate::facts::{ClockEventReason, CudaOrdinal, TelemetrySample};
use crate::report::PtxRecord;
use crate::testbed::{DeviceSelection, ImplementationSet, Testbed};

/// `ptxsuite info`: each device, the bandwidth the guide's formula gives for
/// it, the PTX target, and every kernel's resource use and occupancy.
pub fn info(devices: &DeviceSelection, json: bool) -> Result<String> {
    let testbed = Testbed::open(devices, &ImplementationSet::default())?;
    let ptx = PtxRecord::embedded();
    let kernels = kernel_records(&testbed)?;
    let infos: Vec<_> = testbed.devices().iter().map(|d| d.info().clone()).collect();
    if json {
        let nvml = match testbed.nvml() {
            Ok(gpus) => serde_json::json!({
                "source": gpus.source(),
                "devices": gpus.gpus().iter().map(|g| serde_json::json!({
                    "ordinal": g.ordinal,
                    "facts": g.facts,
                    "now": nvml_now(&g.device),
                })).collect::<Vec<_>>(),
                "unmatched": gpus.unmatched(),
            }),
            Err(why) => serde_json::json!({ "unavailable": why }),
        };
        let value = serde_json::json!({ "devices": infos, "ptx": ptx, "kernels": kernels, "nvml": nvml });
        return Ok(serde_json::to_string_pretty(&value).expect("serializable"));
    }
    let mut out = String::new();
    for (d, dut) in infos.iter().zip(testbed.devices()) {
        device_lines(d, &ptx, &mut out);
        let opencl = match dut.opencl() {
            Ok(side) => side.detail(),
            Err(why) => format!("not available: {why}"),
        };
        out.push_str(&format!("{:<32} {opencl}\n", "OpenCL"));
        nvml_lines(&testbed, d.ordinal, &mut out);
        out.push('\n');
    }
    kernel_lines(&kernels, infos.len() > 1, &mut out);
    Ok(out)
}

fn device_lines(d: &crate::gpu::DeviceInfo, ptx: &PtxRecord, out: &mut String) {
    let mut line = |k: &str, v: String| out.push_str(&format!("{k:<32} {v}\n"));
    line("GPU", format!("{} (device {})", d.name, d.ordinal));
    line(
        "Compute capability",
        format!(
            "{}.{} ({})",
            d.compute_capability.0,
            d.compute_capability.1,
            d.sm_name()
        ),
    );
    line("Multiprocessors", d.multiprocessors.to_string());
    line("SM clock (peak)", format!("{} MHz", d.sm_clock_khz / 1000));
    line(
        "Memory",
        format!("{:.1} GiB", d.total_memory_bytes as f64 / (1u64 << 30) as f64),
    );
    line("Memory clock (peak)", format!("{} MHz", d.memory_clock_khz / 1000));
    line("Memory bus width", format!("{} bit", d.memory_bus_width_bits));
    line(
        "Theoretical bandwidth",
        format!(
            "{:.1} GB/s  (= {} MHz × {} bit / 8 × 2 / 1e9)",
            d.theoretical_bandwidth_gbps,
            d.memory_clock_khz / 1000,
            d.memory_bus_width_bits
        ),
    );
    line(
        "L2 cache",
        format!("{:.1} MiB", d.l2_cache_bytes as f64 / (1 << 20) as f64),
    );
    line("Max threads per SM", d.max_threads_per_multiprocessor.to_string());
    line(
        "Shared memory per SM",
        format!("{} KiB", d.max_shared_memory_per_multiprocessor / 1024),
    );
    line("ECC", if d.ecc_enabled { "enabled" } else { "disabled" }.into());
    line("canMapHostMemory", d.can_map_host_memory.to_string());
    line("Async copy engines", d.async_copy_engines.to_string());
    line("PCI bus id", d.pci_bus_id.clone());
    line(
        "Driver",
        format!("CUDA {} ({})", d.driver_version_string(), d.driver_version),
    );
    line("PTX", format!("target {}, ISA {}", ptx.target, ptx.isa_version));
    if let Some(uuid) = &d.uuid {
        line("UUID", uuid.clone());
    }
    line(
        "PCIe link (sysfs)",
        d.pcie_link.clone().unwrap_or_else(|| "not readable".into()),
    );
}

fn kernel_lines(kernels: &[crate::report::KernelRecord], several: bool, out: &mut String) {
    out.push_str("\nKernels (resource use from the driver's JIT; occupancy at each launcher's block shape):\n");
    out.push_str(&format!(
        "{:<34} {:<7} {:>3} {:>5} {:>11} {:>11} {:>9} {:>6} {:>9} {:>10} {:>10}\n",
        "kernel",
        "impl",
        "GPU",
        "regs",
        "local B/thr",
        "static smem",
        "max block",
        "block",
        "dyn smem",
        "blocks/SM",
        "occupancy"
    ));
    for k in kernels.iter().filter(|k| several || k.device == 0) {
        let r = &k.resources;
        out.push_str(&format!(
            "{:<34} {:<7} {:>3} {:>5} {:>11} {:>11} {:>9} {:>6} {:>9} {:>10} {:>9.0}%\n",
            k.name,
            k.implementation.label(),
            k.device,
            r.registers_per_thread,
            r.local_bytes_per_thread,
            r.static_shared_bytes,
            r.max_threads_per_block,
            k.block_threads,
            k.dynamic_shared_bytes,
            k.active_blocks_per_sm,
            100.0 * k.theoretical_occupancy
        ));
    }
}

/// What NVML reads now, as JSON.
fn nvml_now(device: &crate::nvml::NvmlDevice) -> serde_json::Value {
    let sample = TelemetrySample::read(device);
    serde_json::json!({
        "sm_clock_mhz": sample.sm_clock_mhz,
        "memory_clock_mhz": sample.memory_clock_mhz,
        "power_w": sample.power_mw.map(|mw| mw as f64 / 1000.0),
        "temperature_c": sample.temperature_c,
        "pcie_generation": sample.pcie_generation,
        "clock_event_reasons": sample.reason_bits.map(ClockEventReason::from_bits),
    })
}

/// The NVML facts of device `ordinal`: links, clocks, power, and what it reads now.
fn nvml_lines(testbed: &Testbed, ordinal: CudaOrdinal, out: &mut String) {
    let mut line = |k: &str, v: String| out.push_str(&format!("{k:<32} {v}\n"));
    let gpus = match testbed.nvml() {
        Ok(gpus) => gpus,
        Err(why) => return line("NVML", format!("not available: {why}")),
    };
    let Some(gpu) = gpus.gpu(ordinal) else {
        return line(
            "NVML",
            format!("this GPU is not matched: {}", gpus.unmatched().join("; ")),
        );
    };
    let facts = &gpu.facts;
    let matched = match facts.matched_by {
        crate::facts::MatchedBy::Uuid => "by UUID",
        crate::facts::MatchedBy::PciLocation => "by PCI location",
    };
    line("NVML", format!("{} ({matched}); {}", facts.name, gpus.source()));
    line("PCIe link (NVML)", facts.pcie.describe());
    line(
        "NVLink",
        facts.describe_nvlinks().unwrap_or_else(|| "none active".into()),
    );
    let interconnect = gpus.interconnect();
    for other in testbed.devices().iter().map(|d| d.info().ordinal) {
        if let Some(route) = interconnect.nvlink_route(ordinal, other) {
            line(
                &format!("NVLink to GPU {other}"),
                format!(
                    "{} direct + {} switched links: {:.1} GB/s per direction",
                    route.direct_links, route.switched_links, route.gbps
                ),
            );
        }
    }
    let mhz = |v: Option<u32>| v.map_or("not reported".to_string(), |m| format!("{m} MHz"));
    let now = TelemetrySample::read(&gpu.device);
    line(
        "Clocks (NVML, max / now)",
        format!(
            "SM {} / {}, memory {} / {}",
            mhz(facts.max_sm_clock_mhz),
            mhz(now.sm_clock_mhz),
            mhz(facts.max_memory_clock_mhz),
            mhz(now.memory_clock_mhz)
        ),
    );
    let watts = |mw: Option<u32>| mw.map_or("not reported".to_string(), |mw| format!("{:.0} W", mw as f64 / 1000.0));
    line(
        "Power (NVML, now / limit)",
        format!(
            "{} / {}",
            watts(now.power_mw),
            facts
                .power_limit_w
                .map_or("not reported".to_string(), |w| format!("{w:.0} W"))
        ),
    );
    line(
        "Temperature (NVML)",
        now.temperature_c
            .map_or("not reported".to_string(), |t| format!("{t} °C")),
    );
    let reasons = match now.reason_bits.map(ClockEventReason::from_bits) {
        None => "not reported".to_string(),
        Some(reasons) if reasons.is_empty() => "none (clocks not held down)".to_string(),
        Some(reasons) => reasons.iter().map(|r| r.label()).collect::<Vec<_>>().join(", "),
    };
    line("Clock event reasons (now)", reasons);
}
