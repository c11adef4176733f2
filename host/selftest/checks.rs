//! The self-test checks: small launches of every kernel family (through the
//! same family descriptions and runners the experiments use) and every host
//! path, compared with the CPU references of [`crate::reference`].

use std::time::Duration;

use half::f16;
use kernels_gpu::device::F32x4;

use super::SelfTest;
use crate::copy_element::{CopyElement, first_mismatch, pattern};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, EventTimer, HostMemoryKind, PinnedBuffer};
use crate::input_values::matrix_value;
use crate::launchers::{
    self, CopyKernel, CudaStagedRunner, HostMemory, PipelineStep, StagedRunner, UploadOrder, chunk_ranges,
    copy_runners, matvec_runners,
};
use crate::reference;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation, Testbed};

/// Elements of the copy buffers: 64 blocks of threads plus room for offsets up to 32.
const LEN: usize = 64 * 256 + 32;

/// The device every single-GPU check runs on: the testbed's first.
pub(super) fn first(testbed: &Testbed) -> &DeviceUnderTest {
    &testbed.devices()[0]
}

/// `Err(Verification)` naming `what` if `mismatch` found one.
pub(super) fn verified(what: impl Into<String>, mismatch: Option<String>) -> Result<()> {
    match mismatch {
        None => Ok(()),
        Some(detail) => Err(Error::Verification {
            what: what.into(),
            detail,
        }),
    }
}

/// One launch and the fewest samples: what `selftest` times with.
pub(super) fn once() -> RunSettings {
    RunSettings {
        reps: 1,
        samples: 1,
        ..RunSettings::default()
    }
}

/// The checks of the twins' builds (CUDA C through NVRTC, OpenCL C on the matched device), in the
/// order `ptxsuite selftest` runs them (gathered with the other families' by
/// [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const TWIN_BUILDS: &[SelfTest] = &[
    SelfTest {
        name: "CUDA C twins (NVRTC)",
        run: cuda_c_twins,
    },
    SelfTest {
        name: "OpenCL C twins (build on the matched device)",
        run: opencl_c_twins,
    },
];

pub(super) fn cuda_c_twins(testbed: &Testbed) -> Result<()> {
    first(testbed)
        .module(Implementation::CudaC)
        .map(|_| ())
        .map_err(|why| Error::Waived(format!("{why}; every other check ran the Rust kernels only")))
}

pub(super) fn opencl_c_twins(testbed: &Testbed) -> Result<()> {
    first(testbed)
        .opencl()
        .map(|_| ())
        .map_err(|why| Error::Waived(format!("{why}; the family checks ran without OpenCL")))
}

/// Ordinary and `CL_MEM_ALLOC_HOST_PTR` host memory, both directions, and the
/// OpenCL fma_chain on a chunk, against the input and the CPU reference.
pub(super) fn opencl_transfers_and_pipeline(testbed: &Testbed) -> Result<()> {
    use crate::opencl::{ClBuffer, MappedHostBuffer};
    let dut = first(testbed);
    let side = dut.opencl().map_err(Error::Waived)?;
    let (context, queue) = (side.context(), side.queue());
    let source: Vec<f32> = (0..LEN).map(|i| matrix_value(i, 5)).collect();
    let mut device = ClBuffer::<f32>::new(context, LEN)?;
    device.write(queue, 0, &source)?;
    verified(
        "OpenCL write from ordinary memory",
        first_mismatch(&device.to_host(queue)?, &source),
    )?;
    let mut pinned = MappedHostBuffer::<f32>::new(context, queue, LEN)?;
    pinned.download(queue, 0..LEN, &device)?;
    verified(
        "OpenCL read into ALLOC_HOST_PTR memory",
        first_mismatch(pinned.as_slice(), &source),
    )?;
    device.fill(queue, -1.0)?;
    pinned.upload(queue, 0..LEN, &mut device)?;
    verified(
        "OpenCL write from ALLOC_HOST_PTR memory",
        first_mismatch(&device.to_host(queue)?, &source),
    )?;
    let (start, iterations) = (100, 16);
    launchers::opencl_fma_chain(side, queue, &mut device, start..LEN, iterations, 64)?;
    let got = device.to_host(queue)?;
    let mismatch = got.iter().zip(&source).enumerate().find_map(|(i, (&g, &s))| {
        let expected = if i < start {
            s
        } else {
            reference::fma_chain(s, iterations)
        };
        (g.to_bits() != expected.to_bits()).then(|| format!("element {i} is {g} but the CPU reference says {expected}"))
    });
    verified("OpenCL fma_chain on elements 100.. (the pipeline's kernel)", mismatch)
}

