//! Integration tests on a real GPU: every launcher's output against the CPU
//! reference, the launchers' refusals, the JIT error path and event timing.
//!
//! Without a CUDA driver or device each test prints `SKIPPED ...` (past the harness's output capture) and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, implementations, note_skipped};
use half::f16;
use kernels_gpu::device::F32x4;
use ptxsuite::copy_element::{CopyElement, pattern as element_pattern};
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::gpu::{DeviceBuffer, EventTimer, Gpu, TextureObject};
use ptxsuite::testbed::{DeviceUnderTest, Implementation};
use ptxsuite::{Error, launchers, reference};

const SENTINEL: f32 = -1.0;

fn pattern(len: usize) -> Vec<f32> {
    (0..len).map(|i| (i % 1_000_003) as f32 + 0.25).collect()
}

#[test]
fn gpu_offset_copy_matches_reference() {
    let Some(dut) = gpu_or_skip("gpu_offset_copy_matches_reference") else {
        return;
    };
    let threads = 1 << 20;
    let len = threads + 32 + 100; // a tail past the last offset, not a multiple of the block
    let input = pattern(len);
    let idata = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), len).unwrap();
    for (imp, offset) in implementations(&dut)
        .into_iter()
        .flat_map(|i| [0, 1, 7, 8, 15, 16, 17, 31, 32].map(|o| (i, o)))
    {
        odata.fill(SENTINEL).unwrap();
        launchers::offset_copy(&dut, imp, &mut odata, &idata, threads as u64, offset).unwrap();
        dut.gpu().synchronize().unwrap();
        let got = odata.to_host().unwrap();
        let mut expected = vec![SENTINEL; len];
        reference::offset_copy(&mut expected, &input, threads, offset as usize);
        assert!(
            got == expected,
            "offset {offset}: device result differs from the CPU reference"
        );
    }
}

#[test]
fn gpu_stride_copy_matches_reference() {
    let Some(dut) = gpu_or_skip("gpu_stride_copy_matches_reference") else {
        return;
    };
    let len = (1 << 22) + 3;
    let input = pattern(len);
    let idata = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), len).unwrap();
    for (imp, stride) in implementations(&dut)
        .into_iter()
        .flat_map(|i| [1usize, 2, 3, 8, 16, 31, 32].map(|s| (i, s)))
    {
        let threads = len / stride / 256 * 256;
        odata.fill(SENTINEL).unwrap();
        launchers::stride_copy(&dut, imp, &mut odata, &idata, threads as u64, stride as i32).unwrap();
        dut.gpu().synchronize().unwrap();
        let got = odata.to_host().unwrap();
        let mut expected = vec![SENTINEL; len];
        reference::stride_copy(&mut expected, &input, threads, stride);
        assert!(
            got == expected,
            "stride {stride}: device result differs from the CPU reference"
        );
    }
}

#[test]
fn gpu_launchers_refuse_out_of_bounds_launches() {
    let Some(dut) = gpu_or_skip("gpu_launchers_refuse_out_of_bounds_launches") else {
        return;
    };
    let idata = DeviceBuffer::from_host(dut.gpu(), &pattern(1024)).unwrap();
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), 1024).unwrap();
    let imp = Implementation::Rust;
    let err = launchers::offset_copy(&dut, imp, &mut odata, &idata, 1024, 1).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidLaunch {
                kernel: "offset_copy",
                ..
            }
        ),
        "{err}"
    );
    let err = launchers::stride_copy(&dut, imp, &mut odata, &idata, 512, 3).unwrap_err(); // touches 1533
    assert!(
        matches!(
            err,
            Error::InvalidLaunch {
                kernel: "stride_copy",
                ..
            }
        ),
        "{err}"
    );
    // The context is still healthy: nothing was launched.
    launchers::offset_copy(&dut, imp, &mut odata, &idata, 768, 256).unwrap();
    dut.gpu().synchronize().unwrap();
}

