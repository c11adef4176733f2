//! The mapped-memory family's runners on a real GPU: the implementations and
//! waivers each `--impl` set gives (`mapped_runners`), every step timed and
//! its result read back against the CPU (copies to and from pinned memory,
//! `vector_copy` and `stride_copy` on mapped memory, the addition and the
//! tiled product on device arrays), and the steps or handles a runner must
//! refuse. Without a CUDA driver or device (or one that cannot map host
//! memory) each test prints `SKIPPED ...` (past the harness's output
//! capture) and passes.

mod gpu_support;

use gpu_support::{assert_runners_follow, mapped_gpu_or_skip};
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::launchers::{KernelSet, MappedStep, Memory, mapped_runners};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{DeviceUnderTest, Implementation, ImplementationSet};

/// Floats per array: whole 256-thread blocks at stride 4, and a 64 × 64 matrix.
const LEN: usize = 4096;

fn settings() -> RunSettings {
    RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    }
}

/// Rust alone never waives the twins; with the twins, CUDA C runs where NVRTC
/// built it and is waived only where it was selected but missing.
#[test]
fn gpu_mapped_runners_follow_the_implementation_set() {
    let Some(all) = mapped_gpu_or_skip("gpu_mapped_runners_follow_the_implementation_set") else {
        return;
    };
    let has_cuda_c = all.ptx_implementations().0.contains(&Implementation::CudaC);
    drop(all);
    for list in ["rust", "rust,cuda-c", "all"] {
        let set = ImplementationSet::parse(list).unwrap();
        let dut = DeviceUnderTest::open(CudaOrdinal(0), &set).unwrap();
        for kernels in [KernelSet::Rust, KernelSet::WithTwins] {
            let (runners, waived) = mapped_runners(&dut, kernels).unwrap();
            assert_eq!(runners.len(), 1);
            assert_runners_follow(list, has_cuda_c, kernels, runners[0].implementations(), &waived);
        }
    }
}

