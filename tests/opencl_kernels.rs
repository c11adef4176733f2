//! The OpenCL C twins on real OpenCL devices: PoCL's CPU device here, and
//! NVIDIA's GPU where its OpenCL driver is registered. Every kernel against the
//! CPU references (odd shapes where the kernel allows), the texture path past
//! its end, transfers from ordinary and `CL_MEM_ALLOC_HOST_PTR` memory, event
//! timing, build errors with their log, device matching and launch refusals.
//!
//! Without an OpenCL platform each test prints `SKIPPED <test>: why` (past the
//! harness's output capture) and passes.

#[allow(dead_code)] // gpu_or_skip: these tests need only note_skipped
mod gpu_support;

use gpu_support::note_skipped;
use half::f16;
use kernels_gpu::device::F32x4;
use ptxsuite::copy_element::{CopyElement, first_mismatch, pattern};
use ptxsuite::launchers::opencl as launch;
use ptxsuite::launchers::{
    FmaChainGrid, FmaChainRunner, MATVEC_BLOCK_THREADS, MatVecVersion, OpenClFmaChainRunner, OpenClTransferRunner,
    SgemmKernel, TransferRunner, cuda_transfer_entries, opencl_c_kernels,
};
use ptxsuite::opencl::{
    ClBuffer, ClContext, ClQueue, Image1dBuffer, LOCAL_ARRAY_SPILLED_OPTION, LOCAL_MEMORY_SOURCE, MappedHostBuffer,
    MatvecReduction, OpenClError, OpenClRuntime, OpenClTwins,
};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::{Error, reference};
use std::sync::{Mutex, MutexGuard};

/// One device with the twins built for it.
struct Target {
    label: String,
    context: ClContext,
    queue: ClQueue,
    twins: OpenClTwins,
}

/// One test's targets, and its turn: the tests of this file take turns (see
/// [`POCL_TURN`]). Iterating hands out the targets and keeps the turn until the
/// loop ends.
struct Targets {
    list: std::vec::IntoIter<Target>,
    _turn: MutexGuard<'static, ()>,
}

impl Iterator for Targets {
    type Item = Target;
    fn next(&mut self) -> Option<Target> {
        self.list.next()
    }
}

/// PoCL 3.1 to 5.x (Debian 12's is 3.1) abort the process, in
/// `pocl_release_dlhandle_cache` (`found->ref_count > 0`) when launches of
/// one kernel with different grids or offsets are in flight at once, as in
/// tests on parallel threads (seen on the GPU machine's 16 cores): a finished launch
/// releases the first cached work-group function that matches its kernel and
/// work-group size, which may be another launch's (fixed in PoCL 6.0, commit
/// 9184812d6 "fix dlhandle cache"). The tests of this file share kernels
/// (every one builds the same twins), so they take turns.
static POCL_TURN: Mutex<()> = Mutex::new(());

/// PoCL's CPU device and NVIDIA's GPU, where present; without an OpenCL
/// platform (or neither device), prints that `test` was skipped and returns none.
fn targets_or_skip(test: &str) -> Targets {
    // A test that failed while holding the turn poisons it; the next test's targets are fresh.
    let turn = POCL_TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    Targets {
        list: target_list(test).into_iter(),
        _turn: turn,
    }
}

fn target_list(test: &str) -> Vec<Target> {
    let runtime = match OpenClRuntime::load() {
        Ok(runtime) => runtime,
        Err(why) => {
            note_skipped(&format!("SKIPPED {test}: {why}"));
            return Vec::new();
        }
    };
    let devices: Vec<_> = [runtime.first_cpu_device(), runtime.first_nvidia_gpu()]
        .into_iter()
        .flatten()
        .collect();
    if devices.is_empty() {
        note_skipped(&format!(
            "SKIPPED {test}: no CPU (PoCL) or NVIDIA OpenCL device among {}",
            runtime
                .devices()
                .iter()
                .map(|d| d.info().summary())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    devices
        .iter()
        .map(|device| {
            let context = ClContext::new(device).unwrap();
            let queue = ClQueue::new(&context).unwrap();
            let twins = OpenClTwins::build(&context).unwrap_or_else(|e| panic!("{}: {e}", device.name()));
            Target {
                label: format!("{} [{}]", device.name(), twins.reduction().label()),
                context,
                queue,
                twins,
            }
        })
        .collect()
}

/// Names the devices the other tests run on, past the output capture (the GPU
/// check script reads these lines to tell whether NVIDIA's device was tested).
#[test]
fn opencl_lists_the_devices_under_test() {
    for Target {
        label, context, twins, ..
    } in targets_or_skip("opencl_lists_the_devices_under_test")
    {
        let info = context.device().info();
        note_skipped(&format!(
            "OPENCL DEVICE: {} [{}]",
            info.summary(),
            twins.reduction().label()
        ));
        assert!(label.contains(context.device().name()));
        assert!(!info.extensions.is_empty() && info.compute_units > 0, "{info:?}");
        if info.is_nvidia() {
            // -cl-nv-verbose: ptxas's resource lines for every kernel.
            let log = twins.program().build_log();
            note_skipped(&format!(
                "OPENCL BUILD LOG ({} lines, options \"{}\"): {}",
                log.lines().count(),
                twins.program().options(),
                log.lines()
                    .filter(|l| l.contains("registers"))
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
    }
}

fn floats(len: usize, salt: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 37 + salt * 11) % 101) as f32 / 50.0 - 1.0)
        .collect()
}

fn offset_and_stride<T: CopyElement>(target: &Target) {
    let Target {
        label,
        context,
        queue,
        twins,
        ..
    } = target;
    let threads = 2048usize;
    let len = threads * 3 + 45;
    let input = pattern::<T>(len);
    let idata = ClBuffer::from_host(context, queue, &input).unwrap();
    let mut odata = ClBuffer::<T>::new(context, len).unwrap();
    for offset in [0, 1, 7, 16, 31, 32, 45] {
        odata.fill(queue, T::SENTINEL).unwrap();
        launch::offset_copy(twins, queue, &mut odata, &idata, threads as u64, offset).unwrap();
        let mut expected = vec![T::SENTINEL; len];
        reference::offset_copy(&mut expected, &input, threads, offset as usize);
        if let Some(why) = first_mismatch(&odata.to_host(queue).unwrap(), &expected) {
            panic!("{label}: {} offset {offset}: {why}", T::OFFSET_KERNEL);
        }
    }
    for stride in [1usize, 2, 3] {
        let threads = (len / stride) / 256 * 256;
        odata.fill(queue, T::SENTINEL).unwrap();
        launch::stride_copy(twins, queue, &mut odata, &idata, threads as u64, stride as i32).unwrap();
        let mut expected = vec![T::SENTINEL; len];
        reference::stride_copy(&mut expected, &input, threads, stride);
        if let Some(why) = first_mismatch(&odata.to_host(queue).unwrap(), &expected) {
            panic!("{label}: {} stride {stride}: {why}", T::STRIDE_KERNEL);
        }
    }
}

#[test]
fn opencl_offset_and_stride_copies_match_reference_for_every_width() {
    for target in targets_or_skip("opencl_offset_and_stride_copies_match_reference_for_every_width") {
        offset_and_stride::<f16>(&target);
        offset_and_stride::<f32>(&target);
        offset_and_stride::<f64>(&target);
        offset_and_stride::<F32x4>(&target);
    }
}

#[test]
fn opencl_shift_copy_matches_reference() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_shift_copy_matches_reference")
    {
        let threads = 1024;
        let input = floats(threads + 40, 1);
        let idata = ClBuffer::from_host(&context, &queue, &input).unwrap();
        let mut odata = ClBuffer::<f32>::new(&context, threads + 3).unwrap();
        for shift in [0, 1, 5, 16, 33, 40] {
            odata.fill(&queue, -7.0).unwrap();
            launch::shift_copy(&twins, &queue, &mut odata, &idata, threads as u64, shift).unwrap();
            let mut expected = vec![-7.0; threads + 3];
            reference::shift_copy(&mut expected, &input, threads, shift as usize);
            assert_eq!(odata.to_host(&queue).unwrap(), expected, "{label}: shift {shift}");
        }
    }
}

#[test]
fn opencl_permuted_copy_matches_reference_and_refuses_bad_keys() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_permuted_copy_matches_reference_and_refuses_bad_keys")
    {
        let threads = 1024;
        let input = floats(threads, 1);
        let idata = ClBuffer::from_host(&context, &queue, &input).unwrap();
        let mut odata = ClBuffer::<f32>::new(&context, threads + 3).unwrap();
        for key in [0, 1, 6, 10, 21, 31] {
            odata.fill(&queue, -7.0).unwrap();
            launch::permuted_copy(&twins, &queue, &mut odata, &idata, threads as u64, key).unwrap();
            let mut expected = vec![-7.0; threads + 3];
            reference::permuted_copy(&mut expected, &input, threads, key as usize);
            assert_eq!(odata.to_host(&queue).unwrap(), expected, "{label}: key {key}");
        }
        for key in [-1, 32] {
            let refused = launch::permuted_copy(&twins, &queue, &mut odata, &idata, threads as u64, key);
            assert!(refused.is_err(), "{label}: key {key} must be refused");
        }
        let too_many = launch::permuted_copy(&twins, &queue, &mut odata, &idata, 2048, 0);
        assert!(too_many.is_err(), "{label}: 2048 threads over 1024 inputs");
    }
}

#[test]
fn opencl_texture_shift_copy_reads_zero_past_the_image() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_texture_shift_copy_reads_zero_past_the_image")
    {
        let threads = 1024;
        // Fewer texels than threads: the last threads read past the image even at shift 0.
        let input: Vec<f32> = floats(1000, 2).iter().map(|x| x + 3.0).collect();
        let idata = ClBuffer::from_host(&context, &queue, &input).unwrap();
        let texture = Image1dBuffer::new(&context, &idata).unwrap();
        assert_eq!(texture.texels(), 1000);
        let mut odata = ClBuffer::<f32>::new(&context, threads).unwrap();
        for shift in [0, 1, 17, 999, 1000, 5000] {
            odata.fill(&queue, -7.0).unwrap();
            launch::texture_shift_copy(&twins, &queue, &mut odata, &texture, threads as u64, shift).unwrap();
            let mut expected = vec![-7.0; threads];
            reference::texture_shift_copy(&mut expected, &input, threads, shift as usize);
            let got = odata.to_host(&queue).unwrap();
            assert_eq!(got, expected, "{label}: texture shift {shift}");
            assert!(
                got[threads - 1] == 0.0,
                "{label}: shift {shift}: a read past the image must give 0"
            );
        }
    }
}

