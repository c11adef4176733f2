//! The self-test checks: small launches of every kernel and host path,
//! compared with the CPU references of [`crate::reference`].

use std::sync::Arc;
use std::time::Duration;

use cudarc::driver::CudaStream;
use half::f16;
use kernels_gpu::device::F32x4;

use crate::copy_element::{CopyElement, first_mismatch, pattern};
use crate::error::{DriverResultExt, Error, Result};
use crate::experiments::overlap_model::chunk_ranges;
use crate::experiments::{matrix_value, staged_once};
use crate::gpu::{
    CublasHandle, DeviceBuffer, EventTimer, Gpu, HostMemoryKind, Implementation, PinnedBuffer, TextureObject,
};
use crate::launchers::{self, MatVecVersion};
use crate::reference;

/// Elements of the copy buffers: 64 blocks of threads plus room for offsets up to 32.
const LEN: usize = 64 * 256 + 32;
const ROOM: usize = 32;

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

/// Rust, and the CUDA C twins when NVRTC compiled them (their own row says when not).
pub(super) fn implementations(gpu: &Gpu) -> Vec<Implementation> {
    gpu.kernel_implementations().0
}

pub(super) fn cuda_c_twins(gpu: &Gpu) -> Result<()> {
    gpu.twins()
        .map(|_| ())
        .map_err(|why| Error::NotAvailable(format!("{why}; every other check ran the Rust kernels only")))
}

type CopyLauncher<T> = fn(&Gpu, Implementation, &mut DeviceBuffer<T>, &DeviceBuffer<T>, u64, i32) -> Result<()>;
type CopyReference<T> = fn(&mut [T], &[T], usize, usize);

/// One copy kernel for `T` at each parameter value, Rust and CUDA C, against its reference.
fn copies<T: CopyElement>(
    gpu: &Gpu,
    kernel: &str,
    values: &[i32],
    threads: fn(i32) -> usize,
    launch: CopyLauncher<T>,
    reference: CopyReference<T>,
) -> Result<()> {
    let input = pattern::<T>(LEN);
    let idata = DeviceBuffer::from_host(gpu, &input)?;
    let mut odata = DeviceBuffer::<T>::uninit(gpu, LEN)?;
    let mut expected = vec![T::SENTINEL; LEN];
    for imp in implementations(gpu) {
        for &value in values {
            let threads = threads(value);
            odata.fill(T::SENTINEL)?;
            launch(gpu, imp, &mut odata, &idata, threads as u64, value)?;
            gpu.synchronize()?;
            expected.fill(T::SENTINEL);
            reference(&mut expected, &input, threads, value as usize);
            verified(
                format!("{kernel} [{}] · {} at {value}", T::NAME, imp.label()),
                first_mismatch(&odata.to_host()?, &expected),
            )?;
        }
    }
    Ok(())
}

const OFFSETS: [i32; 5] = [0, 1, 7, 16, 32];
const STRIDES: [i32; 5] = [1, 2, 3, 8, 32];

fn offset_threads(_: i32) -> usize {
    LEN - ROOM
}

fn stride_threads(stride: i32) -> usize {
    LEN / stride as usize / 256 * 256
}

fn offset_width<T: CopyElement>(gpu: &Gpu) -> Result<()> {
    copies::<T>(
        gpu,
        T::OFFSET_KERNEL,
        &OFFSETS,
        offset_threads,
        launchers::offset_copy::<T>,
        reference::offset_copy,
    )
}

fn stride_width<T: CopyElement>(gpu: &Gpu) -> Result<()> {
    copies::<T>(
        gpu,
        T::STRIDE_KERNEL,
        &STRIDES,
        stride_threads,
        launchers::stride_copy::<T>,
        reference::stride_copy,
    )
}

pub(super) fn offset_copies(gpu: &Gpu) -> Result<()> {
    offset_width::<f16>(gpu)?;
    offset_width::<f32>(gpu)?;
    offset_width::<f64>(gpu)?;
    offset_width::<F32x4>(gpu)
}

pub(super) fn stride_copies(gpu: &Gpu) -> Result<()> {
    stride_width::<f16>(gpu)?;
    stride_width::<f32>(gpu)?;
    stride_width::<f64>(gpu)?;
    stride_width::<F32x4>(gpu)
}

pub(super) fn shift_copy(gpu: &Gpu) -> Result<()> {
    copies::<f32>(
        gpu,
        "shift_copy",
        &OFFSETS,
        offset_threads,
        launchers::shift_copy,
        reference::shift_copy,
    )
}