/// The checks of the global-memory copies and the driver's copy, in the order `ptxsuite selftest`
/// runs them (gathered with the other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const COPIES: &[SelfTest] = &[
    SelfTest {
        name: "offset_copy (f16, f32, f64, f32x4)",
        run: offset_copies,
    },
    SelfTest {
        name: "stride_copy (f16, f32, f64, f32x4)",
        run: stride_copies,
    },
    SelfTest {
        name: "shift_copy",
        run: shift_copy,
    },
    SelfTest {
        name: "texture_shift_copy",
        run: texture_shift_copy,
    },
    SelfTest {
        name: "global_2d_tile_load, texture_2d_tile_sample (point, linear, normalized, wrap)",
        run: texture_2d_tiles,
    },
    SelfTest {
        name: "permuted_copy",
        run: permuted_copy,
    },
    SelfTest {
        name: "vector_copy",
        run: vector_copy,
    },
    SelfTest {
        name: "cuMemcpyDtoDAsync (driver copy)",
        run: driver_copy,
    },
];

/// One copy kernel for `T` at its quick values, on every runner and implementation, against its reference.
fn copies<T: CopyElement + 'static>(dut: &DeviceUnderTest, kernel: CopyKernel) -> Result<()> {
    let Some(entry) = kernel.entry::<T>() else {
        return Ok(());
    };
    let input = pattern::<T>(LEN);
    let (mut runners, _) = copy_runners::<T>(dut, LEN)?;
    let mut got = vec![T::SENTINEL; LEN];
    let mut expected = vec![T::SENTINEL; LEN];
    for runner in &mut runners {
        for implementation in runner.implementations().to_vec() {
            if !kernel.runs_on(implementation) {
                continue;
            }
            for &value in kernel.quick() {
                let threads = kernel.threads(LEN, value);
                runner.fill_output(T::SENTINEL)?;
                runner.launch(implementation, kernel, threads, value)?;
                runner.read_output(&mut got)?;
                expected.fill(T::SENTINEL);
                kernel.reference::<T>()(&mut expected, &input, threads as usize, value as usize);
                verified(
                    format!("{entry} [{}] · {} at {value}", T::NAME, implementation.label()),
                    first_mismatch(&got, &expected),
                )?;
            }
        }
    }
    Ok(())
}

fn every_width(dut: &DeviceUnderTest, kernel: CopyKernel) -> Result<()> {
    copies::<f16>(dut, kernel)?;
    copies::<f32>(dut, kernel)?;
    copies::<f64>(dut, kernel)?;
    copies::<F32x4>(dut, kernel)
}

pub(super) fn offset_copies(testbed: &Testbed) -> Result<()> {
    every_width(first(testbed), CopyKernel::Offset)
}

pub(super) fn stride_copies(testbed: &Testbed) -> Result<()> {
    every_width(first(testbed), CopyKernel::Stride)
}

pub(super) fn shift_copy(testbed: &Testbed) -> Result<()> {
    copies::<f32>(first(testbed), CopyKernel::Shift)
}

pub(super) fn permuted_copy(testbed: &Testbed) -> Result<()> {
    copies::<f32>(first(testbed), CopyKernel::Permuted)
}

pub(super) fn texture_shift_copy(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    copies::<f32>(dut, CopyKernel::TextureShift)?;
    // Past its end a texel reads as 0: the launcher lets fetches run over, never writes.
    let input = pattern::<f32>(LEN);
    let idata = DeviceBuffer::from_host(dut.gpu(), &input)?;
    let texture = crate::gpu::TextureObject::over(dut.gpu(), &idata)?;
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), LEN)?;
    let (threads, shift) = (LEN / 256 * 256, 100);
    for (implementation, _) in dut.ptx_implementations().0.iter().map(|i| (*i, ())) {
        odata.fill(f32::SENTINEL)?;
        launchers::texture_shift_copy(dut, implementation, &mut odata, &texture, threads as u64, shift)?;
        dut.gpu().synchronize()?;
        let mut expected = vec![f32::SENTINEL; LEN];
        reference::texture_shift_copy(&mut expected, &input, threads, shift as usize);
        verified(
            format!("texture_shift_copy · {} reading past the end", implementation.label()),
            first_mismatch(&odata.to_host()?, &expected),
        )?;
    }
    Ok(())
}

