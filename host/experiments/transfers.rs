//! Guide §3.1.1: host↔device transfer bandwidth for each kind of host
//! memory, and device-to-device, over a size sweep (as NVIDIA's
//! bandwidthTest and nvbandwidth measure it).
//!
//! Pinned, write-combined and mapped memory: CUDA events around `reps`
//! asynchronous copies on the suite's stream. Pageable memory: the host
//! clock around blocking copies (the driver stages them through its own
//! pinned buffer, so the GPU-side time would hide part of the cost).

use std::time::Instant;

use indicatif::ProgressBar;

use super::{Experiment, RunSettings, SeriesResult, SweepPoint, SweepResult};
use crate::copy_element::{first_mismatch, pattern};
use crate::error::Result;
use crate::gpu::{DeviceBuffer, EventTimer, Gpu, HostMemoryKind, Implementation, PinnedBuffer};

pub(super) const TRANSFERS: Experiment = Experiment {
    name: "transfers",
    title: "Host↔device transfers: pageable, pinned, write-combined and mapped memory",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.1.1 (pinned memory), Figure 3.1's setting",
    points: 10,
    run,
};

/// Bytes moved per timed sample at least, so small copies are timed over many repetitions.
const BYTES_PER_SAMPLE: u64 = 256 << 20;
const SMALLEST: u64 = 4 << 10;