pub(super) fn texture_shift_copy(gpu: &Gpu) -> Result<()> {
    let input = pattern::<f32>(LEN);
    let idata = DeviceBuffer::from_host(gpu, &input)?;
    let texture = TextureObject::over(gpu, &idata)?;
    let mut odata = DeviceBuffer::<f32>::uninit(gpu, LEN)?;
    let mut expected = vec![f32::SENTINEL; LEN];
    let threads = offset_threads(0);
    for imp in implementations(gpu) {
        for shift in OFFSETS {
            odata.fill(f32::SENTINEL)?;
            launchers::texture_shift_copy(gpu, imp, &mut odata, &texture, threads as u64, shift)?;
            gpu.synchronize()?;
            expected.fill(f32::SENTINEL);
            reference::texture_shift_copy(&mut expected, &input, threads, shift as usize);
            verified(
                format!("texture_shift_copy · {} at {shift}", imp.label()),
                first_mismatch(&odata.to_host()?, &expected),
            )?;
        }
    }
    Ok(())
}

/// Whole, partial and odd lengths (the vector loop and the scalar tail).
const VECTOR_LENGTHS: [u64; 4] = [LEN as u64, 1000, 4099, 3];

pub(super) fn vector_copy(gpu: &Gpu) -> Result<()> {
    let input = pattern::<f32>(LEN);
    let idata = DeviceBuffer::from_host(gpu, &input)?;
    let mut odata = DeviceBuffer::<f32>::uninit(gpu, LEN)?;
    let mut expected = vec![f32::SENTINEL; LEN];
    for imp in implementations(gpu) {
        for n in VECTOR_LENGTHS {
            odata.fill(f32::SENTINEL)?;
            launchers::vector_copy(gpu, imp, &mut odata, &idata, n)?;
            gpu.synchronize()?;
            expected.fill(f32::SENTINEL);
            reference::copy_prefix(&mut expected, &input, n as usize, 0);
            verified(
                format!("vector_copy · {} of {n} elements", imp.label()),
                first_mismatch(&odata.to_host()?, &expected),
            )?;
        }
    }
    Ok(())
}

pub(super) fn driver_copy(gpu: &Gpu) -> Result<()> {
    let input = pattern::<f32>(LEN);
    let idata = DeviceBuffer::from_host(gpu, &input)?;
    let mut odata = DeviceBuffer::<f32>::uninit(gpu, LEN)?;
    let mut expected = vec![f32::SENTINEL; LEN];
    for n in VECTOR_LENGTHS {
        odata.fill(f32::SENTINEL)?;
        launchers::driver_copy(&mut odata, &idata, n)?;
        gpu.synchronize()?;
        expected.fill(f32::SENTINEL);
        reference::copy_prefix(&mut expected, &input, n as usize, 0);
        verified(
            format!("cuMemcpyDtoDAsync of {n} elements"),
            first_mismatch(&odata.to_host()?, &expected),
        )?;
    }
    Ok(())
}

/// (width, height): the whitepaper's width (float4 rows), and an odd width (scalar rows).
const MATVEC_SHAPES: [(u32, u32); 2] = [(1100, 300), (257, 70)];

/// Enqueues `w = m · v`: (m, width, height, v, w).
type MatVecLaunch<'a> =
    &'a dyn Fn(&DeviceBuffer<f32>, u32, u32, &DeviceBuffer<f32>, &mut DeviceBuffer<f32>) -> Result<()>;

/// Runs `launch` on each shape and checks `w` against the CPU reference.
fn matvec_shapes(gpu: &Gpu, what: &str, launch: MatVecLaunch<'_>) -> Result<()> {
    for (width, height) in MATVEC_SHAPES {
        let m_host: Vec<f32> = (0..(width * height) as usize).map(|i| matrix_value(i, 0)).collect();
        let v_host: Vec<f32> = (0..width as usize).map(|x| matrix_value(x, 1)).collect();
        let (expected, scale) = reference::matvec(&m_host, width as usize, height as usize, &v_host);
        let m = DeviceBuffer::from_host(gpu, &m_host)?;
        let v = DeviceBuffer::from_host(gpu, &v_host)?;
        let mut w = DeviceBuffer::<f32>::uninit(gpu, height as usize)?;
        w.fill(f32::NAN)?;
        launch(&m, width, height, &v, &mut w)?;
        gpu.synchronize()?;
        verified(
            format!("{what}, {height} x {width}"),
            reference::matvec_mismatch(&w.to_host()?, &expected, &scale),
        )?;
    }
    Ok(())
}

pub(super) fn matvec_versions(gpu: &Gpu) -> Result<()> {
    for version in MatVecVersion::ALL {
        for imp in implementations(gpu) {
            matvec_shapes(
                gpu,
                &format!("{} · {}", version.label(), imp.label()),
                &|m, width, height, v, w| launchers::matvec(gpu, imp, version, m, width, height, v, w),
            )?;
        }
    }
    Ok(())
}

pub(super) fn cublas_sgemv(gpu: &Gpu) -> Result<()> {
    let cublas = CublasHandle::new(gpu).map_err(|e| Error::NotAvailable(e.to_string()))?;
    matvec_shapes(gpu, "cublasSgemv", &|m, width, height, v, w| {
        cublas.sgemv_row_major(m, width, height, v, w)
    })
}