#[test]
fn gpu_rejected_ptx_reports_the_jit_log() {
    if gpu_or_skip("gpu_rejected_ptx_reports_the_jit_log").is_none() {
        return;
    }
    let broken = ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry broken() { bogus.instruction; }\n";
    let err = DeviceUnderTest::with_ptx(CudaOrdinal(0), broken)
        .err()
        .expect("broken PTX must not load");
    match &err {
        Error::ModuleLoad { log, .. } => assert!(!log.is_empty(), "the JIT error log should explain: {err}"),
        other => panic!("expected ModuleLoad, got {other}"),
    }
}

#[test]
fn gpu_kernels_report_resources_and_occupancy() {
    let Some(dut) = gpu_or_skip("gpu_kernels_report_resources_and_occupancy") else {
        return;
    };
    for name in ["offset_copy", "stride_copy"] {
        let kernel = dut.kernel(Implementation::Rust, name).unwrap();
        let r = kernel.resources();
        assert!(
            r.registers_per_thread > 0 && r.registers_per_thread <= 255,
            "{name}: {r:?}"
        );
        assert_eq!(r.local_bytes_per_thread, 0, "{name} spills");
        assert!(kernel.max_active_blocks_per_sm(256, 0).unwrap() >= 1);
    }
    assert!(dut.info().theoretical_bandwidth_gbps > 0.0);
    assert!(matches!(
        dut.kernel(Implementation::Rust, "no_such_kernel"),
        Err(Error::MissingKernel(_))
    ));
}

#[test]
fn gpu_event_timer_measures_positive_time() {
    let Some(dut) = gpu_or_skip("gpu_event_timer_measures_positive_time") else {
        return;
    };
    let len = 1 << 24;
    let idata = DeviceBuffer::from_host(dut.gpu(), &vec![1.0f32; len]).unwrap();
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), len).unwrap();
    let timer = EventTimer::new(dut.gpu()).unwrap();
    let ms = timer
        .time_ms(dut.gpu().stream(), || {
            for _ in 0..5 {
                launchers::offset_copy(&dut, Implementation::Rust, &mut odata, &idata, len as u64, 0)?;
            }
            Ok(())
        })
        .unwrap();
    assert!(ms > 0.0 && ms < 10_000.0, "{ms} ms");
}

#[test]
fn gpu_bad_device_index_is_an_error() {
    if gpu_or_skip("gpu_bad_device_index_is_an_error").is_none() {
        return;
    }
    let err = Gpu::open(CudaOrdinal(4096)).err().expect("device 4096 does not exist");
    assert!(matches!(err, Error::DeviceIndex { requested: 4096, .. }), "{err}");
}

#[test]
fn gpu_shift_and_texture_shift_copies_match_reference() {
    let Some(dut) = gpu_or_skip("gpu_shift_and_texture_shift_copies_match_reference") else {
        return;
    };
    let threads = 1 << 20;
    let len = threads + 32;
    let input = pattern(len);
    let idata = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let texture = TextureObject::over(dut.gpu(), &idata).unwrap();
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), len).unwrap();
    for imp in implementations(&dut) {
        for shift in [0, 1, 8, 17, 32] {
            let mut expected = vec![SENTINEL; len];
            reference::shift_copy(&mut expected, &input, threads, shift as usize);
            odata.fill(SENTINEL).unwrap();
            launchers::shift_copy(&dut, imp, &mut odata, &idata, threads as u64, shift).unwrap();
            assert!(odata.to_host().unwrap() == expected, "{imp:?} shift_copy {shift}");

            // A texture over the whole input: texels past its end read 0; shift 64 reaches past it.
            for tex_shift in [shift, shift + 32] {
                let mut expected = vec![SENTINEL; len];
                reference::texture_shift_copy(&mut expected, &input, threads, tex_shift as usize);
                odata.fill(SENTINEL).unwrap();
                launchers::texture_shift_copy(&dut, imp, &mut odata, &texture, threads as u64, tex_shift).unwrap();
                assert!(
                    odata.to_host().unwrap() == expected,
                    "{imp:?} texture_shift_copy {tex_shift}"
                );
            }
        }
    }
}

