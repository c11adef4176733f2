//! The compatibility-layer pairs (`kernels-gpu/src/compat_layer/`) in the CPU
//! emulator: the `cuda_std`-style kernels (through `cuda_std`'s emulator
//! launch, which gives each block its `shared_array!`) and their
//! `ptx-device` twins, each against the CPU reference, over sizes that are
//! not multiples of the block; a slice shorter than the launch is a fault.

use kernels_gpu::compat_layer::{
    COMPAT_BLOCK_THREADS, cuda_std_block_sum, cuda_std_vecadd, ptx_device_block_sum, ptx_device_vecadd,
};
use kernels_gpu::cuda_std_emulator::{self, HostPointer};
use ptxsuite::device::Dim3;
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::launchers::{KernelLayer, block_sum_shared_bytes};
use ptxsuite::reference::{block_tree_sums, vector_add};

const SENTINEL: f32 = -9.0;
/// Output elements past the launch's, which must keep the sentinel.
const ROOM: usize = 40;

fn values(len: usize, salt: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 37 + salt * 11) % 101) as f32 * 0.25 - 12.0)
        .collect()
}

fn config(n: usize, shared_bytes: u32) -> LaunchConfig {
    let blocks = n.div_ceil(COMPAT_BLOCK_THREADS as usize) as u32;
    LaunchConfig::new(Dim3::x(blocks), Dim3::x(COMPAT_BLOCK_THREADS), shared_bytes as usize)
}

fn with_room(mut expected: Vec<f32>) -> Vec<f32> {
    expected.resize(expected.len() + ROOM, SENTINEL);
    expected
}

fn cuda_std_sums(input: &[f32]) -> Vec<f32> {
    let mut partial = vec![SENTINEL; input.len().div_ceil(256) + ROOM];
    let out = HostPointer::new(partial.as_mut_ptr());
    let shared = block_sum_shared_bytes(KernelLayer::CudaStd);
    // SAFETY: blocks of 256, partial holds one sum per block (and more).
    cuda_std_emulator::launch(config(input.len(), shared), || unsafe {
        cuda_std_block_sum(input, out.get())
    })
    .unwrap();
    partial
}

fn ptx_device_sums(input: &[f32]) -> Vec<f32> {
    let mut partial = vec![SENTINEL; input.len().div_ceil(256) + ROOM];
    {
        let mut emulator = Emulator::new();
        let (inp, out) = (emulator.global(input), emulator.global_mut(&mut partial));
        let shared = block_sum_shared_bytes(KernelLayer::PtxDevice);
        // SAFETY: blocks of 256 with the 1 KiB tile; every access is checked by the emulator.
        emulator
            .launch(config(input.len(), shared), || unsafe {
                ptx_device_block_sum(inp, input.len() as u32, out)
            })
            .unwrap();
    }
    partial
}

#[test]
fn both_vector_adds_match_the_cpu() {
    for n in [1, 255, 256, 5 * 256 + 77] {
        let (a, b) = (values(n, 1), values(n, 2));
        let expected = with_room(vector_add(&a, &b));

        let mut c = vec![SENTINEL; n + ROOM];
        let out = HostPointer::new(c.as_mut_ptr());
        // SAFETY: c holds n (+ ROOM) elements; the slices are a and b themselves.
        cuda_std_emulator::launch(config(n, 0), || unsafe { cuda_std_vecadd(&a, &b, out.get()) }).unwrap();
        assert_eq!(c, expected, "cuda_std_vecadd, n = {n}");

        let mut c = vec![SENTINEL; n + ROOM];
        {
            let mut emulator = Emulator::new();
            let (ga, gb, gc) = (emulator.global(&a), emulator.global(&b), emulator.global_mut(&mut c));
            // SAFETY: all three hold n elements; the emulator checks every access.
            emulator
                .launch(config(n, 0), || unsafe { ptx_device_vecadd(gc, ga, gb, n as u32) })
                .unwrap();
        }
        assert_eq!(c, expected, "ptx_device_vecadd, n = {n}");
    }
}

#[test]
fn both_block_sums_add_in_the_tree_order_bit_for_bit() {
    for n in [1, 256, 3 * 256 + 1, 6 * 256 - 5] {
        // Values whose sum depends on the order of additions: the bits tell the tree apart.
        let input: Vec<f32> = (0..n)
            .map(|i| if i % 3 == 0 { 1.0e8 } else { 1.0 + i as f32 * 1.0e-3 })
            .collect();
        let expected = with_room(block_tree_sums(&input, COMPAT_BLOCK_THREADS as usize));
        let sequential: f32 = input[..n.min(256)].iter().sum();
        if n >= 256 {
            assert_ne!(
                expected[0].to_bits(),
                sequential.to_bits(),
                "the input must tell the tree from a running sum"
            );
        }
        assert_eq!(cuda_std_sums(&input), expected, "cuda_std_block_sum, n = {n}");
        assert_eq!(ptx_device_sums(&input), expected, "ptx_device_block_sum, n = {n}");
    }
}

#[test]
fn a_slice_shorter_than_the_launch_is_a_fault_not_a_read_past_it() {
    let (a, b) = (values(300, 1), values(299, 2));
    let mut c = vec![SENTINEL; 300];
    let out = HostPointer::new(c.as_mut_ptr());
    // SAFETY: c holds a.len() elements; b is one short, which the kernel's check of b[idx] must catch.
    let error = cuda_std_emulator::launch(config(300, 0), || unsafe { cuda_std_vecadd(&a, &b, out.get()) })
        .expect_err("b[299] is past b");
    assert!(error.to_string().contains("index out of bounds"), "{error}");
}
