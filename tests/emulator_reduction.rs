//! The array-sum kernels in the CPU emulator: the partial sums, added on the
//! host, against an f64 sum, on lengths that are not multiples of the block.

use kernels_gpu::reduction::{REDUCTION_BLOCK_THREADS, reduce_block_tree, reduce_grid_stride_shuffle};
use ptxsuite::device::{Dim3, GlobalMutPtr, GlobalPtr};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::launchers::{ReductionKernel, reduction_shape};

type Kernel = unsafe fn(GlobalPtr<f32>, u32, GlobalMutPtr<f32>);

fn run(kind: ReductionKernel, kernel: Kernel, x: &[f32], wave: u32) -> Vec<f32> {
    let n = x.len() as u32;
    let blocks = kind.blocks(n, wave);
    let shape = reduction_shape(kind, n, (x.len(), blocks as usize), wave).unwrap();
    let mut partials = vec![f32::NAN; blocks as usize];
    let mut emu = Emulator::new();
    let (px, pp) = (emu.global(x), emu.global_mut(&mut partials));
    emu.launch(
        LaunchConfig::new(
            shape.grid,
            Dim3::x(REDUCTION_BLOCK_THREADS),
            shape.shared_bytes as usize,
        ),
        || unsafe { kernel(px, n, pp) },
    )
    .unwrap_or_else(|e| panic!("{} over {n}: {e}", kind.kernel()));
    partials
}

#[test]
fn both_kernels_sum_ragged_arrays_within_the_f32_bound() {
    for n in [1usize, 31, 256, 511, 513, 1000, 4099] {
        let x: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0).collect();
        let exact: f64 = x.iter().map(|&v| v as f64).sum();
        let bound = n as f64 * f32::EPSILON as f64 * x.iter().map(|&v| (v as f64).abs()).sum::<f64>();
        for (kind, kernel) in [
            (ReductionKernel::BlockTree, reduce_block_tree as Kernel),
            (ReductionKernel::GridStrideShuffle, reduce_grid_stride_shuffle as Kernel),
        ] {
            for wave in [1, 3] {
                let partials = run(kind, kernel, &x, wave);
                assert!(
                    partials.iter().all(|p| p.is_finite()),
                    "{}: a partial left unwritten",
                    kind.kernel()
                );
                let got: f64 = partials.iter().map(|&p| p as f64).sum();
                assert!(
                    (got - exact).abs() <= bound,
                    "{} n={n} wave={wave}: {got} vs {exact}",
                    kind.kernel()
                );
                // Ones add exactly (every partial an integer below 2^24): any element lost or counted twice shows.
                let ones: f64 = run(kind, kernel, &vec![1.0; n], wave).iter().map(|&p| p as f64).sum();
                assert_eq!(
                    ones,
                    n as f64,
                    "{} n={n} wave={wave}: the sum of {n} ones",
                    kind.kernel()
                );
            }
        }
    }
}

#[test]
fn the_tree_writes_each_blocks_own_sum() {
    // 512 elements per block: block b holds only the value b + 1, so partial b must be 512 * (b + 1).
    let x: Vec<f32> = (0..3 * 512).map(|i| (i / 512 + 1) as f32).collect();
    let partials = run(ReductionKernel::BlockTree, reduce_block_tree, &x, 1);
    assert_eq!(partials, vec![512.0, 1024.0, 1536.0]);
}

#[test]
fn the_shape_check_refuses_short_buffers_and_empty_arrays() {
    assert!(reduction_shape(ReductionKernel::BlockTree, 0, (0, 1), 1).is_err());
    assert!(reduction_shape(ReductionKernel::BlockTree, 1024, (1023, 2), 1).is_err());
    assert!(reduction_shape(ReductionKernel::BlockTree, 1025, (1025, 2), 1).is_err());
    assert!(reduction_shape(ReductionKernel::GridStrideShuffle, 1 << 20, (1 << 20, 7), 8).is_err());
    let shape = reduction_shape(ReductionKernel::GridStrideShuffle, 1 << 20, (1 << 20, 8), 8).unwrap();
    assert_eq!(shape.grid, Dim3::x(8));
}