/// Every step, timed by the runner, leaves the result the CPU expects.
#[test]
fn gpu_mapped_runner_steps_move_and_compute_what_they_say() {
    let Some(dut) = mapped_gpu_or_skip("gpu_mapped_runner_steps_move_and_compute_what_they_say") else {
        return;
    };
    let settings = settings();
    let (mut runners, _) = mapped_runners(&dut, KernelSet::WithTwins).unwrap();
    let runner = runners[0].as_mut();
    let source: Vec<f32> = (0..LEN).map(|i| (i % 977) as f32 * 0.25 - 3.0).collect();
    let mapped = runner.array(Memory::Mapped, LEN).unwrap();
    let mapped_out = runner.array(Memory::Mapped, LEN).unwrap();
    let pinned = runner.array(Memory::Pinned, LEN).unwrap();
    let [a, b, c] = [(); 3].map(|_| runner.array(Memory::Device, LEN).unwrap());
    runner.write(mapped, &source).unwrap();
    runner.write(pinned, &source).unwrap();
    let n = LEN / 2;
    let check = |what: &str, got: Vec<f32>, expected: &[f32]| {
        assert_eq!(got.len(), expected.len(), "{what}");
        let wrong = got.iter().zip(expected).position(|(g, e)| g.to_bits() != e.to_bits());
        assert_eq!(wrong, None, "{what}: first wrong element");
    };
    let mut expect_a: Vec<f32> = vec![-1.0; LEN];
    expect_a[..n].copy_from_slice(&source[..n]);

    // The copy engine: pinned to device, the first n floats.
    runner.fill(a, LEN, -1.0).unwrap();
    let times = runner
        .time(&[MappedStep::Copy { from: pinned, to: a, n }], &settings)
        .unwrap();
    assert_eq!(times.len(), 3);
    check("pinned upload", runner.read(a, LEN).unwrap(), &expect_a);

    for implementation in runner.implementations().to_vec() {
        // A kernel reading mapped memory, then one writing it.
        runner.fill(b, LEN, -1.0).unwrap();
        let read = MappedStep::VectorCopy {
            implementation,
            from: mapped,
            to: b,
            n: n as u64,
        };
        runner.time(&[read], &settings).unwrap();
        check(
            &format!("{implementation} reads mapped"),
            runner.read(b, LEN).unwrap(),
            &expect_a,
        );
        runner.fill(mapped_out, LEN, -1.0).unwrap();
        let write = MappedStep::VectorCopy {
            implementation,
            from: b,
            to: mapped_out,
            n: n as u64,
        };
        runner.time(&[write], &settings).unwrap();
        check(
            &format!("{implementation} writes mapped"),
            runner.read(mapped_out, LEN).unwrap(),
            &expect_a,
        );
        // stride_copy from mapped memory at stride 4: every fourth float, the rest untouched.
        runner.fill(c, LEN, -1.0).unwrap();
        let strided = MappedStep::StrideCopy {
            implementation,
            from: mapped,
            to: c,
            threads: (LEN / 4) as u64,
            stride: 4,
        };
        runner.time(&[strided], &settings).unwrap();
        let expected: Vec<f32> = (0..LEN).map(|i| if i % 4 == 0 { source[i] } else { -1.0 }).collect();
        check(
            &format!("{implementation} stride_copy"),
            runner.read(c, LEN).unwrap(),
            &expected,
        );
    }

    // Device to pinned, then the sum and the product on device arrays.
    runner.write(a, &source).unwrap();
    runner.fill(pinned, LEN, -1.0).unwrap();
    runner
        .time(
            &[MappedStep::Copy {
                from: a,
                to: pinned,
                n: LEN,
            }],
            &settings,
        )
        .unwrap();
    check("pinned download", runner.read(pinned, LEN).unwrap(), &source);
    let ones = vec![1.0f32; LEN];
    runner.write(b, &ones).unwrap();
    let add = MappedStep::Add { a, b, c, n: LEN as u64 };
    runner.time(&[add], &settings).unwrap();
    let sums: Vec<f32> = source.iter().map(|x| x + 1.0).collect();
    check("a + b", runner.read(c, LEN).unwrap(), &sums);
    // A · (the identity) = A, exactly (one nonzero term per dot product).
    let side = 64;
    let identity: Vec<f32> = (0..LEN).map(|i| if i / side == i % side { 1.0 } else { 0.0 }).collect();
    runner.write(b, &identity).unwrap();
    let multiply = MappedStep::Multiply {
        implementation: Implementation::Rust,
        a,
        b,
        c,
        n: side as u32,
    };
    runner.time(&[multiply], &settings).unwrap();
    check("A · I", runner.read(c, LEN).unwrap(), &source);
}

/// A kernel on unmapped pinned memory, an output that is an input, an
/// implementation the runner was not given and a handle from before
/// `free_arrays` are refused, not launched.
#[test]
fn gpu_mapped_runner_refuses_what_it_cannot_run() {
    let Some(dut) = mapped_gpu_or_skip("gpu_mapped_runner_refuses_what_it_cannot_run") else {
        return;
    };
    let settings = settings();
    let (mut runners, _) = mapped_runners(&dut, KernelSet::Rust).unwrap();
    let runner = runners[0].as_mut();
    let pinned = runner.array(Memory::Pinned, LEN).unwrap();
    let device = runner.array(Memory::Device, LEN).unwrap();
    let other = runner.array(Memory::Device, LEN).unwrap();
    let kernel = |from, to| MappedStep::VectorCopy {
        implementation: Implementation::Rust,
        from,
        to,
        n: LEN as u64,
    };
    assert!(
        runner.time(&[kernel(pinned, device)], &settings).is_err(),
        "pinned, unmapped"
    );
    assert!(runner.time(&[kernel(device, device)], &settings).is_err(), "aliased");
    let cuda_c = MappedStep::StrideCopy {
        implementation: Implementation::CudaC,
        from: device,
        to: other,
        threads: 256,
        stride: 1,
    };
    assert!(
        runner.time(&[cuda_c], &settings).is_err(),
        "not one of its implementations"
    );
    runner.free_arrays();
    let fresh = runner.array(Memory::Device, LEN).unwrap();
    assert!(runner.read(device, 1).is_err(), "a freed handle");
    assert!(runner.write(fresh, &[0.0; 3]).is_err(), "a write of the wrong length");
    assert_eq!(runner.read(fresh, 0).unwrap(), Vec::<f32>::new());
}