#[test]
fn gpu_permuted_copy_matches_reference_at_every_key() {
    let Some(dut) = gpu_or_skip("gpu_permuted_copy_matches_reference_at_every_key") else {
        return;
    };
    let threads = 1 << 20;
    let len = threads + 32; // a tail the kernel must not touch
    let input = pattern(len);
    let idata = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), len).unwrap();
    for imp in implementations(&dut) {
        for key in 0..32 {
            let mut expected = vec![SENTINEL; len];
            reference::permuted_copy(&mut expected, &input, threads, key as usize);
            odata.fill(SENTINEL).unwrap();
            launchers::permuted_copy(&dut, imp, &mut odata, &idata, threads as u64, key).unwrap();
            assert!(odata.to_host().unwrap() == expected, "{imp:?} permuted_copy {key}");
        }
    }
}

fn check_widths<T: CopyElement + PartialEq + 'static>(dut: &DeviceUnderTest) {
    let threads = 1 << 18;
    let len = threads * 33 + 5; // room for stride 32 and offset 32
    let input: Vec<T> = element_pattern(len);
    let idata = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let mut odata = DeviceBuffer::<T>::uninit(dut.gpu(), len).unwrap();
    for imp in implementations(dut) {
        for param in [1, 2, 7, 32] {
            let mut expected = vec![T::SENTINEL; len];
            reference::offset_copy(&mut expected, &input, threads, param as usize);
            odata.fill(T::SENTINEL).unwrap();
            launchers::offset_copy(dut, imp, &mut odata, &idata, threads as u64, param).unwrap();
            assert!(
                odata.to_host().unwrap() == expected,
                "{imp:?} {} offset {param}",
                T::NAME
            );

            let mut expected = vec![T::SENTINEL; len];
            reference::stride_copy(&mut expected, &input, threads, param as usize);
            odata.fill(T::SENTINEL).unwrap();
            launchers::stride_copy(dut, imp, &mut odata, &idata, threads as u64, param).unwrap();
            assert!(
                odata.to_host().unwrap() == expected,
                "{imp:?} {} stride {param}",
                T::NAME
            );
        }
    }
}

#[test]
fn gpu_offset_and_stride_copies_of_every_width_match_reference() {
    let Some(dut) = gpu_or_skip("gpu_offset_and_stride_copies_of_every_width_match_reference") else {
        return;
    };
    check_widths::<f16>(&dut);
    check_widths::<f64>(&dut);
    check_widths::<F32x4>(&dut);
}

#[test]
fn gpu_vector_and_driver_copies_match_reference() {
    let Some(dut) = gpu_or_skip("gpu_vector_and_driver_copies_match_reference") else {
        return;
    };
    let len = (1 << 22) + 7;
    let input = pattern(len);
    let idata = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    let mut odata = DeviceBuffer::<f32>::uninit(dut.gpu(), len).unwrap();
    for n in [1u64, 5, 4096, (1 << 22) + 3, len as u64] {
        let mut expected = vec![SENTINEL; len];
        reference::copy_prefix(&mut expected, &input, n as usize, 0);
        for imp in implementations(&dut) {
            odata.fill(SENTINEL).unwrap();
            launchers::vector_copy(&dut, imp, &mut odata, &idata, n).unwrap();
            assert!(odata.to_host().unwrap() == expected, "{imp:?} vector_copy of {n}");
        }
        odata.fill(SENTINEL).unwrap();
        launchers::driver_copy(&mut odata, &idata, n).unwrap();
        dut.gpu().synchronize().unwrap();
        assert!(odata.to_host().unwrap() == expected, "cuMemcpyDtoD of {n}");
    }
    let err = launchers::vector_copy(&dut, Implementation::Rust, &mut odata, &idata, len as u64 + 1).unwrap_err();
    assert!(matches!(err, Error::InvalidLaunch { .. }), "{err}");
}

