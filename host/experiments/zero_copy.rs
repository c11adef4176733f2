//! Guide §3.1.3: zero copy. Kernels that read from and write to mapped
//! host memory, beside the copy engines' pinned bandwidth, and an end-to-end
//! case where zero copy replaces an explicit H2D + kernel + D2H.

use indicatif::ProgressBar;

use super::transfers::transfer_sizes;
use super::{Experiment, RunSettings, SeriesResult, SweepPoint, SweepResult};
use crate::copy_element::{first_mismatch, pattern};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, EventTimer, Gpu, HostMemoryKind, Implementation, PinnedBuffer};
use crate::launchers::vector_copy_global;

pub(super) const ZERO_COPY: Experiment = Experiment {
    name: "zero-copy",
    title: "Zero copy: kernels on mapped host memory vs explicit copies",
    guide_section: "CUDA C Best Practices Guide 4.0, §3.1.3, Listing 3.4's setting",
    points: 6,
    run,
};

/// The sizes swept: 1 MiB to the run's buffer size (at most 1 GiB).
fn sizes(settings: &RunSettings) -> Vec<u64> {
    let max = settings.buffer_mib.map_or(1 << 30, |mib| mib << 20).min(1 << 30);
    transfer_sizes(max).into_iter().filter(|&s| s >= 1 << 20).collect()
}

#[derive(Clone, Copy)]
enum Case {
    /// vector_copy(device ← mapped): the kernel reads host memory over the link.
    KernelReadsMapped,
    /// vector_copy(mapped ← device): the kernel writes host memory over the link.
    KernelWritesMapped,
    /// The copy engine, pinned memory, host to device.
    PinnedUpload,
    /// The copy engine, pinned memory, device to host.
    PinnedDownload,
    /// H2D + vector_copy + D2H with pinned buffers.
    ExplicitRoundTrip,
    /// vector_copy(mapped out ← mapped in): the same result with no copies.
    ZeroCopyRoundTrip,
}

impl Case {
    const ALL: [Case; 6] = [
        Case::KernelReadsMapped,
        Case::KernelWritesMapped,
        Case::PinnedUpload,
        Case::PinnedDownload,
        Case::ExplicitRoundTrip,
        Case::ZeroCopyRoundTrip,
    ];

    fn name(self) -> &'static str {
        match self {
            Case::KernelReadsMapped => "kernel reads mapped host memory",
            Case::KernelWritesMapped => "kernel writes mapped host memory",
            Case::PinnedUpload => "H2D copy (pinned)",
            Case::PinnedDownload => "D2H copy (pinned)",
            Case::ExplicitRoundTrip => "end to end: H2D + kernel + D2H",
            Case::ZeroCopyRoundTrip => "end to end: zero-copy kernel",
        }
    }

    fn implementation(self) -> Implementation {
        match self {
            Case::PinnedUpload | Case::PinnedDownload => Implementation::Driver,
            _ => Implementation::Rust,
        }
    }
}