#[test]
fn opencl_vector_copy_matches_reference_with_a_grid_stride() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_vector_copy_matches_reference_with_a_grid_stride")
    {
        // One wave of one work-group: at most 1024 work-groups, so the largest n loops twice.
        let big = 4 * 256 * 1024 + 4 * 256 * 3 + 3;
        let input = floats(big, 3);
        let inp = ClBuffer::from_host(&context, &queue, &input).unwrap();
        let mut out = ClBuffer::<f32>::new(&context, big).unwrap();
        for n in [1usize, 3, 4, 5, 1027, 4099, big] {
            out.fill(&queue, -7.0).unwrap();
            launch::vector_copy(&twins, &queue, &mut out, &inp, n as u64, 1).unwrap();
            let mut expected = vec![-7.0; big];
            reference::copy_prefix(&mut expected, &input, n, 0);
            assert!(
                out.to_host(&queue).unwrap() == expected,
                "{label}: vector_copy of {n} floats"
            );
        }
    }
}

#[test]
fn opencl_fma_chain_runs_with_explicit_and_runtime_chosen_work_groups() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_fma_chain_runs_with_explicit_and_runtime_chosen_work_groups")
    {
        // 1031 is prime: a runtime-chosen work-group must be 1 or 1031 work-items; 4096 leaves it free.
        for n in [1usize, 1031, 4096] {
            let input = floats(n, 5);
            for local in [Some(256), Some(64), None] {
                let mut data = ClBuffer::from_host(&context, &queue, &input).unwrap();
                launch::opencl_fma_chain_per_item(&twins, &queue, &mut data, 37, local).unwrap();
                let got = data.to_host(&queue).unwrap();
                let wrong = (0..n).find(|&i| got[i].to_bits() != reference::fma_chain(input[i], 37).to_bits());
                assert_eq!(wrong, None, "{label}: fma_chain of {n} elements, work-groups {local:?}");
            }
        }
        let mut data = ClBuffer::<f32>::new(&context, 16).unwrap();
        assert!(matches!(
            launch::opencl_fma_chain_per_item(&twins, &queue, &mut data, 1, Some(0)),
            Err(Error::InvalidLaunch { .. })
        ));
    }
}

#[test]
fn the_fma_chain_runner_covers_every_element_in_every_grid_shape() {
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("the_fma_chain_runner_covers_every_element_in_every_grid_shape")
    {
        let mut runner = OpenClFmaChainRunner::new(&context, &queue, &twins);
        assert_eq!(runner.implementation(), ptxsuite::testbed::Implementation::OpenClC);
        assert!(
            runner.launch(FmaChainGrid::Blocks(1), 1).is_err(),
            "{label}: launched before allocate"
        );
        let settings = RunSettings {
            samples: 3,
            reps: 2,
            ..RunSettings::default()
        };
        // 1031 is prime: one block, a few, a partial last work-group and the runtime's choice all cover it.
        for n in [1usize, 1031, 4096] {
            let input = floats(n, 9);
            runner.allocate(n).unwrap();
            let grids = [
                FmaChainGrid::Blocks(1),
                FmaChainGrid::Blocks(3),
                FmaChainGrid::PerElement(64),
                FmaChainGrid::RuntimeChosen,
            ];
            for grid in grids {
                runner.write(&input).unwrap();
                runner.launch(grid, 37).unwrap();
                let got = runner.read().unwrap();
                let wrong = (0..n).find(|&i| got[i].to_bits() != reference::fma_chain(input[i], 37).to_bits());
                assert_eq!(wrong, None, "{label}: fma_chain of {n} elements as {grid:?}");
            }
            let times = runner.time(FmaChainGrid::PerElement(256), 37, &settings).unwrap();
            assert_eq!(times.len(), 3, "{label}: {n} elements");
            assert!(
                times.iter().all(|ms| ms.is_finite() && *ms >= 0.0),
                "{label}: {times:?}"
            );
            runner.fill(0.5).unwrap();
            assert!(runner.read().unwrap().iter().all(|&x| x == 0.5), "{label}: fill");
        }
        assert!(runner.launch(FmaChainGrid::Blocks(0), 1).is_err(), "{label}: no blocks");
        assert!(
            runner.write(&[1.0; 3]).is_err(),
            "{label}: a write shorter than the array"
        );
    }
}