/// A matrix-vector product's inputs on the device, its output buffer and its
/// CPU reference (with the error scale `reference::matvec_mismatch` reads).
struct MatVecCase {
    m: DeviceBuffer<f32>,
    v: DeviceBuffer<f32>,
    w: DeviceBuffer<f32>,
    expected: Vec<f32>,
    scale: Vec<f64>,
}

impl MatVecCase {
    fn new(dut: &DeviceUnderTest, width: u32, height: u32) -> Self {
        let m_host: Vec<f32> = (0..(width * height) as usize)
            .map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0)
            .collect();
        let v_host: Vec<f32> = (0..width as usize)
            .map(|i| ((i * 13) % 17) as f32 / 8.0 - 1.0)
            .collect();
        let (expected, scale) = reference::matvec(&m_host, width as usize, height as usize, &v_host);
        Self {
            m: DeviceBuffer::from_host(dut.gpu(), &m_host).unwrap(),
            v: DeviceBuffer::from_host(dut.gpu(), &v_host).unwrap(),
            w: DeviceBuffer::<f32>::uninit(dut.gpu(), height as usize).unwrap(),
            expected,
            scale,
        }
    }
}

#[test]
fn gpu_matvec_versions_and_cublas_match_reference() {
    use ptxsuite::launchers::{MatVecVersion, matvec};
    let Some(dut) = gpu_or_skip("gpu_matvec_versions_and_cublas_match_reference") else {
        return;
    };
    for (width, height) in [(1100u32, 6099u32), (333, 1000), (4096, 257)] {
        let MatVecCase {
            m,
            v,
            mut w,
            expected,
            scale,
        } = MatVecCase::new(&dut, width, height);
        for imp in implementations(&dut) {
            for version in MatVecVersion::ALL {
                w.fill(f32::NAN).unwrap();
                matvec(&dut, imp, version, &m, width, height, &v, &mut w).unwrap();
                let got = w.to_host().unwrap();
                if let Some(why) = reference::matvec_mismatch(&got, &expected, &scale, width as usize) {
                    panic!("{imp:?} {version:?} {height}x{width}: {why}");
                }
            }
        }
        match dut.cublas() {
            Ok(cublas) => {
                w.fill(f32::NAN).unwrap();
                launchers::cublas_sgemv(cublas, &m, (width, height), &v, &mut w).unwrap();
                dut.gpu().synchronize().unwrap();
                let got = w.to_host().unwrap();
                assert!(
                    reference::matvec_mismatch(&got, &expected, &scale, width as usize).is_none(),
                    "cuBLAS {height}x{width}"
                );
            }
            Err(why) => note_skipped(&format!("cuBLAS check skipped: {why}")),
        }
        let err = matvec(
            &dut,
            Implementation::Rust,
            MatVecVersion::WarpShuffle,
            &m,
            width + 1,
            height,
            &v,
            &mut w,
        );
        assert!(
            matches!(err, Err(Error::InvalidLaunch { .. })),
            "a too-wide product must be refused"
        );
    }
}

/// `matvec_warp_per_row`'s Rust kernel and CUDA C twin add the same products
/// in the same order, whether a row has one warp (1100 columns; 8190, read as
/// floats) or several (2 at 2056, 4 at 4100, 8 at 8192, pieces summed through
/// shared memory): their results agree bit for bit, and with the reference.
#[test]
fn gpu_matvec_warp_per_row_twins_agree_bit_for_bit() {
    use ptxsuite::launchers::{MatVecVersion, matvec};
    let Some(dut) = gpu_or_skip("gpu_matvec_warp_per_row_twins_agree_bit_for_bit") else {
        return;
    };
    if !implementations(&dut).contains(&Implementation::CudaC) {
        note_skipped("warp-per-row twins' bit-for-bit check skipped: no CUDA C twins");
        return;
    }
    for (width, height) in [(1100u32, 6099u32), (8190, 77), (2056, 301), (4100, 77), (8192, 1000)] {
        let MatVecCase {
            m,
            v,
            mut w,
            expected,
            scale,
        } = MatVecCase::new(&dut, width, height);
        let [rust, cuda_c] = [Implementation::Rust, Implementation::CudaC].map(|imp| {
            w.fill(f32::NAN).unwrap();
            matvec(&dut, imp, MatVecVersion::WarpPerRow, &m, width, height, &v, &mut w).unwrap();
            let got = w.to_host().unwrap();
            if let Some(why) = reference::matvec_mismatch(&got, &expected, &scale, width as usize) {
                panic!("{imp:?} {height}x{width}: {why}");
            }
            got
        });
        if let Some(y) = (0..height as usize).find(|&y| rust[y].to_bits() != cuda_c[y].to_bits()) {
            panic!(
                "{height}x{width}, row {y}: Rust {} against CUDA C {}",
                rust[y], cuda_c[y]
            );
        }
    }
}