pub(super) fn texture_2d_tiles(testbed: &Testbed) -> Result<()> {
    crate::experiments::check_tile_kernels(first(testbed))
}

/// Whole, partial and odd lengths (the vector loop and the scalar tail).
const VECTOR_LENGTHS: [u64; 4] = [LEN as u64, 1000, 4099, 3];

/// `vector_copy` and the driver copy over lengths the quick values do not cover.
fn prefix_copies(dut: &DeviceUnderTest, kernel: CopyKernel) -> Result<()> {
    let input = pattern::<f32>(LEN);
    let (mut runners, _) = copy_runners::<f32>(dut, LEN)?;
    let mut got = vec![f32::SENTINEL; LEN];
    let mut expected = vec![f32::SENTINEL; LEN];
    let mut ran = false;
    for runner in &mut runners {
        for implementation in runner.implementations().to_vec() {
            if !kernel.runs_on(implementation) {
                continue;
            }
            ran = true;
            for n in VECTOR_LENGTHS {
                runner.fill_output(f32::SENTINEL)?;
                runner.launch(implementation, kernel, n, 0)?;
                runner.read_output(&mut got)?;
                expected.fill(f32::SENTINEL);
                reference::copy_prefix(&mut expected, &input, n as usize, 0);
                verified(
                    format!(
                        "{} · {} of {n} elements",
                        kernel.entry::<f32>().unwrap_or("copy"),
                        implementation.label()
                    ),
                    first_mismatch(&got, &expected),
                )?;
            }
        }
    }
    if ran {
        Ok(())
    } else {
        Err(Error::Waived("not selected (--impl)".into()))
    }
}

pub(super) fn vector_copy(testbed: &Testbed) -> Result<()> {
    prefix_copies(first(testbed), CopyKernel::Vector)
}

pub(super) fn driver_copy(testbed: &Testbed) -> Result<()> {
    prefix_copies(first(testbed), CopyKernel::DriverCopy)
}

/// (width, height): the whitepaper's width (float4 rows), and an odd width (scalar rows).
const MATVEC_SHAPES: [(u32, u32); 2] = [(1100, 300), (257, 70)];

/// The checks of the matrix-vector versions and cuBLAS's SGEMV, in the order `ptxsuite selftest`
/// runs them (gathered with the other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const MATRIX_VECTOR: &[SelfTest] = &[
    SelfTest {
        name: "matrix-vector, seven versions",
        run: matvec_versions,
    },
    SelfTest {
        name: "cuBLAS SGEMV",
        run: cublas_sgemv,
    },
];

/// Every matrix-vector entry (versions in every implementation, and the library's)
/// on each shape, against the CPU reference. `library` picks the library entries or the kernels.
fn matvec_entries(testbed: &Testbed, library: bool) -> Result<()> {
    let dut = first(testbed);
    let (mut runners, waived) = matvec_runners(dut)?;
    let mut ran = false;
    for (width, height) in MATVEC_SHAPES {
        let m: Vec<f32> = (0..(width * height) as usize).map(|i| matrix_value(i, 0)).collect();
        let v: Vec<f32> = (0..width as usize).map(|x| matrix_value(x, 1)).collect();
        let (expected, scale) = reference::matvec(&m, width as usize, height as usize, &v);
        for runner in &mut runners {
            runner.load(&m, &v, width, height)?;
            for entry in runner.entries().into_iter().filter(|e| e.version.is_none() == library) {
                ran = true;
                runner.fill_w(f32::NAN)?;
                runner.time(&entry, &once())?;
                verified(
                    format!(
                        "{} · {}, {height} x {width}",
                        entry.kernel,
                        entry.implementation.label()
                    ),
                    reference::matvec_mismatch(&runner.read_w()?, &expected, &scale, width as usize),
                )?;
            }
        }
    }
    match (
        ran,
        waived
            .into_iter()
            .find(|(i, _)| library == (*i == Implementation::Cublas)),
    ) {
        (false, Some((_, why))) => Err(Error::Waived(why)),
        _ => Ok(()),
    }
}

pub(super) fn matvec_versions(testbed: &Testbed) -> Result<()> {
    matvec_entries(testbed, false)
}

pub(super) fn cublas_sgemv(testbed: &Testbed) -> Result<()> {
    matvec_entries(testbed, true)
}