#[test]
fn opencl_matvec_versions_match_reference_on_ragged_shapes() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_matvec_versions_match_reference_on_ragged_shapes")
    {
        // Widths below, at and past the chunk and vector sizes, odd and multiples of 4; rows the
        // warp-per-row version splits among 2 (2056: pieces of 264 and 250 float4s), 4 (4100: the last
        // piece 233) and 8 warps (8192); heights not multiples of 256, 32 or the rows per work-group.
        for (width, height) in [
            (1, 1),
            (3, 37),
            (37, 300),
            (8, 513),
            (100, 33),
            (1100, 61),
            (256, 257),
            (2056, 9),
            (4100, 7),
            (8192, 5),
        ] {
            let m = floats(width * height, width);
            let v = floats(width, height);
            let (expected, scale) = reference::matvec(&m, width, height, &v);
            let m_dev = ClBuffer::from_host(&context, &queue, &m).unwrap();
            let v_dev = ClBuffer::from_host(&context, &queue, &v).unwrap();
            let mut w_dev = ClBuffer::<f32>::new(&context, height).unwrap();
            for version in MatVecVersion::ALL {
                // A small wave, so the grid-stride loops run several rounds.
                for wave_groups in [2, 64] {
                    w_dev.fill(&queue, f32::NAN).unwrap();
                    launch::matvec(
                        &twins,
                        &queue,
                        version,
                        &m_dev,
                        width as u32,
                        height as u32,
                        &v_dev,
                        &mut w_dev,
                        wave_groups,
                    )
                    .unwrap();
                    let got = w_dev.to_host(&queue).unwrap();
                    if let Some(why) = reference::matvec_mismatch(&got, &expected, &scale, width) {
                        panic!(
                            "{label}: {} at {height} x {width}, wave {wave_groups}: {why}",
                            version.kernel()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn opencl_matvec_sub_group_build_matches_reference_or_is_refused() {
    for Target {
        label, context, queue, ..
    } in targets_or_skip("opencl_matvec_sub_group_build_matches_reference_or_is_refused")
    {
        let device_has = context.device().info().sub_groups();
        let built = OpenClTwins::build_with(&context, Some(MatvecReduction::SubGroups));
        let twins = match (device_has, built) {
            (true, Ok(twins)) => twins,
            (false, Err(OpenClError::Invalid(why))) => {
                assert!(why.contains("sub-groups"), "{label}: {why}");
                note_skipped(&format!("sub-group matvec build skipped on {label}: {why}"));
                continue;
            }
            (has, Ok(_)) => panic!("{label}: sub-group build succeeded, device says sub-groups = {has}"),
            (has, Err(e)) => panic!("{label}: sub-group build failed (device says sub-groups = {has}): {e}"),
        };
        assert_eq!(twins.reduction(), MatvecReduction::SubGroups);
        let (width, height) = (100, 77);
        let (m, v) = (floats(width * height, 5), floats(width, 6));
        let (expected, scale) = reference::matvec(&m, width, height, &v);
        let m_dev = ClBuffer::from_host(&context, &queue, &m).unwrap();
        let v_dev = ClBuffer::from_host(&context, &queue, &v).unwrap();
        let mut w_dev = ClBuffer::<f32>::new(&context, height).unwrap();
        for version in [MatVecVersion::WarpShuffle, MatVecVersion::WarpPerRow] {
            w_dev.fill(&queue, f32::NAN).unwrap();
            launch::matvec(
                &twins,
                &queue,
                version,
                &m_dev,
                width as u32,
                height as u32,
                &v_dev,
                &mut w_dev,
                4,
            )
            .unwrap();
            if let Some(why) = reference::matvec_mismatch(&w_dev.to_host(&queue).unwrap(), &expected, &scale, width) {
                panic!("{label}: sub-group {}: {why}", version.kernel());
            }
        }
    }
}

/// Sub-groups of one work-item, as macros over the work-group built-ins: lets a
/// device without sub-groups (PoCL's CPU device) run the `MATVEC_SUB_GROUPS`
/// code, so its indexing and its two-stage sum (more sub-groups than lanes) are
/// checked even where no real sub-groups exist.
const ONE_ITEM_SUB_GROUPS: &str = "
#define get_sub_group_id() ((uint)get_local_id(0))
#define get_sub_group_local_id() 0u
#define get_num_sub_groups() ((uint)get_local_size(0))
#define get_sub_group_size() 1u
#define sub_group_reduce_add(x) (x)
";

#[test]
fn opencl_matvec_sub_group_code_runs_with_one_item_sub_groups() {
    for Target {
        label, context, queue, ..
    } in targets_or_skip("opencl_matvec_sub_group_code_runs_with_one_item_sub_groups")
    {
        if context.device().info().sub_groups() {
            continue; // real sub-groups: the built-ins exist and the macros would clash
        }
        let source = format!("{ONE_ITEM_SUB_GROUPS}\n{}", ptxsuite::opencl::OPENCL_C_SOURCE);
        let twins =
            OpenClTwins::build_source(&context, &source, "-D MATVEC_SUB_GROUPS", MatvecReduction::SubGroups).unwrap();
        // 4100 and 8192: rows split among 4 and 8 one-item sub-groups, summed through __local memory.
        for (width, height) in [(37, 300), (100, 33), (1, 5), (4100, 7), (8192, 3)] {
            let (m, v) = (floats(width * height, 7), floats(width, 8));
            let (expected, scale) = reference::matvec(&m, width, height, &v);
            let m_dev = ClBuffer::from_host(&context, &queue, &m).unwrap();
            let v_dev = ClBuffer::from_host(&context, &queue, &v).unwrap();
            let mut w_dev = ClBuffer::<f32>::new(&context, height).unwrap();
            for version in [MatVecVersion::WarpShuffle, MatVecVersion::WarpPerRow] {
                w_dev.fill(&queue, f32::NAN).unwrap();
                launch::matvec(
                    &twins,
                    &queue,
                    version,
                    &m_dev,
                    width as u32,
                    height as u32,
                    &v_dev,
                    &mut w_dev,
                    3,
                )
                .unwrap();
                if let Some(why) = reference::matvec_mismatch(&w_dev.to_host(&queue).unwrap(), &expected, &scale, width)
                {
                    panic!(
                        "{label}: one-item sub-groups, {} at {height} x {width}: {why}",
                        version.kernel()
                    );
                }
            }
        }
    }
}

#[test]
fn opencl_naive_and_tiled_sgemm_match_reference_on_partial_tiles() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_naive_and_tiled_sgemm_match_reference_on_partial_tiles")
    {
        for (m, n, k) in [
            (1, 1, 1),
            (16, 16, 16),
            (17, 33, 15),
            (64, 48, 80),
            (100, 37, 129),
            (5, 200, 3),
        ] {
            let (a, b) = (floats(m * k, 1), floats(k * n, 2));
            let (expected, scale) = reference::matmul(&a, &b, m, k, n);
            let a_dev = ClBuffer::from_host(&context, &queue, &a).unwrap();
            let b_dev = ClBuffer::from_host(&context, &queue, &b).unwrap();
            let mut c_dev = ClBuffer::<f32>::new(&context, m * n).unwrap();
            c_dev.fill(&queue, f32::NAN).unwrap();
            launch::tiled_sgemm(
                &twins,
                &queue,
                &a_dev,
                &b_dev,
                &mut c_dev,
                (m as u32, n as u32, k as u32),
            )
            .unwrap();
            let got = c_dev.to_host(&queue).unwrap();
            if let Some(why) = reference::matmul_mismatch(&got, &expected, &scale, k, n) {
                panic!("{label}: tiled_sgemm {m} x {n} x {k}: {why}");
            }
            // The guide's untiled kernel on the same NDRange.
            c_dev.fill(&queue, f32::NAN).unwrap();
            let dims = (m as u32, n as u32, k as u32);
            launch::opencl_sgemm(&twins, &queue, SgemmKernel::Naive, (&a_dev, &b_dev, &mut c_dev), dims).unwrap();
            let got = c_dev.to_host(&queue).unwrap();
            if let Some(why) = reference::matmul_mismatch(&got, &expected, &scale, k, n) {
                panic!("{label}: naive_sgemm {m} x {n} x {k}: {why}");
            }
        }
    }
}

#[test]
fn opencl_transfers_round_trip_through_ordinary_and_mapped_host_memory() {
    for Target {
        label, context, queue, ..
    } in targets_or_skip("opencl_transfers_round_trip_through_ordinary_and_mapped_host_memory")
    {
        let len = 100_003;
        let data = floats(len, 9);
        // Ordinary (pageable) memory: clEnqueueWriteBuffer / clEnqueueReadBuffer from a Vec.
        let mut device = ClBuffer::<f32>::new(&context, len).unwrap();
        device.write(&queue, 0, &data).unwrap();
        assert_eq!(device.to_host(&queue).unwrap(), data, "{label}: pageable round trip");
        let mut part = vec![0.0f32; 10];
        device.read(&queue, 500, &mut part).unwrap();
        assert_eq!(part, data[500..510], "{label}: partial read");

        // CL_MEM_ALLOC_HOST_PTR memory, mapped: the pinned-memory recipe.
        let mut mapped = MappedHostBuffer::<f32>::new(&context, &queue, len).unwrap();
        assert!(
            mapped.as_slice().iter().all(|&x| x == 0.0),
            "{label}: mapped memory starts zeroed"
        );
        mapped.as_mut_slice().copy_from_slice(&data);
        let mut device2 = ClBuffer::<f32>::new(&context, len).unwrap();
        mapped.upload(&queue, 0..len, &mut device2).unwrap();
        assert_eq!(
            device2.to_host(&queue).unwrap(),
            data,
            "{label}: upload from mapped memory"
        );
        mapped.as_mut_slice().fill(-1.0);
        mapped.download(&queue, 0..len, &device2).unwrap();
        assert_eq!(
            mapped.as_slice(),
            data.as_slice(),
            "{label}: download into mapped memory"
        );

        // The asynchronous forms, then a finish.
        let reversed: Vec<f32> = data.iter().rev().copied().collect();
        mapped.as_mut_slice().copy_from_slice(&reversed);
        // SAFETY: neither buffer is touched until the finish below.
        unsafe { mapped.upload_async(&queue, 0..len, &mut device2).unwrap() };
        queue.finish().unwrap();
        mapped.as_mut_slice().fill(0.0);
        // SAFETY: as above.
        unsafe { mapped.download_async(&queue, 10..len, &device2).unwrap() };
        queue.finish().unwrap();
        assert_eq!(mapped.as_slice()[..10], [0.0; 10], "{label}: outside the range stays");
        assert_eq!(mapped.as_slice()[10..], reversed[10..], "{label}: async round trip");

        // Ranges outside either buffer are refused.
        let mut small = ClBuffer::<f32>::new(&context, 16).unwrap();
        assert!(matches!(
            mapped.upload(&queue, 0..17, &mut small),
            Err(OpenClError::Invalid(_))
        ));
        assert!(matches!(
            device.read(&queue, len - 5, &mut part),
            Err(OpenClError::Invalid(_))
        ));
    }
}

/// The transfers experiment's OpenCL runner, as the experiment drives it:
/// every copy at two sizes, timed, its destination read back and checked.
#[test]
fn opencl_transfer_runner_times_and_checks_every_copy() {
    for Target {
        label, context, queue, ..
    } in targets_or_skip("opencl_transfer_runner_times_and_checks_every_copy")
    {
        let source: Vec<f32> = pattern(1 << 14);
        let settings = RunSettings {
            samples: 3,
            reps: 2,
            ..RunSettings::default()
        };
        let mut runner = OpenClTransferRunner::new(&context, &queue);
        let entries = runner.entries();
        assert!(
            runner.time(&entries[0], 16, &settings).is_err(),
            "{label}: timed before prepare"
        );
        runner.prepare(&source).unwrap();
        for count in [1 << 10, 1 << 14] {
            for entry in &entries {
                let what = format!("{label}: {} {} of {count}", entry.call, entry.variant);
                let times = runner.time(entry, count, &settings).unwrap();
                assert_eq!(times.len(), 3, "{what}");
                assert!(times.iter().all(|ms| ms.is_finite() && *ms >= 0.0), "{what}: {times:?}");
                let back = runner.read_back(entry, count).unwrap();
                assert_eq!(first_mismatch(&back, &source[..count]), None, "{what}");
            }
        }
        // Out of order: a read straight after a write still reads the source
        // (the write filled the device buffer with other data first).
        let (write, read) = (&entries[0], &entries[2]);
        runner.time(write, 100, &settings).unwrap();
        runner.time(read, 1 << 14, &settings).unwrap();
        assert_eq!(runner.read_back(read, 1 << 14).unwrap(), source, "{label}");
        // OpenCL measures no device-to-device copy.
        let d2d = *cuda_transfer_entries(true).last().unwrap();
        assert!(runner.time(&d2d, 16, &settings).is_err(), "{label}");
    }
}

#[test]
fn opencl_event_timing_is_finite_and_positive() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_event_timing_is_finite_and_positive")
    {
        let threads = 1 << 16;
        let input = floats(threads, 4);
        let idata = ClBuffer::from_host(&context, &queue, &input).unwrap();
        let mut odata = ClBuffer::<f32>::new(&context, threads).unwrap();
        let samples = queue
            .time_per_launch(3, 5, || {
                launch::offset_copy(&twins, &queue, &mut odata, &idata, threads as u64, 0)
            })
            .unwrap();
        assert_eq!(samples.len(), 3);
        assert!(
            samples.iter().all(|ms| ms.is_finite() && *ms > 0.0),
            "{label}: per-launch times {samples:?}"
        );
        // Transfers are timed the same way.
        let ms = queue.time_ms(|| odata.write(&queue, 0, &input)).unwrap();
        assert!(ms.is_finite() && ms > 0.0, "{label}: write took {ms} ms");
        // Nothing enqueued: no time to report.
        assert!(matches!(
            queue.time_ms(|| Ok::<(), OpenClError>(())),
            Err(OpenClError::Invalid(_))
        ));
        // An error inside the timed closure comes out as it is.
        let refused = queue.time_ms(|| launch::offset_copy(&twins, &queue, &mut odata, &idata, 256, -1));
        assert!(
            matches!(refused, Err(Error::InvalidLaunch { .. })),
            "{label}: {refused:?}"
        );
    }
}

#[test]
fn opencl_build_error_carries_the_compiler_log() {
    for Target { label, context, .. } in targets_or_skip("opencl_build_error_carries_the_compiler_log") {
        let broken = "__kernel void broken(__global float *out) { out[0] = undeclared_name_for_the_test; }";
        let error = OpenClTwins::build_source(&context, broken, "", MatvecReduction::LocalMemory)
            .err()
            .unwrap_or_else(|| panic!("{label}: a broken program built"));
        let OpenClError::Build { log, .. } = &error else {
            panic!("{label}: expected a build error, got {error}");
        };
        assert!(
            log.contains("undeclared_name_for_the_test"),
            "{label}: the log does not name the culprit: {log}"
        );
        assert!(error.to_string().contains("build log"), "{label}: {error}");
        // Through the crate's error type the log is still there.
        let text = Error::from(error).to_string();
        assert!(text.contains("undeclared_name_for_the_test"), "{label}: {text}");
    }
}

#[test]
fn opencl_device_matching_explains_a_missing_device() {
    let runtime = match OpenClRuntime::load() {
        Ok(runtime) => runtime,
        Err(why) => {
            note_skipped(&format!(
                "SKIPPED opencl_device_matching_explains_a_missing_device: {why}"
            ));
            return;
        }
    };
    let why = runtime
        .device_matching([0xab; 16], "0000:fe:1f.7")
        .expect_err("no device has this UUID or PCI address");
    assert!(why.contains("no OpenCL device matches"), "{why}");
    assert!(why.contains("abababab-abab-abab-abab-abababababab"), "{why}");
    assert!(why.contains("0000:fe:1f.7"), "{why}");
    for device in runtime.devices() {
        assert!(why.contains(device.name()), "{why} does not list {}", device.name());
    }
    // A device that gives a UUID or a PCI address is found by it.
    for device in runtime.devices() {
        let info = device.info();
        if let Some(uuid) = info.uuid {
            let found = runtime.device_matching(uuid, "").unwrap();
            assert_eq!(found.info(), info);
        }
        if let Some(pci) = info.pci_address {
            let found = runtime
                .device_matching([0; 16], &pci.to_string().replace("????", "0000"))
                .unwrap();
            assert_eq!(found.info().pci_address, Some(pci));
        }
    }
}

#[test]
fn opencl_launchers_refuse_what_the_cuda_launchers_refuse() {
    for Target {
        label,
        context,
        queue,
        twins,
        ..
    } in targets_or_skip("opencl_launchers_refuse_what_the_cuda_launchers_refuse")
    {
        let idata = ClBuffer::<f32>::new(&context, 1024).unwrap();
        let mut odata = ClBuffer::<f32>::new(&context, 1024).unwrap();
        let refusals = [
            launch::offset_copy(&twins, &queue, &mut odata, &idata, 1024, 1),
            launch::offset_copy(&twins, &queue, &mut odata, &idata, 1000, 0),
            launch::stride_copy(&twins, &queue, &mut odata, &idata, 768, 2),
            launch::shift_copy(&twins, &queue, &mut odata, &idata, 1024, 1),
            launch::vector_copy(&twins, &queue, &mut odata, &idata, 1025, 1),
            launch::matvec(
                &twins,
                &queue,
                MatVecVersion::TreeSequential,
                &idata,
                33,
                32,
                &idata,
                &mut odata,
                1,
            ),
            launch::tiled_sgemm(&twins, &queue, &idata, &idata, &mut odata, (33, 32, 32)),
        ];
        for (i, refusal) in refusals.into_iter().enumerate() {
            assert!(
                matches!(refusal, Err(Error::InvalidLaunch { .. })),
                "{label}: case {i} was not refused: {refusal:?}"
            );
        }
        assert!(matches!(
            twins.kernel("no_such_kernel"),
            Err(OpenClError::MissingKernel(_))
        ));
    }
}

#[test]
fn opencl_every_twin_exists_and_reports_its_resources() {
    for Target {
        label, context, twins, ..
    } in targets_or_skip("opencl_every_twin_exists_and_reports_its_resources")
    {
        let listed = opencl_c_kernels();
        for name in &listed {
            let kernel = twins.kernel(name).unwrap_or_else(|e| panic!("{label}: {e}"));
            let resources = kernel.resources();
            assert!(
                resources.work_group_size >= MATVEC_BLOCK_THREADS as usize,
                "{label}: {name} allows work-groups of only {}",
                resources.work_group_size
            );
            assert!(
                resources.preferred_work_group_multiple >= 1,
                "{label}: {name}: {resources:?}"
            );
        }
        assert_eq!(twins.kernels().len(), listed.len(), "{label}: unexpected kernels");
        let tiled = twins.kernel("tiled_sgemm").unwrap().resources();
        // PoCL reports no __local memory for static __local arrays; NVIDIA's driver does.
        assert!(
            !context.device().info().is_nvidia() || tiled.local_memory_bytes >= 2 * 16 * 16 * 4,
            "{label}: tiled_sgemm's two tiles are {} bytes of __local memory",
            tiled.local_memory_bytes
        );
    }
}

/// The twins report their argument types (`-cl-kernel-arg-info`), and those
/// with the Rust kernel's parameter list pass the check a launcher makes;
/// a source whose `offset` became a `float` is refused, naming the parameter.
#[test]
fn opencl_twins_take_their_rust_kernels_parameters() {
    use kernels_gpu::device::KernelSignature;
    use kernels_gpu::global_memory::{offset_copy_params, stride_copy_f64_params, vector_copy_params};
    use kernels_gpu::sgemm::tiled_sgemm_params;
    use ptxsuite::opencl::ClArgList;
    for target in targets_or_skip("opencl_twins_take_their_rust_kernels_parameters") {
        for kernel in target.twins.kernels() {
            assert!(
                matches!(kernel.args(), ClArgList::Typed(_)),
                "{}: {} reports no argument types",
                target.label,
                kernel.name()
            );
        }
        target.twins.kernel_of(offset_copy_params::SIGNATURE).unwrap();
        target.twins.kernel_of(stride_copy_f64_params::SIGNATURE).unwrap();
        target.twins.kernel_of(vector_copy_params::SIGNATURE).unwrap();
        target.twins.kernel_of(tiled_sgemm_params::SIGNATURE).unwrap();
        for version in MatVecVersion::ALL {
            target.twins.kernel_of(version.signature()).unwrap();
        }
        let mistyped = "__kernel void offset_copy(__global float *odata, __global const float *idata, float offset)\n\
                        { odata[0] = idata[0] + offset; }\n";
        let broken = OpenClTwins::build_source(
            &target.context,
            mistyped,
            "-cl-kernel-arg-info",
            MatvecReduction::LocalMemory,
        )
        .unwrap();
        let error = broken
            .kernel_of(offset_copy_params::SIGNATURE)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            error.contains("offset_copy") && error.contains("parameter 3 `offset`") && error.contains("`float`"),
            "{error}"
        );
    }
}

/// The throughput twins of the OpenCL guide §3.1.1.1 (`instruction_throughput.cl`)
/// build with no option, with `-cl-mad-enable` and with
/// `-cl-fast-relaxed-math`, take their Rust kernels' parameters, and store
/// what the CPU reference says (bit for bit for the add, square root,
/// minimum and conversion without an option; within the approximate
/// functions' tolerance otherwise); a launch whose output is too short is refused.
#[test]
fn opencl_throughput_twins_match_their_references_with_every_build_option() {
    use ThroughputKernel::*;
    use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};
    use ptxsuite::experiments::chain_mismatch;
    use ptxsuite::launchers::{
        AnyChainParams, ChainValues, build_throughput_twins, first_threads, opencl_throughput, suggested_params,
    };
    use ptxsuite::reference::ArgumentRange;
    let (groups, iterations) = (2u32, 37u32);
    let threads = groups * THROUGHPUT_BLOCK_THREADS;
    for target in targets_or_skip("opencl_throughput_twins_match_their_references_with_every_build_option") {
        let mut out = ClBuffer::<f32>::new(&target.context, threads as usize * THROUGHPUT_CHAINS).unwrap();
        for option in ["", "-cl-mad-enable", "-cl-fast-relaxed-math"] {
            let twins = build_throughput_twins(&target.context, option)
                .unwrap_or_else(|e| panic!("{}: {option:?}: {e}", target.label));
            for kernel in [
                F32Add,
                RsqrtApprox,
                Sqrt,
                Fmin,
                Convert,
                Sin,
                SinApprox,
                Exp,
                ExpFast,
                CubeMul,
            ] {
                let AnyChainParams::F32(params) = suggested_params(kernel, ArgumentRange::Small) else {
                    panic!("{kernel:?} is not an f32 kernel");
                };
                out.fill(&target.queue, f32::NAN).unwrap();
                opencl_throughput(&target.queue, &twins, kernel, &mut out, params, (iterations, groups)).unwrap();
                let all = out.to_host(&target.queue).unwrap();
                let got = ChainValues::F32(first_threads(&all, threads, threads));
                let any = AnyChainParams::F32(params);
                let exact = matches!(kernel, F32Add | Sqrt | Fmin | Convert) && option.is_empty();
                let mismatch = chain_mismatch(kernel, ArgumentRange::Small, any, &got, threads, iterations);
                if exact || !matches!(kernel, F32Add | Sqrt | Fmin | Convert) {
                    assert_eq!(mismatch, None, "{}: {kernel:?} built with {option:?}", target.label);
                } else {
                    // Relaxed builds may round the IEEE operations differently: within 10^-4, no more.
                    let ChainValues::F32(got) = got else { unreachable!() };
                    let expected = reference::f32_throughput_reference(kernel, params, threads, iterations).unwrap();
                    for (g, e) in got.iter().zip(&expected) {
                        assert!(
                            (g - e).abs() <= 1e-4 * e.abs().max(1.0),
                            "{}: {kernel:?} {option:?}",
                            target.label
                        );
                    }
                }
            }
            let mut short = ClBuffer::<f32>::new(&target.context, THROUGHPUT_CHAINS).unwrap();
            let AnyChainParams::F32(params) = suggested_params(F32Add, ArgumentRange::Small) else {
                unreachable!()
            };
            let refused = opencl_throughput(&target.queue, &twins, F32Add, &mut short, params, (1, 1));
            assert!(refused.is_err(), "{}: a 256-item launch into 8 floats", target.label);
        }
    }
}

/// The OpenCL throughput runner, as `opencl-arithmetic` drives it: its
/// variant and the Rust waves it was given, a probe and samples per launch,
/// every work-item's chains against the CPU reference (bit for bit for the
/// IEEE ones without an option), every value read back; and the refusals: a
/// launch before its output, an integer kernel (no OpenCL C twin), a launch
/// or a read past its output.
#[test]
fn opencl_throughput_runner_times_and_checks_its_chains() {
    use ThroughputKernel::*;
    use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};
    use ptxsuite::experiments::chain_mismatch;
    use ptxsuite::launchers::{
        ChainLaunch, OpenClThroughputRunner, ThroughputRunner, build_throughput_twins, suggested_params,
    };
    use ptxsuite::reference::ArgumentRange;
    let (groups, iterations) = (2u32, 23u32);
    let threads = groups * THROUGHPUT_BLOCK_THREADS;
    let settings = RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    };
    let launch = |kernel, blocks| ChainLaunch {
        kernel,
        params: suggested_params(kernel, ArgumentRange::Small),
        iterations,
        blocks,
    };
    for target in targets_or_skip("opencl_throughput_runner_times_and_checks_its_chains") {
        let label = &target.label;
        let twins = build_throughput_twins(&target.context, "-cl-mad-enable").unwrap();
        let waves = Box::new(move |kernel: ThroughputKernel| Ok(if kernel == Sqrt { 1 } else { groups }));
        let mut runner = OpenClThroughputRunner::new((&target.context, &target.queue), twins, "-cl-mad-enable", waves);
        assert_eq!(runner.implementation(), ptxsuite::testbed::Implementation::OpenClC);
        assert_eq!(runner.variant(), "-cl-mad-enable");
        assert_eq!(
            (runner.wave_blocks(F32Add).unwrap(), runner.wave_blocks(Sqrt).unwrap()),
            (groups, 1)
        );
        assert!(
            runner.launch(launch(F32Add, groups)).is_err(),
            "{label}: a launch before allocate"
        );
        runner.allocate(threads).unwrap();
        for kernel in [F32Add, Sqrt, Fmin, Convert, SinApprox, CubeMul] {
            let probe = runner.probe_ms(launch(kernel, groups)).unwrap();
            assert!(probe.is_finite() && probe >= 0.0, "{label}: {kernel:?}: probe {probe}");
            let times = runner.time(launch(kernel, groups), &settings).unwrap();
            assert_eq!(times.len(), 3, "{label}: {kernel:?}");
            assert!(
                times.iter().all(|ms| ms.is_finite() && *ms >= 0.0),
                "{label}: {kernel:?}: {times:?}"
            );
            let got = runner.read_first_threads(kernel, groups, threads).unwrap();
            let params = suggested_params(kernel, ArgumentRange::Small);
            let mismatch = chain_mismatch(kernel, ArgumentRange::Small, params, &got, threads, iterations);
            assert_eq!(mismatch, None, "{label}: {kernel:?}");
        }
        let all = runner.read_all_f32(groups).unwrap();
        assert_eq!(all.len(), THROUGHPUT_CHAINS * threads as usize, "{label}");
        assert!(runner.read_all_f32(groups + 1).is_err(), "{label}: past the output");
        assert!(runner.launch(launch(I32Add, groups)).is_err(), "{label}: no i32 twin");
        assert!(
            runner.launch(launch(F32Add, groups + 1)).is_err(),
            "{label}: past the output"
        );
        assert!(
            runner.read_first_threads(F32Add, groups + 1, 1).is_err(),
            "{label}: past the output"
        );
        assert!(
            runner.read_first_threads(F32Add, groups, threads + 1).is_err(),
            "{label}: past the launch"
        );
    }
}