/// 4 KiB, 16 KiB, ... up to `max` bytes.
pub fn transfer_sizes(max: u64) -> Vec<u64> {
    std::iter::successors(Some(SMALLEST), |s| Some(s * 4))
        .take_while(|&s| s <= max)
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

fn run(gpu: &Gpu, settings: &RunSettings, progress: &ProgressBar) -> Result<SweepResult> {
    settings.validate()?;
    let max_bytes = settings.buffer_mib.map_or(1 << 30, |mib| mib << 20).max(SMALLEST);
    let sizes = transfer_sizes(max_bytes);
    let elements = (*sizes.last().expect("at least 4 KiB") / 4) as usize;
    let mut notes = Vec::new();
    let kinds: Vec<HostMemoryKind> = HostMemoryKind::ALL
        .into_iter()
        .filter(|&k| {
            let ok = k != HostMemoryKind::Mapped || gpu.info().can_map_host_memory;
            if !ok {
                notes.push(format!(
                    "{} cannot map host memory: mapped series skipped",
                    gpu.info().name
                ));
            }
            ok
        })
        .collect();
    let source: Vec<f32> = pattern(elements);
    let device_a = DeviceBuffer::from_host(gpu, &source)?;
    let mut device_b = DeviceBuffer::<f32>::uninit(gpu, elements)?;
    let mut pageable = vec![0.0f32; elements];
    let mut pinned: Vec<PinnedBuffer<f32>> = kinds
        .iter()
        .filter(|&&k| k != HostMemoryKind::Pageable)
        .map(|&k| PinnedBuffer::new(gpu, elements, k))
        .collect::<Result<_>>()?;
    let timer = EventTimer::new(gpu)?;

    let mut plan: Vec<(Direction, HostMemoryKind)> = Vec::new();
    for direction in [Direction::HostToDevice, Direction::DeviceToHost] {
        plan.extend(kinds.iter().map(|&k| (direction, k)));
    }
    plan.push((Direction::DeviceToDevice, HostMemoryKind::Pinned));
    let mut results: Vec<SeriesResult> = plan
        .iter()
        .map(|&(direction, kind)| {
            let (kernel, name) = match direction {
                Direction::HostToDevice => ("cuMemcpyHtoD", format!("H2D · {}", kind.label())),
                Direction::DeviceToHost => ("cuMemcpyDtoH", format!("D2H · {}", kind.label())),
                Direction::DeviceToDevice => ("cuMemcpyDtoD", "D2D".to_string()),
            };
            SeriesResult {
                name,
                kernel: kernel.into(),
                implementation: Implementation::Driver,
                element: "f32".into(),
                element_bytes: 4,
                points: Vec::with_capacity(sizes.len()),
            }
        })
        .collect();

    for (done, &bytes) in sizes.iter().enumerate() {
        if settings.stop.stop_before(done, sizes.len()) {
            break;
        }
        progress.set_message(format!("transfers {} KiB", bytes >> 10));
        let count = (bytes / 4) as usize;
        let reps = BYTES_PER_SAMPLE.div_ceil(bytes).clamp(1, 10_000) as u32;
        for (&(direction, kind), result) in plan.iter().zip(&mut results) {
            let host = pinned.iter_mut().find(|p| p.kind() == kind);
            let mut times_ms = Vec::with_capacity(settings.samples as usize);
            let failure = match (direction, kind, host) {
                (Direction::DeviceToDevice, _, _) => {
                    device_b.fill(-1.0)?; // other data, so the check proves the copy happened
                    for _ in 0..settings.samples {
                        times_ms.push(
                            timer.time_ms(gpu.stream(), || {
                                for _ in 0..reps {
                                    device_b.copy_from_device_async(&device_a, count)?;
                                }
                                Ok(())
                            })? / reps as f64,
                        );
                    }
                    first_mismatch(&device_b.to_host()?[..count], &source[..count])
                }
                (Direction::HostToDevice, HostMemoryKind::Pageable, _) => {
                    pageable[..count].copy_from_slice(&source[..count]);
                    let mut staging = DeviceBuffer::<f32>::uninit(gpu, count)?;
                    for _ in 0..settings.samples {
                        let start = Instant::now();
                        for _ in 0..reps {
                            staging.copy_from_host(&pageable[..count])?; // blocking
                        }
                        times_ms.push(start.elapsed().as_secs_f64() * 1e3 / reps as f64);
                    }
                    first_mismatch(&staging.to_host()?, &source[..count])
                }
                (Direction::DeviceToHost, HostMemoryKind::Pageable, _) => {
                    pageable[..count].fill(-1.0);
                    let staging = DeviceBuffer::from_host(gpu, &source[..count])?;
                    for _ in 0..settings.samples {
                        let start = Instant::now();
                        for _ in 0..reps {
                            staging.copy_to_host(&mut pageable[..count])?; // blocking
                        }
                        times_ms.push(start.elapsed().as_secs_f64() * 1e3 / reps as f64);
                    }
                    first_mismatch(&pageable[..count], &source[..count])
                }
                (Direction::HostToDevice, _, Some(host)) => {
                    device_b.fill(-1.0)?;
                    host.as_mut_slice()[..count].copy_from_slice(&source[..count]);
                    for _ in 0..settings.samples {
                        times_ms.push(
                            timer.time_ms(gpu.stream(), || {
                                for _ in 0..reps {
                                    // SAFETY: neither buffer is touched until time_ms has synchronized the stream.
                                    unsafe { host.upload_async(0..count, &mut device_b, gpu.stream())? };
                                }
                                Ok(())
                            })? / reps as f64,
                        );
                    }
                    first_mismatch(&device_b.to_host()?[..count], &source[..count])
                }
                (Direction::DeviceToHost, _, Some(host)) => {
                    host.as_mut_slice()[..count].fill(-1.0);
                    for _ in 0..settings.samples {
                        times_ms.push(
                            timer.time_ms(gpu.stream(), || {
                                for _ in 0..reps {
                                    // SAFETY: neither buffer is touched until time_ms has synchronized the stream.
                                    unsafe { host.download_async(0..count, &device_a, gpu.stream())? };
                                }
                                Ok(())
                            })? / reps as f64,
                        );
                    }
                    first_mismatch(&host.as_slice()[..count], &source[..count])
                }
                (_, _, None) => unreachable!("every non-pageable kind in the plan has a buffer"),
            };
            let point = SweepPoint::measured((bytes >> 10) as i64, count as u64, bytes, &times_ms, failure)
                .expect("samples >= 1 and times are finite");
            result.points.push(point);
        }
        progress.inc(1);
    }
    notes.push(format!(
        "bytes counted: the bytes copied, once (GB = 1e9); pageable copies timed with the host clock around blocking \
         copies, the others with CUDA events around async copies on a non-blocking stream; at least {} MiB per sample",
        BYTES_PER_SAMPLE >> 20
    ));
    if let Some(link) = &gpu.info().pcie_link {
        notes.push(format!("the GPU's PCIe link (sysfs): {link}"));
    } else {
        notes.push("the GPU's link could not be read from sysfs (NVLink-C2C or a non-Linux host?)".into());
    }
    Ok(SweepResult {
        experiment: TRANSFERS.name.to_string(),
        title: TRANSFERS.title.to_string(),
        guide_section: TRANSFERS.guide_section.to_string(),
        parameter: "size (KiB)".to_string(),
        byte_counting: "bytes copied per transfer".to_string(),
        buffer_bytes: max_bytes,
        block_threads: 0,
        series: results,
        notes,
    })
}