/// The batched-copies family's runner: the whole source lands on the device
/// whatever the piece (a short last piece included), the device cleared first.
#[test]
fn gpu_piece_copy_runner_copies_the_source_in_pieces() {
    let Some(dut) = gpu_or_skip("gpu_piece_copy_runner_copies_the_source_in_pieces") else {
        return;
    };
    let source = pattern(1000);
    let (mut runners, waived) = launchers::piece_copy_runners(&dut, &source).unwrap();
    assert!(waived.is_empty(), "{waived:?}");
    let runner = runners[0].as_mut();
    assert_eq!(runner.copies(), launchers::CUDA_PINNED_PIECES);
    let settings = ptxsuite::run_settings::RunSettings {
        samples: 2,
        reps: 2,
        ..Default::default()
    };
    for piece in [1000, 256, 3] {
        runner.clear_device().unwrap();
        assert_eq!(runner.read_device().unwrap(), vec![SENTINEL; 1000], "cleared");
        let times = runner.time(piece, &settings).unwrap();
        assert_eq!(times.len(), 2);
        assert!(times.iter().all(|ms| *ms > 0.0), "{times:?}");
        assert!(runner.read_device().unwrap() == source, "pieces of {piece}");
    }
    assert!(matches!(runner.time(0, &settings), Err(Error::InvalidInput(_))));
}

#[test]
fn gpu_pinned_buffers_transfer_both_ways() {
    use ptxsuite::gpu::{HostMemoryKind, PinnedBuffer};
    let Some(dut) = gpu_or_skip("gpu_pinned_buffers_transfer_both_ways") else {
        return;
    };
    let len = (1 << 20) + 3;
    let data = pattern(len);
    assert!(
        PinnedBuffer::<f32>::new(dut.gpu(), len, HostMemoryKind::Pageable).is_err(),
        "pageable is a Vec"
    );
    for kind in [
        HostMemoryKind::Pinned,
        HostMemoryKind::WriteCombined,
        HostMemoryKind::Mapped,
    ] {
        if kind == HostMemoryKind::Mapped && !dut.info().can_map_host_memory {
            note_skipped("mapped memory skipped: the device cannot map host memory");
            continue;
        }
        let mut host = PinnedBuffer::<f32>::new(dut.gpu(), len, kind).unwrap();
        host.as_mut_slice().copy_from_slice(&data);
        let mut device = DeviceBuffer::<f32>::uninit(dut.gpu(), len).unwrap();
        // SAFETY: nothing touches either buffer before the synchronization below.
        unsafe { host.upload_async(0..len, &mut device, dut.gpu().stream()).unwrap() };
        dut.gpu().synchronize().unwrap();
        assert!(device.to_host().unwrap() == data, "{kind:?} upload");
        host.as_mut_slice().fill(0.0);
        // SAFETY: as above.
        unsafe { host.download_async(0..len, &device, dut.gpu().stream()).unwrap() };
        dut.gpu().synchronize().unwrap();
        assert!(host.as_slice() == &data[..], "{kind:?} download");
        assert_eq!(host.device_ptr().is_ok(), kind == HostMemoryKind::Mapped);
        // SAFETY: the size check fails before anything is enqueued.
        assert!(unsafe { host.upload_async(0..len + 1, &mut device, dut.gpu().stream()) }.is_err());
    }
}