/// The control-flow twins of the OpenCL guide §3.1.1.2 (`divergence.cl`) take
/// their Rust kernels' parameters and store what the CPU reference says, bit
/// for bit, for paths chosen per lane and per warp (1, 3 and 32 paths: 3 does
/// not divide a warp) and for both if/else kernels with warps one way and
/// split; the launchers refuse 0 or 33 paths and an output one float short.
#[test]
fn opencl_divergence_twins_match_the_cpu_reference() {
    use kernels_gpu::device::KernelSignature;
    use kernels_gpu::divergence::{
        DIVERGENCE_BLOCK_THREADS, divergent_lane_paths_params, long_branch_divergent_params,
    };
    use ptxsuite::reference::{BranchLength, PathChoice, branch_reference, paths_reference};
    let (groups, iterations) = (3u32, 37u32);
    let threads = groups * DIVERGENCE_BLOCK_THREADS;
    let check = |label: &str, what: String, got: Vec<f32>, expected: Vec<f32>| {
        assert_eq!(got.len(), expected.len());
        if let Some(t) = (0..got.len()).find(|&t| got[t].to_bits() != expected[t].to_bits()) {
            panic!(
                "{label}: {what}: work-item {t} stored {}, the CPU reference {}",
                got[t], expected[t]
            );
        }
    };
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("opencl_divergence_twins_match_the_cpu_reference")
    {
        twins.kernel_of(divergent_lane_paths_params::SIGNATURE).unwrap();
        twins.kernel_of(long_branch_divergent_params::SIGNATURE).unwrap();
        let mut out = ClBuffer::<f32>::new(&context, threads as usize).unwrap();
        for choice in [PathChoice::ByLane, PathChoice::ByWarp] {
            for paths in [1, 3, 32] {
                out.fill(&queue, f32::NAN).unwrap();
                launch::divergent_paths(&twins, &queue, choice, &mut out, paths, iterations, groups).unwrap();
                let expected = paths_reference(choice, threads, paths, iterations);
                check(
                    &label,
                    format!("{choice:?}, {paths} paths"),
                    out.to_host(&queue).unwrap(),
                    expected,
                );
            }
        }
        for length in [BranchLength::Short, BranchLength::Long] {
            for mask in [0, 1] {
                out.fill(&queue, f32::NAN).unwrap();
                launch::branch(&twins, &queue, length, &mut out, mask, iterations, groups).unwrap();
                let expected = branch_reference(length, threads, mask, iterations);
                check(
                    &label,
                    format!("{length:?} if/else, mask {mask}"),
                    out.to_host(&queue).unwrap(),
                    expected,
                );
            }
        }
        let refusals = [
            launch::divergent_paths(&twins, &queue, PathChoice::ByLane, &mut out, 0, 1, groups),
            launch::divergent_paths(&twins, &queue, PathChoice::ByWarp, &mut out, 33, 1, groups),
            launch::branch(&twins, &queue, BranchLength::Short, &mut out, 1, 1, groups + 1),
            launch::branch(&twins, &queue, BranchLength::Long, &mut out, 1, 1, 0),
        ];
        for (i, refusal) in refusals.into_iter().enumerate() {
            assert!(
                matches!(refusal, Err(Error::InvalidLaunch { .. })),
                "{label}: case {i} was not refused: {refusal:?}"
            );
        }
    }
}

