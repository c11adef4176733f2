//! The control-flow kernels in the CPU emulator, against the CPU references:
//! every path count with paths chosen by lane and by warp, and both if/else
//! kernels with uniform and split warps.

use kernels_gpu::divergence::{
    divergent_lane_paths, long_branch_divergent, short_branch_predicated, uniform_warp_paths,
};
use ptxsuite::device::{Dim3, GlobalMutPtr};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::reference::{BranchLength, PathChoice, branch_reference, path_of, paths_reference};

/// Two blocks of two warps each.
const BLOCKS: u32 = 2;
const BLOCK: u32 = 64;
const THREADS: u32 = BLOCKS * BLOCK;

type ControlFlowKernel = unsafe fn(GlobalMutPtr<f32>, u32, u32);

fn emulate(kernel: ControlFlowKernel, selector: u32, iterations: u32) -> Vec<f32> {
    let mut out = vec![f32::NAN; THREADS as usize];
    {
        let mut emu = Emulator::new();
        let out = emu.global_mut(&mut out);
        // SAFETY: one float per thread; the emulator checks every store.
        emu.launch(LaunchConfig::new(Dim3::x(BLOCKS), Dim3::x(BLOCK), 0), || unsafe {
            kernel(out, selector, iterations)
        })
        .unwrap();
    }
    out
}

#[test]
fn path_kernels_match_the_reference_for_every_path_count() {
    for paths in [1, 2, 3, 4, 8, 16, 31, 32] {
        for (choice, kernel) in [
            (PathChoice::ByLane, divergent_lane_paths as ControlFlowKernel),
            (PathChoice::ByWarp, uniform_warp_paths as ControlFlowKernel),
        ] {
            let got = emulate(kernel, paths, 21);
            assert_eq!(
                got,
                paths_reference(choice, THREADS, paths, 21),
                "{choice:?}, {paths} paths"
            );
        }
    }
}

#[test]
fn lanes_of_a_warp_take_k_paths_only_when_chosen_by_lane() {
    for paths in [1, 2, 4, 8, 16, 32] {
        let distinct = |choice| {
            let mut seen: Vec<u32> = (0..32).map(|lane| path_of(choice, 32 + lane, paths)).collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len() as u32
        };
        assert_eq!(distinct(PathChoice::ByLane), paths);
        assert_eq!(distinct(PathChoice::ByWarp), 1);
    }
    // And the paths really compute different values: lane l and lane l + 1 differ for k > 1.
    let got = emulate(divergent_lane_paths, 32, 5);
    assert_ne!(got[0], got[1]);
}

#[test]
fn branch_kernels_match_the_reference_with_uniform_and_split_warps() {
    for select_mask in [0, 1, 2, 31] {
        for (length, kernel) in [
            (BranchLength::Short, short_branch_predicated as ControlFlowKernel),
            (BranchLength::Long, long_branch_divergent as ControlFlowKernel),
        ] {
            let got = emulate(kernel, select_mask, 19);
            assert_eq!(
                got,
                branch_reference(length, THREADS, select_mask, 19),
                "{length:?}, mask {select_mask}"
            );
            assert!(got.iter().all(|v| v.is_finite()));
        }
    }
}