fn run(gpu: &Gpu, settings: &RunSettings, progress: &ProgressBar) -> Result<SweepResult> {
    settings.validate()?;
    if !gpu.info().can_map_host_memory {
        return Err(Error::InvalidInput(format!(
            "{} cannot map host memory (canMapHostMemory = 0): zero copy is not available",
            gpu.info().name
        )));
    }
    let sizes = sizes(settings);
    let len = (*sizes
        .last()
        .ok_or_else(|| Error::InvalidInput("zero-copy needs at least 1 MiB".into()))?
        / 4) as usize;
    let source: Vec<f32> = pattern(len);
    let mut mapped_in = PinnedBuffer::<f32>::new(gpu, len, HostMemoryKind::Mapped)?;
    mapped_in.as_mut_slice().copy_from_slice(&source);
    let mut mapped_out = PinnedBuffer::<f32>::new(gpu, len, HostMemoryKind::Mapped)?;
    let mut pinned_in = PinnedBuffer::<f32>::new(gpu, len, HostMemoryKind::Pinned)?;
    pinned_in.as_mut_slice().copy_from_slice(&source);
    let mut pinned_out = PinnedBuffer::<f32>::new(gpu, len, HostMemoryKind::Pinned)?;
    let device_in = DeviceBuffer::from_host(gpu, &source)?;
    let mut device_a = DeviceBuffer::<f32>::uninit(gpu, len)?;
    let mut device_b = DeviceBuffer::<f32>::uninit(gpu, len)?;
    let (in_ptr, out_ptr) = (mapped_in.as_global()?, mapped_out.as_global_mut()?);
    let timer = EventTimer::new(gpu)?;
    let rust = Implementation::Rust;

    let mut results: Vec<SeriesResult> = Case::ALL
        .iter()
        .map(|&case| SeriesResult {
            name: case.name().into(),
            kernel: match case {
                Case::PinnedUpload => "cuMemcpyHtoD".into(),
                Case::PinnedDownload => "cuMemcpyDtoH".into(),
                _ => "vector_copy".into(),
            },
            implementation: case.implementation(),
            element: "f32".into(),
            element_bytes: 4,
            points: Vec::new(),
        })
        .collect();
    for (done, &bytes) in sizes.iter().enumerate() {
        if settings.stop.stop_before(done, sizes.len()) {
            break;
        }
        progress.set_message(format!("zero-copy {} MiB", bytes >> 20));
        let n = (bytes / 4) as usize;
        for (&case, result) in Case::ALL.iter().zip(&mut results) {
            mapped_out.as_mut_slice()[..n].fill(-1.0);
            pinned_out.as_mut_slice()[..n].fill(-1.0);
            device_a.fill(-1.0)?;
            let mut enqueue = || -> Result<()> {
                match case {
                    Case::KernelReadsMapped => {
                        vector_copy_global(gpu, rust, (device_a.as_global_mut(), len), (in_ptr, len), n as u64)
                    }
                    Case::KernelWritesMapped => {
                        vector_copy_global(gpu, rust, (out_ptr, len), (device_in.as_global(), len), n as u64)
                    }
                    // SAFETY (copies): no host access to the buffers until time_ms synchronizes the stream.
                    Case::PinnedUpload => unsafe { pinned_in.upload_async(0..n, &mut device_a, gpu.stream()) },
                    Case::PinnedDownload => unsafe { pinned_out.download_async(0..n, &device_in, gpu.stream()) },
                    Case::ExplicitRoundTrip => {
                        // SAFETY: as above.
                        unsafe { pinned_in.upload_async(0..n, &mut device_a, gpu.stream())? };
                        let (a_len, b_len) = (device_a.len(), device_b.len());
                        vector_copy_global(
                            gpu,
                            rust,
                            (device_b.as_global_mut(), b_len),
                            (device_a.as_global(), a_len),
                            n as u64,
                        )?;
                        // SAFETY: as above.
                        unsafe { pinned_out.download_async(0..n, &device_b, gpu.stream()) }
                    }
                    Case::ZeroCopyRoundTrip => vector_copy_global(gpu, rust, (out_ptr, len), (in_ptr, len), n as u64),
                }
            };
            enqueue()?; // warm-up
            gpu.synchronize()?;
            let times: Vec<f64> = (0..settings.samples)
                .map(|_| timer.time_ms(gpu.stream(), &mut enqueue))
                .collect::<Result<_>>()?;
            let failure = match case {
                Case::KernelReadsMapped | Case::PinnedUpload => first_mismatch(&device_a.to_host()?[..n], &source[..n]),
                Case::KernelWritesMapped | Case::ZeroCopyRoundTrip => {
                    first_mismatch(&mapped_out.as_slice()[..n], &source[..n])
                }
                Case::PinnedDownload | Case::ExplicitRoundTrip => {
                    first_mismatch(&pinned_out.as_slice()[..n], &source[..n])
                }
            };
            // One-way cases move the bytes once; round trips count the input and the output.
            let counted = match case {
                Case::ExplicitRoundTrip | Case::ZeroCopyRoundTrip => 2 * bytes,
                _ => bytes,
            };
            let point = SweepPoint::measured((bytes >> 20) as i64, n as u64, counted, &times, failure)
                .expect("samples >= 1 and event times are finite");
            result.points.push(point);
        }
        progress.inc(1);
    }
    let mut notes = vec![
        "one-way cases count the bytes moved once; end-to-end cases count input + output; every result checked \
         against the input"
            .to_string(),
    ];
    if let Some(link) = &gpu.info().pcie_link {
        notes.push(format!("the GPU's PCIe link (sysfs): {link}"));
    }
    Ok(SweepResult {
        experiment: ZERO_COPY.name.to_string(),
        title: ZERO_COPY.title.to_string(),
        guide_section: ZERO_COPY.guide_section.to_string(),
        parameter: "size (MiB)".to_string(),
        byte_counting: "bytes crossing the link (see notes)".to_string(),
        buffer_bytes: 4 * len as u64,
        block_threads: kernels_gpu::global_memory::COPY_BLOCK_THREADS,
        series: results,
        notes,
    })
}