/// The divergence experiment's OpenCL runner, as the experiment drives it:
/// each kind of launch (paths per lane and per warp, both if/else kernels
/// split and one way) cleared, timed and read back against the CPU
/// reference; a probe's time; the refused path counts; and the setup line
/// saying how the device compiled the twins' loops.
#[test]
fn opencl_divergence_runner_times_and_checks_every_kind_of_launch() {
    use kernels_gpu::divergence::DIVERGENCE_BLOCK_THREADS;
    use ptxsuite::launchers::{ControlFlow, DivergenceRunner, OpenClDivergenceRunner};
    use ptxsuite::opencl::DIVERGENCE_UNROLL_OPTION;
    use ptxsuite::reference::{BranchLength, PathChoice, branch_reference, paths_reference};
    let (groups, iterations) = (2u32, 29u32);
    let threads = groups * DIVERGENCE_BLOCK_THREADS;
    let settings = RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    };
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("opencl_divergence_runner_times_and_checks_every_kind_of_launch")
    {
        let mut runner = OpenClDivergenceRunner::new(&context, &queue, &twins, groups).unwrap();
        assert_eq!(runner.implementation(), ptxsuite::testbed::Implementation::OpenClC);
        assert_eq!(runner.blocks(), groups);
        let cases = [
            (
                ControlFlow::Paths(PathChoice::ByLane, 3),
                paths_reference(PathChoice::ByLane, threads, 3, iterations),
            ),
            (
                ControlFlow::Paths(PathChoice::ByWarp, 32),
                paths_reference(PathChoice::ByWarp, threads, 32, iterations),
            ),
            (
                ControlFlow::Branch(BranchLength::Short, 1),
                branch_reference(BranchLength::Short, threads, 1, iterations),
            ),
            (
                ControlFlow::Branch(BranchLength::Long, 0),
                branch_reference(BranchLength::Long, threads, 0, iterations),
            ),
        ];
        for (what, expected) in cases {
            runner.clear_output().unwrap();
            let cleared = runner.read_output(threads).unwrap();
            assert!(cleared.iter().all(|v| v.is_nan()), "{label}: {what:?}: not cleared");
            let times = runner.time(what, iterations, &settings).unwrap();
            assert_eq!(times.len(), 3, "{label}: {what:?}");
            assert!(
                times.iter().all(|ms| ms.is_finite() && *ms >= 0.0),
                "{label}: {what:?}: {times:?}"
            );
            let got = runner.read_output(threads).unwrap();
            let first_wrong = (0..got.len()).find(|&t| got[t].to_bits() != expected[t].to_bits());
            assert_eq!(first_wrong, None, "{label}: {what:?}");
            // One more launch (the counters pass) stores the same.
            runner.clear_output().unwrap();
            runner.launch(what, iterations).unwrap();
            assert_eq!(runner.read_output(8).unwrap(), expected[..8], "{label}: {what:?}");
        }
        let probe = runner.probe_ms(ControlFlow::Paths(PathChoice::ByLane, 1), 4).unwrap();
        assert!(probe.is_finite() && probe >= 0.0, "{label}: {probe}");
        for paths in [0, 33] {
            let refused = runner.launch(ControlFlow::Paths(PathChoice::ByLane, paths), 1);
            assert!(
                matches!(refused, Err(Error::InvalidLaunch { .. })),
                "{label}: {paths} paths"
            );
        }
        let setup = runner.setup().expect("the OpenCL runner says how its loops were built");
        let unrolled = twins.program().options().contains(DIVERGENCE_UNROLL_OPTION);
        let expected = if unrolled { "unrolled 8 times" } else { "a plain loop" };
        assert!(setup.starts_with("OpenCL C: each path's loop"), "{label}: {setup}");
        assert!(setup.contains(expected), "{label}: {setup}");
    }
}