/// The checks of the host transfers, zero-copy kernels and the staged pipelines, in the order
/// `ptxsuite selftest` runs them (gathered with the other families' by
/// [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const TRANSFERS: &[SelfTest] = &[
    SelfTest {
        name: "transfers: pageable",
        run: pageable_transfers,
    },
    SelfTest {
        name: "transfers: pinned",
        run: pinned_transfers,
    },
    SelfTest {
        name: "transfers: write-combined",
        run: write_combined_transfers,
    },
    SelfTest {
        name: "transfers: mapped",
        run: mapped_transfers,
    },
    SelfTest {
        name: "zero-copy kernels (mapped memory)",
        run: zero_copy_kernels,
    },
    SelfTest {
        name: "streams: staged fma_chain pipeline",
        run: staged_pipeline,
    },
    SelfTest {
        name: "OpenCL: ordinary and ALLOC_HOST_PTR transfers, fma_chain",
        run: opencl_transfers_and_pipeline,
    },
];

pub(super) fn pageable_transfers(testbed: &Testbed) -> Result<()> {
    let gpu = first(testbed).gpu();
    let source = pattern::<f32>(LEN);
    let device = DeviceBuffer::from_host(gpu, &source)?; // blocking H2D
    let mut back = vec![-1.0f32; LEN];
    device.copy_to_host(&mut back)?; // blocking D2H
    verified("pageable H2D then D2H", first_mismatch(&back, &source))
}

/// Upload from and download into `kind` memory on the device's stream.
fn pinned_round_trip(testbed: &Testbed, kind: HostMemoryKind) -> Result<()> {
    let gpu = first(testbed).gpu();
    if kind == HostMemoryKind::Mapped && !gpu.info().can_map_host_memory {
        return Err(Error::Waived(format!("{} cannot map host memory", gpu.info().name)));
    }
    let source = pattern::<f32>(LEN);
    let mut host = PinnedBuffer::<f32>::new(gpu, LEN, kind)?;
    host.as_mut_slice().copy_from_slice(&source);
    let mut device = DeviceBuffer::<f32>::uninit(gpu, LEN)?;
    device.fill(-1.0)?;
    let (half, stream) = (LEN / 2, gpu.stream());
    // SAFETY: neither buffer is touched until the synchronization below.
    unsafe {
        host.upload_async(0..half, &mut device, stream)?;
        host.upload_async(half..LEN, &mut device, stream)?;
    }
    gpu.synchronize()?;
    verified(
        format!("H2D from {} memory", kind.label()),
        first_mismatch(&device.to_host()?, &source),
    )?;
    host.as_mut_slice().fill(-1.0);
    // SAFETY: as above.
    unsafe { host.download_async(0..LEN, &device, stream)? };
    gpu.synchronize()?;
    verified(
        format!("D2H into {} memory", kind.label()),
        first_mismatch(host.as_slice(), &source),
    )
}

pub(super) fn pinned_transfers(testbed: &Testbed) -> Result<()> {
    pinned_round_trip(testbed, HostMemoryKind::Pinned)
}

pub(super) fn write_combined_transfers(testbed: &Testbed) -> Result<()> {
    pinned_round_trip(testbed, HostMemoryKind::WriteCombined)
}

pub(super) fn mapped_transfers(testbed: &Testbed) -> Result<()> {
    pinned_round_trip(testbed, HostMemoryKind::Mapped)
}

pub(super) fn zero_copy_kernels(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let gpu = dut.gpu();
    if !gpu.info().can_map_host_memory {
        return Err(Error::Waived(format!("{} cannot map host memory", gpu.info().name)));
    }
    let source = pattern::<f32>(LEN);
    let mut mapped_in = PinnedBuffer::<f32>::new(gpu, LEN, HostMemoryKind::Mapped)?;
    mapped_in.as_mut_slice().copy_from_slice(&source);
    let mut mapped_out = PinnedBuffer::<f32>::new(gpu, LEN, HostMemoryKind::Mapped)?;
    let device_in = DeviceBuffer::from_host(gpu, &source)?;
    let mut device_out = DeviceBuffer::<f32>::uninit(gpu, LEN)?;
    let (in_ptr, out_ptr) = (mapped_in.as_global()?, mapped_out.as_global_mut()?);
    let rust = Implementation::Rust;

    device_out.fill(-1.0)?;
    let out_len = device_out.len();
    launchers::vector_copy_global(
        dut,
        rust,
        (device_out.as_global_mut(), out_len),
        (in_ptr, LEN),
        LEN as u64,
    )?;
    gpu.synchronize()?;
    verified(
        "vector_copy reading mapped memory",
        first_mismatch(&device_out.to_host()?, &source),
    )?;

    mapped_out.as_mut_slice().fill(-1.0);
    launchers::vector_copy_global(dut, rust, (out_ptr, LEN), (device_in.as_global(), LEN), LEN as u64)?;
    gpu.synchronize()?;
    verified(
        "vector_copy writing mapped memory",
        first_mismatch(mapped_out.as_slice(), &source),
    )?;

    mapped_out.as_mut_slice().fill(-1.0);
    launchers::vector_copy_global(dut, rust, (out_ptr, LEN), (in_ptr, LEN), LEN as u64)?;
    gpu.synchronize()?;
    verified(
        "vector_copy from mapped to mapped memory",
        first_mismatch(mapped_out.as_slice(), &source),
    )
}