#[test]
fn gpu_fma_chain_and_zero_copy_match_reference() {
    use ptxsuite::gpu::{HostMemoryKind, PinnedBuffer};
    let Some(dut) = gpu_or_skip("gpu_fma_chain_and_zero_copy_match_reference") else {
        return;
    };
    let len = (1 << 20) + 5;
    let input: Vec<f32> = (0..len).map(|i| ptxsuite::input_values::matrix_value(i, 5)).collect();
    let mut data = DeviceBuffer::from_host(dut.gpu(), &input).unwrap();
    launchers::fma_chain(&dut, dut.gpu().stream(), &mut data, 100..len, 250).unwrap();
    let got = data.to_host().unwrap();
    for (i, (g, x)) in got.iter().zip(&input).enumerate() {
        let expected = if i < 100 { *x } else { reference::fma_chain(*x, 250) };
        assert_eq!(g.to_bits(), expected.to_bits(), "element {i}");
    }
    assert!(launchers::fma_chain(&dut, dut.gpu().stream(), &mut data, 0..len + 1, 1).is_err());
    if !dut.info().can_map_host_memory {
        note_skipped("zero-copy check skipped: the device cannot map host memory");
        return;
    }
    let mut mapped_in = PinnedBuffer::<f32>::new(dut.gpu(), len, HostMemoryKind::Mapped).unwrap();
    mapped_in.as_mut_slice().copy_from_slice(&input);
    let mut mapped_out = PinnedBuffer::<f32>::new(dut.gpu(), len, HostMemoryKind::Mapped).unwrap();
    let (inp, out) = (mapped_in.as_global().unwrap(), mapped_out.as_global_mut().unwrap());
    launchers::vector_copy_global(&dut, Implementation::Rust, (out, len), (inp, len), len as u64).unwrap();
    dut.gpu().synchronize().unwrap();
    assert!(mapped_out.as_slice() == &input[..], "zero-copy kernel result");
}

#[test]
fn gpu_texture_2d_tile_kernels_match_reference_in_every_sampling() {
    let Some(dut) = gpu_or_skip("gpu_texture_2d_tile_kernels_match_reference_in_every_sampling") else {
        return;
    };
    // Both kernels, each implementation, point / linear / normalized / wrap, three tile shapes.
    ptxsuite::experiments::check_tile_kernels(&dut).unwrap();
    // The family's runner: nothing before an image is loaded, no fetch through a sampling it has no texture of.
    let (mut runners, _) = launchers::texture_2d_runners(&dut).unwrap();
    let runner = runners[0].as_mut();
    let fetch = |sampling| launchers::TileFetch {
        sampling,
        placement: launchers::SamplePlacement {
            offset: (0.5, 0.5),
            scale: (1.0, 1.0),
        },
    };
    let point = launchers::Sampling::POINT;
    assert!(runner.clear_output().is_err(), "no output before a load");
    assert!(runner.fetch_once(Implementation::Rust, fetch(None), 8).is_err());
    let image = launchers::Image2d { width: 64, height: 64 };
    runner.load(&[0.25; 4096], image, &[point, point]).unwrap();
    runner.fetch_once(Implementation::Rust, fetch(Some(point)), 8).unwrap();
    assert_eq!(runner.read_output().unwrap(), vec![0.25; 4096]);
    let linear = launchers::Sampling { linear: true, ..point };
    let refused = runner.fetch_once(Implementation::Rust, fetch(Some(linear)), 8);
    assert!(matches!(refused, Err(Error::InvalidLaunch { .. })), "{refused:?}");
}