/// The bank-conflict twins (`shared_memory_banks.cl`, OpenCL guide §3.1.2.5)
/// write what the CPU references say: every read kernel's checksum per
/// work-item and every write kernel's table sum per work-group, at the
/// experiment's interesting strides (the broadcast, 1, 2-way, 32-way, the
/// largest), the tile's pitches and the guide's cases; the launcher refuses
/// a stride past the table, too few checksums and a group of odd lanes.
#[test]
fn opencl_bank_conflict_twins_match_the_cpu_reference() {
    use ptxsuite::experiments::expected_read_checksum;
    use ptxsuite::launchers::BankKernel;
    use ptxsuite::reference::bank_write_checksum;
    let (group_size, groups, rounds) = (64u32, 3u32, 5u32);
    let threads = (group_size * groups) as usize;
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("opencl_bank_conflict_twins_match_the_cpu_reference")
    {
        let mut checksums = ClBuffer::<u32>::new(&context, threads).unwrap();
        for kernel in BankKernel::ALL.into_iter().chain(BankKernel::GUIDE_CASES) {
            let strides: Vec<u32> = match kernel {
                BankKernel::TileColumnRead => vec![32, 33, 64],
                BankKernel::NarrowRead(bytes) => vec![1, 4 / bytes, 8],
                BankKernel::StructRead(_) | BankKernel::SplitHalvesRead => vec![0, 1],
                BankKernel::PermutedRead => vec![1, 13, 0x8000_0001],
                _ => vec![0, 1, 2, 32, 33],
            };
            for stride in strides {
                checksums.fill(&queue, 0xdead_beef).unwrap();
                launch::bank_kernel(
                    &twins,
                    &queue,
                    kernel,
                    (stride, rounds),
                    (group_size, groups),
                    &mut checksums,
                )
                .unwrap_or_else(|e| panic!("{label}: {kernel:?} at {stride}: {e}"));
                let got = checksums.to_host(&queue).unwrap();
                if let BankKernel::StridedWrite(access) = kernel {
                    let expected = bank_write_checksum(access.bytes() / 4, stride as u64, rounds as u64);
                    for (group, shares) in got.chunks_exact(group_size as usize).enumerate() {
                        let sum = shares.iter().fold(0u32, |s, &x| s.wrapping_add(x));
                        assert_eq!(
                            sum, expected,
                            "{label}: {kernel:?} at stride {stride}: work-group {group}'s table"
                        );
                    }
                } else {
                    for (t, &sum) in got.iter().enumerate() {
                        let expected = expected_read_checksum(kernel, stride, rounds, (t % 32) as u64);
                        assert_eq!(sum, expected, "{label}: {kernel:?} at stride {stride}: work-item {t}");
                    }
                }
            }
        }
        let read = BankKernel::StridedRead(ptxsuite::launchers::BankAccess::Bytes4);
        let short = ClBuffer::<u32>::new(&context, threads - 1).unwrap();
        let refusals = [
            launch::bank_kernel(&twins, &queue, read, (34, 1), (group_size, groups), &mut checksums),
            launch::bank_kernel(&twins, &queue, read, (1, 1), (group_size, groups), &mut { short }),
            launch::bank_kernel(&twins, &queue, read, (1, 1), (48, 2), &mut checksums),
        ];
        for (i, refusal) in refusals.into_iter().enumerate() {
            assert!(
                matches!(refusal, Err(Error::InvalidLaunch { .. })),
                "{label}: case {i} was not refused: {refusal:?}"
            );
        }
    }
}