pub(super) fn staged_pipeline(testbed: &Testbed) -> Result<()> {
    const STREAMS: u32 = 4;
    const ITERATIONS: u32 = 16;
    let dut = first(testbed);
    let len = LEN + 100; // chunks of whole 256-element blocks and a ragged last one
    let source: Vec<f32> = (0..len).map(|i| matrix_value(i, 5)).collect();
    let mut pipeline = CudaStagedRunner::new(dut, STREAMS);
    pipeline.prepare(&source)?;
    for (n, order) in [
        (1, UploadOrder::AsListed),
        (STREAMS, UploadOrder::AsListed),
        (STREAMS, UploadOrder::Chained),
    ] {
        pipeline.fill_data(f32::NAN)?;
        pipeline.enqueue(PipelineStep::Staged {
            streams: n,
            order,
            memory: HostMemory::PageLocked,
            iterations: ITERATIONS,
        })?;
        pipeline.wait()?;
        let got = pipeline.read_data()?;
        let chunks = chunk_ranges(len, n, 256).len();
        let mismatch = got.iter().zip(&source).enumerate().find_map(|(i, (&g, &s))| {
            let expected = reference::fma_chain(s, ITERATIONS);
            (g.to_bits() != expected.to_bits())
                .then(|| format!("element {i} is {g} but the CPU reference says {expected}"))
        });
        verified(
            format!(
                "staged pipeline over {n} stream(s), {chunks} chunk(s){}",
                if order == UploadOrder::Chained {
                    ", uploads in order"
                } else {
                    ""
                }
            ),
            mismatch,
        )?;
    }
    Ok(())
}

/// The checks of the diagnostics (the kernel time limit), in the order `ptxsuite selftest` runs
/// them (gathered with the other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const DIAGNOSTICS: &[SelfTest] = &[SelfTest {
    name: "kernel time limit (spin_wait)",
    run: kernel_time_limit,
}];

/// spin_wait runs as long as asked, and a spin past the limit is reported
/// as a `KernelTimeout`, after which the context works again.
pub(super) fn kernel_time_limit(testbed: &Testbed) -> Result<()> {
    let gpu = first(testbed).gpu();
    let saved = gpu.kernel_timeout();
    let result = time_limit_checks(testbed);
    gpu.set_kernel_timeout(saved);
    result
}

fn time_limit_checks(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let gpu = dut.gpu();
    let generous = Duration::from_secs(30);
    gpu.set_kernel_timeout(generous);
    let timer = EventTimer::new(gpu)?;
    let spin = Duration::from_millis(50);
    let ms = timer.time_ms(gpu.stream(), || launchers::spin_wait(dut, spin))?;
    if ms < 0.9 * spin.as_secs_f64() * 1e3 {
        return Err(Error::Verification {
            what: "spin_wait(50 ms)".into(),
            detail: format!("it returned after {ms:.3} ms"),
        });
    }

    gpu.set_kernel_timeout(Duration::from_millis(100));
    launchers::spin_wait(dut, Duration::from_secs(1))?;
    let outcome = gpu.synchronize();
    gpu.set_kernel_timeout(generous);
    let recovered = gpu.synchronize(); // waits out the rest of the spin
    match outcome {
        Err(Error::KernelTimeout { .. }) => {}
        Ok(()) => {
            return Err(Error::Verification {
                what: "spin_wait(1 s) under a 0.1 s limit".into(),
                detail: "the wait returned without a KernelTimeout".into(),
            });
        }
        Err(other) => return Err(other),
    }
    recovered?;
    if gpu.watchdog().overrun() {
        return Err(Error::Verification {
            what: "recovery after a time-out".into(),
            detail: "the watchdog still reports work past its limit after a successful wait".into(),
        });
    }
    // The context works again: a copy after the spin.
    driver_copy(testbed)
}