/// The streams family's CUDA runners: the staged pipeline (every step, both
/// upload orders over 1, 3 and 16 streams, each run from NaN against the CPU
/// reference; ordinary memory refused), and the fan-out over non-blocking
/// streams, then blocking ones with legacy default-stream memsets between
/// the kernels (the blocks at the map's fixed point, the memsets' word
/// written only where they ran; too many lanes refused).
#[test]
fn gpu_streams_runners_stage_and_fan_out_against_the_reference() {
    use ptxsuite::launchers::{
        CudaFanOutRunner, CudaStagedRunner, FAN_BLOCK, FAN_ITERATIONS, FAN_MARK, FanOut, FanOutRunner, FanStream,
        HostMemory, PipelineStep, StagedRunner, UploadOrder,
    };
    use ptxsuite::run_settings::RunSettings;
    let Some(dut) = gpu_or_skip("gpu_streams_runners_stage_and_fan_out_against_the_reference") else {
        return;
    };
    let settings = RunSettings {
        samples: 2,
        reps: 2,
        ..RunSettings::default()
    };
    let (len, iterations) = ((1 << 16) + 77, 37u32);
    let source: Vec<f32> = (0..len).map(|i| ptxsuite::input_values::matrix_value(i, 5)).collect();
    let expected: Vec<f32> = source.iter().map(|&x| reference::fma_chain(x, iterations)).collect();
    let mut pipeline = CudaStagedRunner::new(&dut, 16);
    assert!(pipeline.read_data().is_err(), "no arrays before prepare");
    pipeline.prepare(&source).unwrap();
    for step in [
        PipelineStep::Upload(HostMemory::PageLocked),
        PipelineStep::Kernel(iterations),
        PipelineStep::Sequential(iterations),
    ] {
        let times = pipeline.time(step, &settings).unwrap();
        assert_eq!(times.len(), 2, "{step:?}");
        assert!(
            times.iter().all(|ms| ms.is_finite() && *ms > 0.0),
            "{step:?}: {times:?}"
        );
    }
    assert_eq!(pipeline.read_data().unwrap(), expected, "Listing 3.3a");
    for order in UploadOrder::ALL {
        for streams in [1, 3, 16] {
            let step = PipelineStep::Staged {
                streams,
                order,
                memory: HostMemory::PageLocked,
                iterations,
            };
            pipeline.fill_data(f32::NAN).unwrap();
            let ms = pipeline.time_runs_ms(step, 2).unwrap();
            assert!(ms.is_finite() && ms > 0.0, "{step:?}: {ms}");
            pipeline.wait().unwrap();
            let got = pipeline.read_data().unwrap();
            let wrong = (0..len).find(|&i| got[i].to_bits() != expected[i].to_bits());
            assert_eq!(wrong, None, "{step:?}");
        }
    }
    assert!(pipeline.enqueue(PipelineStep::Upload(HostMemory::Ordinary)).is_err());

    let fixed_point = reference::fma_chain(0.0, FAN_ITERATIONS);
    let mut fan = CudaFanOutRunner::new(&dut, Implementation::Rust, 4, FanStream::NonBlocking).unwrap();
    for (between, mark) in [
        (None, 0),
        (Some(FanStream::LegacyDefault), u32::from_ne_bytes([FAN_MARK; 4])),
    ] {
        if between.is_some() {
            fan.set_streams(FanStream::Blocking, between).unwrap();
        }
        for lanes in [1, 3] {
            fan.clear().unwrap();
            let times = fan.time(FanOut { kernels: 3, lanes }, &settings).unwrap();
            assert!(times.iter().all(|ms| ms.is_finite() && *ms > 0.0), "{times:?}");
            let got = fan.read().unwrap();
            let (run, untouched) = got.split_at(3 * FAN_BLOCK);
            assert!(run.iter().all(|&x| (x - fixed_point).abs() <= 1e-5 * fixed_point.abs()));
            assert!(untouched.iter().all(|&x| x == 0.0), "the fourth block was never run");
            assert_eq!(fan.read_mark().unwrap(), mark, "memsets between: {between:?}");
        }
    }
    assert!(fan.time(FanOut { kernels: 3, lanes: 5 }, &settings).is_err());
}