/// The bank family's OpenCL runner (what the `bank-conflicts` experiment
/// launches its twins through): a timed case has one positive time per
/// sample, no spans, the run's reps, and leaves the checksums the CPU
/// reference says (read kernels per work-item, write kernels per
/// work-group's table); the occupancy it reports is the one it was given;
/// it refuses to launch before its checksums are reserved, a case past
/// them, and any implementation but OpenCL C.
#[test]
fn opencl_bank_runner_times_and_checks_its_cases() {
    use ptxsuite::experiments::expected_read_checksum;
    use ptxsuite::launchers::{BANK_BLOCK_THREADS, BankAccess, BankCase, BankKernel, BankRunner, OpenClBankRunner};
    use ptxsuite::reference::bank_write_checksum;
    use ptxsuite::testbed::Implementation;
    let settings = RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    };
    let read = BankKernel::StridedRead(BankAccess::Bytes4);
    let write = BankKernel::StridedWrite(BankAccess::Bytes8);
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("opencl_bank_runner_times_and_checks_its_cases")
    {
        let mut runner = OpenClBankRunner::new((&context, &queue, &twins), vec![(read, 3), (write, 2)]);
        assert_eq!(runner.implementations(), [Implementation::OpenClC]);
        assert_eq!(runner.blocks_per_sm(Implementation::OpenClC, read).unwrap(), 3);
        assert_eq!(runner.blocks_per_sm(Implementation::OpenClC, write).unwrap(), 2);
        assert!(
            runner
                .blocks_per_sm(Implementation::OpenClC, BankKernel::PermutedRead)
                .is_err()
        );
        let case = |kernel, stride, blocks| BankCase {
            kernel,
            stride,
            rounds: 4,
            blocks,
        };
        assert!(
            runner
                .time(Implementation::OpenClC, &case(read, 1, 1), &settings)
                .is_err(),
            "{label}: timed before any checksums were reserved"
        );
        runner.reserve(2, &settings).unwrap();
        for (kernel, stride) in [(read, 0), (read, 2), (read, 32), (write, 1), (write, 16)] {
            let case = case(kernel, stride, 2);
            runner.fill_checksums(0xdead_beef).unwrap();
            let timed = runner
                .time(Implementation::OpenClC, &case, &settings)
                .unwrap_or_else(|e| panic!("{label}: {kernel:?} at {stride}: {e}"));
            assert_eq!(timed.times_ms.len(), 3, "{label}: one time per sample");
            assert!(
                timed.times_ms.iter().all(|&ms| ms > 0.0),
                "{label}: {:?}",
                timed.times_ms
            );
            assert_eq!(
                (timed.spans, timed.reps),
                (None, 2),
                "{label}: no spans, the run's reps"
            );
            let got = runner.read_checksums().unwrap();
            assert_eq!(
                got.len(),
                2 * BANK_BLOCK_THREADS as usize,
                "{label}: the reserved checksums"
            );
            if let BankKernel::StridedWrite(access) = kernel {
                let expected = bank_write_checksum(access.bytes() / 4, stride as u64, 4);
                for (group, shares) in got.as_chunks::<{ BANK_BLOCK_THREADS as usize }>().0.iter().enumerate() {
                    let sum = shares.iter().fold(0u32, |s, &x| s.wrapping_add(x));
                    assert_eq!(sum, expected, "{label}: {kernel:?} at {stride}: work-group {group}");
                }
            } else {
                for (t, &sum) in got.iter().enumerate() {
                    let expected = expected_read_checksum(kernel, stride, 4, (t % 32) as u64);
                    assert_eq!(sum, expected, "{label}: {kernel:?} at {stride}: work-item {t}");
                }
            }
        }
        runner.fill_checksums(7).unwrap();
        runner.launch(Implementation::OpenClC, &case(read, 1, 1)).unwrap();
        let got = runner.read_checksums().unwrap();
        let per_lane = |t: usize| expected_read_checksum(read, 1, 4, (t % 32) as u64);
        assert!(
            (0..BANK_BLOCK_THREADS as usize).all(|t| got[t] == per_lane(t)),
            "{label}: the untimed launch wrote the first block's checksums"
        );
        assert!(
            got[BANK_BLOCK_THREADS as usize..].iter().all(|&c| c == 7),
            "{label}: and nothing past its one block"
        );
        let refusals = [
            runner.time(Implementation::OpenClC, &case(read, 1, 3), &settings).err(),
            runner.launch(Implementation::OpenClC, &case(read, 1, 3)).err(),
            runner.time(Implementation::Rust, &case(read, 1, 1), &settings).err(),
            runner.launch(Implementation::CudaC, &case(read, 1, 1)).err(),
        ];
        for (i, refusal) in refusals.into_iter().enumerate() {
            assert!(refusal.is_some(), "{label}: case {i} was not refused");
        }
    }
}

/// The constant-memory twins (`constant_memory.cl`, OpenCL guide §3.1.2.3):
/// every space (`__constant`, read-only `__global`, `__local` copy) at 1, 3
/// and 32 distinct addresses sums what `reference::constant_chase_sum` says
/// for every work-item; a table with a link outside it is refused before it
/// reaches the device, and so are 0 and 33 distinct addresses.
#[test]
fn opencl_constant_memory_twins_match_the_cpu_reference() {
    use ptxsuite::launchers::{CONSTANT_CHASE_TABLE_WORDS, ConstantSpace};
    use ptxsuite::reference::{constant_chase_links, constant_chase_sum};
    let (group_size, groups, steps) = (64u32, 3u32, 37u32);
    let threads = (group_size * groups) as usize;
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("opencl_constant_memory_twins_match_the_cpu_reference")
    {
        let links = constant_chase_links(CONSTANT_CHASE_TABLE_WORDS);
        let table = launch::ClChaseTable::upload(&context, &queue, &links).unwrap();
        let mut sums = ClBuffer::<u32>::new(&context, threads).unwrap();
        for space in ConstantSpace::ALL {
            for distinct in [1, 3, 32] {
                sums.fill(&queue, 0xdead_beef).unwrap();
                launch::constant_chase(
                    &twins,
                    &queue,
                    (space, &table),
                    (distinct, steps),
                    (group_size, groups),
                    &mut sums,
                )
                .unwrap_or_else(|e| panic!("{label}: {space:?}: {e}"));
                for (t, &sum) in sums.to_host(&queue).unwrap().iter().enumerate() {
                    let expected = constant_chase_sum(&links, distinct, (t % 32) as u32, steps);
                    assert_eq!(sum, expected, "{label}: {space:?}, {distinct} addresses: work-item {t}");
                }
            }
        }
        let mut outside = links.clone();
        outside[7] = links.len() as u32;
        assert!(matches!(
            launch::ClChaseTable::upload(&context, &queue, &outside),
            Err(Error::InvalidInput(_))
        ));
        for distinct in [0, 33] {
            let refused = launch::constant_chase(
                &twins,
                &queue,
                (ConstantSpace::Constant, &table),
                (distinct, 1),
                (group_size, groups),
                &mut sums,
            );
            assert!(
                matches!(refused, Err(Error::InvalidLaunch { .. })),
                "{label}: {distinct} distinct addresses: {refused:?}"
            );
        }
    }
}

/// The local-memory twins (`local_memory.cl`, OpenCL guide §3.1.2.2): the
/// registers and run-time-indexed versions store `reference::local_array`
/// for every work-item (the indexed one also at a shift of 5 and one past a
/// multiple of 64), and so does the spilled kernel built from the same file
/// with `-D LOCAL_ARRAY_SPILLED` (as `build_spilled_twin` does, less the
/// register cap only NVIDIA's compiler takes: elsewhere it waives the twin);
/// the suite's program has no spilled kernel.
#[test]
fn opencl_local_memory_twins_match_the_cpu_reference() {
    use ptxsuite::launchers::LocalArrayKernel;
    let (group_size, groups, rounds) = (128u32, 3u32, 4u32);
    let threads = (group_size * groups) as usize;
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("opencl_local_memory_twins_match_the_cpu_reference")
    {
        let mut out = ClBuffer::<u32>::new(&context, threads).unwrap();
        for (kernel, shift) in [
            (LocalArrayKernel::Registers, 0),
            (LocalArrayKernel::DynamicIndex, 0),
            (LocalArrayKernel::DynamicIndex, 5),
            (LocalArrayKernel::DynamicIndex, u32::MAX),
        ] {
            out.fill(&queue, 0xdead_beef).unwrap();
            launch::local_array(&twins, &queue, kernel, (shift, rounds), (group_size, groups), &mut out)
                .unwrap_or_else(|e| panic!("{label}: {kernel:?}: {e}"));
            for (t, &got) in out.to_host(&queue).unwrap().iter().enumerate() {
                let expected = reference::local_array(t as u32, shift, rounds);
                assert_eq!(got, expected, "{label}: {kernel:?} shift {shift}: work-item {t}");
            }
        }
        let not_here = launch::local_array(
            &twins,
            &queue,
            LocalArrayKernel::Spilled,
            (0, 1),
            (group_size, groups),
            &mut out,
        );
        assert!(not_here.is_err(), "{label}: the suite's program has no spilled kernel");
        let options = format!("-cl-kernel-arg-info {LOCAL_ARRAY_SPILLED_OPTION}");
        let spilled = OpenClTwins::build_source(&context, LOCAL_MEMORY_SOURCE, &options, MatvecReduction::LocalMemory)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(
            spilled.kernels().len(),
            1,
            "{label}: the spilled program holds one kernel"
        );
        out.fill(&queue, 0xdead_beef).unwrap();
        launch::local_array(
            &spilled,
            &queue,
            LocalArrayKernel::Spilled,
            (0, rounds),
            (group_size, groups),
            &mut out,
        )
        .unwrap();
        for (t, &got) in out.to_host(&queue).unwrap().iter().enumerate() {
            assert_eq!(
                got,
                reference::local_array(t as u32, 0, rounds),
                "{label}: spilled, work-item {t}"
            );
        }
        match launch::build_spilled_twin(&context) {
            Ok(twin) => assert!(
                context.device().info().has_extension("cl_nv_compiler_options"),
                "{label}: a register cap without NVIDIA's options: {}",
                twin.program().options()
            ),
            Err(why) => {
                assert!(matches!(why, Error::Waived(_)), "{label}: {why:?}");
                assert!(
                    !context.device().info().is_nvidia(),
                    "{label}: NVIDIA's compiler refused the register cap: {why}"
                );
            }
        }
        let past = launch::local_array(
            &twins,
            &queue,
            LocalArrayKernel::Registers,
            (0, 1),
            (group_size, groups + 1),
            &mut out,
        );
        assert!(matches!(past, Err(Error::InvalidLaunch { .. })), "{label}: {past:?}");
    }
}