pub(super) fn pageable_transfers(gpu: &Gpu) -> Result<()> {
    let source = pattern::<f32>(LEN);
    let device = DeviceBuffer::from_host(gpu, &source)?; // blocking H2D
    let mut back = vec![-1.0f32; LEN];
    device.copy_to_host(&mut back)?; // blocking D2H
    verified("pageable H2D then D2H", first_mismatch(&back, &source))
}

/// Upload from and download into `kind` memory on the suite's stream.
fn pinned_round_trip(gpu: &Gpu, kind: HostMemoryKind) -> Result<()> {
    if kind == HostMemoryKind::Mapped && !gpu.info().can_map_host_memory {
        return Err(Error::NotAvailable(format!(
            "{} cannot map host memory",
            gpu.info().name
        )));
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

pub(super) fn pinned_transfers(gpu: &Gpu) -> Result<()> {
    pinned_round_trip(gpu, HostMemoryKind::Pinned)
}

pub(super) fn write_combined_transfers(gpu: &Gpu) -> Result<()> {
    pinned_round_trip(gpu, HostMemoryKind::WriteCombined)
}

pub(super) fn mapped_transfers(gpu: &Gpu) -> Result<()> {
    pinned_round_trip(gpu, HostMemoryKind::Mapped)
}

pub(super) fn zero_copy_kernels(gpu: &Gpu) -> Result<()> {
    if !gpu.info().can_map_host_memory {
        return Err(Error::NotAvailable(format!(
            "{} cannot map host memory",
            gpu.info().name
        )));
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
        gpu,
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
    launchers::vector_copy_global(gpu, rust, (out_ptr, LEN), (device_in.as_global(), LEN), LEN as u64)?;
    gpu.synchronize()?;
    verified(
        "vector_copy writing mapped memory",
        first_mismatch(mapped_out.as_slice(), &source),
    )?;

    mapped_out.as_mut_slice().fill(-1.0);
    launchers::vector_copy_global(gpu, rust, (out_ptr, LEN), (in_ptr, LEN), LEN as u64)?;
    gpu.synchronize()?;
    verified(
        "vector_copy from mapped to mapped memory",
        first_mismatch(mapped_out.as_slice(), &source),
    )
}

pub(super) fn staged_pipeline(gpu: &Gpu) -> Result<()> {
    const STREAMS: u32 = 4;
    const ITERATIONS: u32 = 16;
    let len = LEN + 100; // chunks of whole 256-element blocks and a ragged last one
    let mut host = PinnedBuffer::<f32>::new(gpu, len, HostMemoryKind::Pinned)?;
    for (i, x) in host.as_mut_slice().iter_mut().enumerate() {
        *x = (i % 1000) as f32 / 1000.0;
    }
    let source = host.as_slice().to_vec();
    let streams: Vec<Arc<CudaStream>> = (0..STREAMS)
        .map(|_| gpu.context().new_stream().during("cuStreamCreate"))
        .collect::<Result<_>>()?;
    let mut data = DeviceBuffer::<f32>::uninit(gpu, len)?;
    for n in [1, STREAMS] {
        data.fill(f32::NAN)?;
        staged_once(gpu, &streams, &host, &mut data, n, ITERATIONS)?;
        let got = data.to_host()?;
        let chunks = chunk_ranges(len, n, 256).len();
        let mismatch = got.iter().zip(&source).enumerate().find_map(|(i, (&g, &s))| {
            let expected = reference::fma_chain(s, ITERATIONS);
            (g.to_bits() != expected.to_bits())
                .then(|| format!("element {i} is {g} but the CPU reference says {expected}"))
        });
        verified(
            format!("staged pipeline over {n} stream(s), {chunks} chunk(s)"),
            mismatch,
        )?;
    }
    Ok(())
}

/// spin_wait runs as long as asked, and a spin past the limit is reported
/// as a `KernelTimeout`, after which the context works again.
pub(super) fn kernel_time_limit(gpu: &Gpu) -> Result<()> {
    let saved = gpu.kernel_timeout();
    let result = time_limit_checks(gpu);
    gpu.set_kernel_timeout(saved);
    result
}

fn time_limit_checks(gpu: &Gpu) -> Result<()> {
    let generous = Duration::from_secs(30);
    gpu.set_kernel_timeout(generous);
    let timer = EventTimer::new(gpu)?;
    let spin = Duration::from_millis(50);
    let ms = timer.time_ms(gpu.stream(), || launchers::spin_wait(gpu, spin))?;
    if ms < 0.9 * spin.as_secs_f64() * 1e3 {
        return Err(Error::Verification {
            what: "spin_wait(50 ms)".into(),
            detail: format!("it returned after {ms:.3} ms"),
        });
    }

    gpu.set_kernel_timeout(Duration::from_millis(100));
    launchers::spin_wait(gpu, Duration::from_secs(1))?;
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
    driver_copy(gpu)
}
