//! The bank-conflict family's runners on a real GPU: the runners and waivers
//! each `--impl` set gives (`bank_runners`), and a case timed by every
//! runner, its checksums against the CPU reference and its spans (PTX
//! implementations: one launch's a block, every launch kept; OpenCL C: none).
//! Without a CUDA driver or device each test prints `SKIPPED ...` (past the
//! harness's output capture) and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, note_skipped};
use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use ptxsuite::experiments::expected_read_checksum;
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::launchers::{BANK_BLOCK_THREADS, BankAccess, BankCase, BankKernel, bank_runners};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{DeviceUnderTest, Implementation, ImplementationSet};

/// Each set's runners launch exactly the selected implementations the GPU
/// has (PTX ones first, then OpenCL C), and each selected one it lacks is
/// waived, CUDA C before OpenCL C; the OpenCL runner's occupancy is the Rust
/// kernel's.
#[test]
fn gpu_bank_runners_follow_the_implementation_set() {
    let Some(all) = gpu_or_skip("gpu_bank_runners_follow_the_implementation_set") else {
        return;
    };
    let has_cuda_c = all.ptx_implementations().0.contains(&Implementation::CudaC);
    let has_opencl = all.opencl().is_ok();
    note_skipped(&format!(
        "gpu_bank_runners: CUDA C twins {has_cuda_c}, OpenCL C twins {has_opencl}"
    ));
    drop(all);
    for list in ["rust", "rust,cuda-c", "rust,opencl", "all"] {
        let set = ImplementationSet::parse(list).unwrap();
        let dut = DeviceUnderTest::open(CudaOrdinal(0), &set).unwrap();
        let (runners, waived) = bank_runners(&dut).unwrap();
        let selected = |i: Implementation| set.contains(i);
        let mut expected = vec![Implementation::Rust];
        let mut expected_waived = Vec::new();
        for (implementation, has) in [
            (Implementation::CudaC, has_cuda_c),
            (Implementation::OpenClC, has_opencl),
        ] {
            match (selected(implementation), has) {
                (true, true) => expected.push(implementation),
                (true, false) => expected_waived.push(implementation),
                (false, _) => {}
            }
        }
        let launched: Vec<Implementation> = runners.iter().flat_map(|r| r.implementations().to_vec()).collect();
        assert_eq!(launched, expected, "--impl {list}");
        let waived: Vec<Implementation> = waived.iter().map(|(i, _)| *i).collect();
        assert_eq!(waived, expected_waived, "--impl {list}");
        assert_eq!(
            runners.len(),
            1 + usize::from(expected.contains(&Implementation::OpenClC))
        );
        if let Some(opencl) = runners.get(1) {
            for kernel in BankKernel::ALL.into_iter().chain(BankKernel::GUIDE_CASES) {
                assert_eq!(
                    opencl.blocks_per_sm(Implementation::OpenClC, kernel).unwrap(),
                    runners[0].blocks_per_sm(Implementation::Rust, kernel).unwrap(),
                    "{kernel:?}: the twins launch the Rust kernel's wave"
                );
            }
        }
    }
}

/// Every runner times a 2-way-conflict read and a write on two blocks:
/// one time per sample, every thread's (block's) checksum as the CPU
/// reference says, and the PTX implementations' spans of every launch (the
/// warm-up and `samples × reps`) with a start before the end for each block.
#[test]
fn gpu_bank_runners_time_and_check_a_case() {
    let Some(dut) = gpu_or_skip("gpu_bank_runners_time_and_check_a_case") else {
        return;
    };
    let settings = RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    };
    let (mut runners, _) = bank_runners(&dut).unwrap();
    let read = BankKernel::StridedRead(BankAccess::Bytes4);
    let write = BankKernel::StridedWrite(BankAccess::Bytes4);
    for runner in &mut runners {
        runner.reserve(2, &settings).unwrap();
        for implementation in runner.implementations().to_vec() {
            for (kernel, stride) in [(read, 2), (write, 1)] {
                let case = BankCase {
                    kernel,
                    stride,
                    rounds: 8,
                    blocks: 2,
                };
                runner.fill_checksums(0xdead_beef).unwrap();
                let timed = runner.time(implementation, &case, &settings).unwrap();
                let what = format!("{implementation} {kernel:?} at {stride}");
                assert_eq!(timed.times_ms.len(), 3, "{what}");
                assert!(
                    timed.times_ms.iter().all(|&ms| ms > 0.0),
                    "{what}: {:?}",
                    timed.times_ms
                );
                assert_eq!(timed.reps, 2, "{what}");
                match (&timed.spans, implementation) {
                    (None, Implementation::OpenClC) => {}
                    (Some(spans), Implementation::Rust | Implementation::CudaC) => {
                        assert_eq!(spans.len(), 1 + 3 * 2, "{what}: the warm-up and every timed launch");
                        for words in spans {
                            assert_eq!(words.len(), 2 * BLOCK_SPAN_WORDS, "{what}");
                            for block in words.as_chunks::<BLOCK_SPAN_WORDS>().0 {
                                assert!(block[0] < block[1], "{what}: a block ended before it began: {block:?}");
                            }
                        }
                    }
                    (spans, _) => panic!("{what}: spans {:?}", spans.as_ref().map(Vec::len)),
                }
                let got = runner.read_checksums().unwrap();
                if kernel == write {
                    let expected = ptxsuite::reference::bank_write_checksum(1, stride as u64, 8);
                    for (block, shares) in got.as_chunks::<{ BANK_BLOCK_THREADS as usize }>().0.iter().enumerate() {
                        let sum = shares.iter().fold(0u32, |s, &x| s.wrapping_add(x));
                        assert_eq!(sum, expected, "{what}: block {block}'s table");
                    }
                } else {
                    for (t, &sum) in got.iter().enumerate() {
                        let expected = expected_read_checksum(kernel, stride, 8, (t % 32) as u64);
                        assert_eq!(sum, expected, "{what}: thread {t}");
                    }
                }
            }
        }
    }
}