/// The staged pipeline's OpenCL runner (the streams experiment's OpenCL C
/// twin): every step it times, then the staged pipeline over 1, 3 and 16
/// queues from `CL_MEM_ALLOC_HOST_PTR` and from ordinary memory, each run
/// from NaN checked in full against the CPU reference; chained uploads (not
/// the OpenCL pipeline's) and work before `prepare` are refused.
#[test]
fn opencl_staged_runner_stages_the_array_from_both_kinds_of_host_memory() {
    use ptxsuite::launchers::{HostMemory, OpenClStagedRunner, PipelineStep, StagedRunner, UploadOrder};
    use ptxsuite::testbed::Implementation;
    let (len, iterations) = (16 * 256 + 77, 23u32);
    let settings = RunSettings {
        samples: 2,
        reps: 2,
        ..RunSettings::default()
    };
    let staged = |streams, memory| PipelineStep::Staged {
        streams,
        order: UploadOrder::AsListed,
        memory,
        iterations,
    };
    for Target {
        label, context, twins, ..
    } in targets_or_skip("opencl_staged_runner_stages_the_array_from_both_kinds_of_host_memory")
    {
        let mut runner = OpenClStagedRunner::new(&context, &twins, 16, 3);
        assert_eq!(runner.implementation(), Implementation::OpenClC);
        assert!(runner.fill_data(0.0).is_err(), "{label}: no arrays before prepare");
        let source = floats(len, 5);
        runner.prepare(&source).unwrap();
        assert!(!runner.device_name().is_empty());
        let expected: Vec<f32> = source.iter().map(|&x| reference::fma_chain(x, iterations)).collect();
        for step in [
            PipelineStep::Upload(HostMemory::PageLocked),
            PipelineStep::Upload(HostMemory::Ordinary),
            PipelineStep::Kernel(iterations),
        ] {
            let times = runner.time(step, &settings).unwrap();
            assert_eq!(times.len(), 2, "{label}: {step:?}");
            assert!(times.iter().all(|ms| ms.is_finite() && *ms >= 0.0), "{label}: {step:?}");
        }
        for memory in [HostMemory::PageLocked, HostMemory::Ordinary] {
            for streams in [1, 3, 16] {
                runner.fill_data(f32::NAN).unwrap();
                assert!(
                    runner.read_data().unwrap().iter().all(|x| x.is_nan()),
                    "{label}: filled"
                );
                let ms = runner.time_runs_ms(staged(streams, memory), 1).unwrap();
                assert!(ms.is_finite() && ms >= 0.0, "{label}: {ms}");
                let got = runner.read_data().unwrap();
                let wrong = (0..len).find(|&i| got[i].to_bits() != expected[i].to_bits());
                assert_eq!(wrong, None, "{label}: {streams} queues from {memory:?}");
            }
        }
        // Listing 3.3a (upload, then kernel) and one enqueue waited for.
        runner.fill_data(f32::NAN).unwrap();
        runner.enqueue(PipelineStep::Sequential(iterations)).unwrap();
        runner.wait().unwrap();
        assert_eq!(runner.read_data().unwrap(), expected, "{label}: sequential");
        let probe = runner.probe_ms(staged(4, HostMemory::PageLocked)).unwrap();
        assert!(probe.is_finite() && probe >= 0.0, "{label}: {probe}");
        let chained = PipelineStep::Staged {
            streams: 2,
            order: UploadOrder::Chained,
            memory: HostMemory::PageLocked,
            iterations,
        };
        assert!(runner.enqueue(chained).is_err(), "{label}: chained uploads are CUDA's");
    }
}

/// The fan-out's OpenCL runner (concurrent-kernels' OpenCL C twin): one
/// work-group per kernel on one queue and on a queue each, each kernel's
/// block at the map's fixed point and every block after them untouched;
/// a fan-out with no lane, or with more lanes or kernels than made, refused.
#[test]
fn opencl_fan_out_runner_runs_one_work_group_per_kernel_on_its_queues() {
    use ptxsuite::launchers::{FAN_BLOCK, FAN_ITERATIONS, FanOut, FanOutRunner, Lanes, OpenClFanOutRunner};
    let settings = RunSettings {
        samples: 1,
        reps: 1,
        ..RunSettings::default()
    };
    let fixed_point = reference::fma_chain(0.0, FAN_ITERATIONS);
    for Target {
        label, context, twins, ..
    } in targets_or_skip("opencl_fan_out_runner_runs_one_work_group_per_kernel_on_its_queues")
    {
        let mut runner = OpenClFanOutRunner::new(&context, &twins, 3).unwrap();
        assert_eq!(runner.lanes(), Lanes::InOrderQueues);
        for fan in [FanOut { kernels: 2, lanes: 1 }, FanOut { kernels: 2, lanes: 2 }] {
            runner.clear().unwrap();
            let times = runner.time(fan, &settings).unwrap();
            assert_eq!(times.len(), 1, "{label}: {fan:?}");
            let got = runner.read().unwrap();
            assert_eq!(got.len(), 3 * FAN_BLOCK);
            let (run, untouched) = got.split_at(2 * FAN_BLOCK);
            assert!(
                run.iter().all(|&x| (x - fixed_point).abs() <= 1e-5 * fixed_point.abs()),
                "{label}: {fan:?}: {:?}",
                &run[..4]
            );
            assert!(
                untouched.iter().all(|&x| x == 0.0),
                "{label}: {fan:?}: a block past the kernels"
            );
        }
        for fan in [
            FanOut { kernels: 2, lanes: 0 },
            FanOut { kernels: 2, lanes: 4 },
            FanOut { kernels: 4, lanes: 2 },
        ] {
            assert!(runner.time(fan, &settings).is_err(), "{label}: {fan:?}");
        }
    }
}

/// The array sum's twins (`reduction.cl`, both ending in a __local tree): the
/// partial sums, added on the host, against an f64 sum on ragged lengths and
/// small waves; an array shorter than `n` is refused before the launch.
#[test]
fn opencl_reduction_twins_sum_ragged_arrays() {
    use ptxsuite::launchers::ReductionKernel;
    for Target {
        label,
        context,
        queue,
        twins,
    } in targets_or_skip("opencl_reduction_twins_sum_ragged_arrays")
    {
        for n in [1usize, 255, 513, 4099] {
            let x = floats(n, 3);
            let exact: f64 = x.iter().map(|&v| v as f64).sum();
            let bound = n as f64 * f32::EPSILON as f64 * x.iter().map(|&v| (v as f64).abs()).sum::<f64>();
            let x_dev = ClBuffer::from_host(&context, &queue, &x).unwrap();
            let ones_dev = ClBuffer::from_host(&context, &queue, &vec![1.0f32; n]).unwrap();
            for kernel in ReductionKernel::ALL {
                for wave in [1, 3] {
                    let blocks = kernel.blocks(n as u32, wave) as usize;
                    let mut partials = ClBuffer::<f32>::new(&context, blocks).unwrap();
                    partials.fill(&queue, f32::NAN).unwrap();
                    launch::reduce(&twins, &queue, kernel, (&x_dev, n as u32), &mut partials, wave).unwrap();
                    let got: f64 = partials.to_host(&queue).unwrap().iter().map(|&p| p as f64).sum();
                    assert!(
                        (got - exact).abs() <= bound,
                        "{label}: {} n={n} wave={wave}: {got} vs {exact}",
                        kernel.kernel()
                    );
                    // Ones add exactly (every partial an integer below 2^24): any element lost or counted twice shows.
                    partials.fill(&queue, f32::NAN).unwrap();
                    launch::reduce(&twins, &queue, kernel, (&ones_dev, n as u32), &mut partials, wave).unwrap();
                    let ones: f64 = partials.to_host(&queue).unwrap().iter().map(|&p| p as f64).sum();
                    assert_eq!(
                        ones,
                        n as f64,
                        "{label}: {} n={n} wave={wave}: the sum of {n} ones",
                        kernel.kernel()
                    );
                }
                let mut partials = ClBuffer::<f32>::new(&context, 64).unwrap();
                let too_long = (n + 1) as u32;
                assert!(launch::reduce(&twins, &queue, kernel, (&x_dev, too_long), &mut partials, 1).is_err());
            }
        }
    }
}
