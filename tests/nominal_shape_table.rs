//! The launch shape every kernel entry the suite knows is reported with
//! ([`nominal_shape`]): the PTX module's entry points, the OpenCL C twins'
//! kernels that have no PTX entry of their name, and a name of no kernel
//! (the fallback), each against the shape recorded before the families
//! declared their shapes beside their launchers, but for the fountain's
//! tuning versions and the all-pairs swarm, which the old hub left on the
//! fallback and which now report their real 16 × 16 launches (with their
//! shared-memory tiles). A new kernel entry must get its row here: the test
//! fails for a PTX entry missing from the table.

use ptxsuite::launchers::nominal_shape;
use ptxsuite::ptx::{self, KERNELS_PTX};

/// (entry, grid, block, dynamic shared bytes), by entry name.
const RECORDED_SHAPES: &[(&str, [u32; 3], [u32; 3], u32)] = &[
    ("bank_read_b128", [1, 1, 1], [256, 1, 1], 32784),
    ("bank_read_b16", [1, 1, 1], [256, 1, 1], 8192),
    ("bank_read_b32", [1, 1, 1], [256, 1, 1], 8196),
    ("bank_read_b64", [1, 1, 1], [256, 1, 1], 16392),
    ("bank_read_b8", [1, 1, 1], [256, 1, 1], 8192),
    ("bank_read_permuted", [1, 1, 1], [256, 1, 1], 8196),
    ("bank_read_split_b64", [1, 1, 1], [256, 1, 1], 8196),
    ("bank_read_struct2", [1, 1, 1], [256, 1, 1], 8196),
    ("bank_read_struct3", [1, 1, 1], [256, 1, 1], 8196),
    ("bank_tile_column_read", [1, 1, 1], [256, 1, 1], 8196),
    ("bank_write_b128", [1, 1, 1], [256, 1, 1], 32784),
    ("bank_write_b32", [1, 1, 1], [256, 1, 1], 8196),
    ("bank_write_b64", [1, 1, 1], [256, 1, 1], 16392),
    ("bar_sync_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("cbrt_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("coalesced_multiply", [1, 1, 1], [32, 32, 1], 4096),
    ("coalesced_multiply_aat", [1, 1, 1], [32, 32, 1], 8192),
    ("coalesced_multiply_aat_padded", [1, 1, 1], [32, 32, 1], 8320),
    ("constant_chase", [1, 1, 1], [256, 1, 1], 0),
    ("constant_chase_global_nc", [1, 1, 1], [256, 1, 1], 0),
    ("constant_chase_shared", [1, 1, 1], [256, 1, 1], 1024),
    ("convert_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("cos_approx_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("cube_mul_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("cuda_std_block_sum", [1, 1, 1], [256, 1, 1], 0),
    ("cuda_std_vecadd", [1, 1, 1], [256, 1, 1], 0),
    ("div_approx_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("div_rn_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("divergent_lane_paths", [1, 1, 1], [256, 1, 1], 0),
    ("ex2_approx_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("exp10_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("exp2_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("exp_accurate_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("exp_fast_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("exp_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("f16x2_fma_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("f32_add_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("f32_fma_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("f32_literal_mul_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("f32_mul_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("f64_fma_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("f64_promoted_mul_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("fma_chain", [1, 1, 1], [256, 1, 1], 0),
    ("fma_latency", [1, 1, 1], [1, 1, 1], 0),
    ("fmin_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("global_2d_tile_load", [1, 1, 1], [256, 1, 1], 0),
    ("hgemm_f16_storage", [1, 1, 1], [256, 1, 1], 16640),
    ("hgemm_f16_storage_whole_tiles", [1, 1, 1], [256, 1, 1], 16640),
    ("i16_mad_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("i32_add_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("i32_mad_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("i32_mul_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("i8_mad_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("lg2_approx_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("local_array_dynamic", [1, 1, 1], [128, 1, 1], 0),
    ("local_array_registers", [1, 1, 1], [128, 1, 1], 0),
    ("local_array_spilled", [1, 1, 1], [128, 1, 1], 0),
    ("long_branch_divergent", [1, 1, 1], [256, 1, 1], 0),
    ("loop_counter_i32", [1, 1, 1], [256, 1, 1], 0),
    ("loop_counter_i32_unchecked", [1, 1, 1], [256, 1, 1], 0),
    ("loop_counter_u32", [1, 1, 1], [256, 1, 1], 0),
    ("loop_counter_usize", [1, 1, 1], [256, 1, 1], 0),
    ("math_function_values", [1, 1, 1], [256, 1, 1], 0),
    ("matvec_block_serial_sum", [1, 1, 1], [256, 1, 1], 1024),
    ("matvec_grid_stride_rows", [1, 1, 1], [256, 1, 1], 0),
    ("matvec_row_per_thread", [1, 1, 1], [256, 1, 1], 0),
    ("matvec_tree_interleaved", [1, 1, 1], [256, 1, 1], 1024),
    ("matvec_tree_sequential", [1, 1, 1], [256, 1, 1], 1024),
    ("matvec_warp_per_row", [1, 1, 1], [256, 1, 1], 0),
    ("matvec_warp_shuffle", [1, 1, 1], [256, 1, 1], 1024),
    ("mul24_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("naive_sgemm", [1, 1, 1], [16, 16, 1], 0),
    ("not_a_kernel", [1, 1, 1], [256, 1, 1], 0),
    ("occupancy_chase", [1, 1, 1], [256, 1, 1], 0),
    ("occupancy_copy", [1, 1, 1], [256, 1, 1], 0),
    ("offset_copy", [1, 1, 1], [256, 1, 1], 0),
    ("offset_copy_f16", [1, 1, 1], [256, 1, 1], 0),
    ("offset_copy_f32x4", [1, 1, 1], [256, 1, 1], 0),
    ("offset_copy_f64", [1, 1, 1], [256, 1, 1], 0),
    ("particle_fountain", [16, 16, 1], [16, 16, 1], 0),
    ("particle_fountain_float4_state", [16, 16, 1], [16, 16, 1], 0),
    ("particle_fountain_naive", [16, 16, 1], [16, 16, 1], 0),
    ("particle_fountain_staged", [16, 16, 1], [16, 16, 1], 4096),
    ("particle_fountain_staged_synced", [16, 16, 1], [16, 16, 1], 4096),
    ("particle_gravity", [4, 4, 1], [16, 16, 1], 0),
    ("particle_gravity_tiled", [4, 4, 1], [16, 16, 1], 4096),
    ("particle_swarm", [16, 16, 1], [16, 16, 1], 0),
    ("permuted_copy", [1, 1, 1], [256, 1, 1], 0),
    ("pointer_chase", [1, 1, 1], [1, 1, 1], 0),
    ("pow10_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("pow2_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("pow_cube_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("pow_third_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("ptx_device_block_sum", [1, 1, 1], [256, 1, 1], 1024),
    ("ptx_device_vecadd", [1, 1, 1], [256, 1, 1], 0),
    ("rcp_approx_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("rcp_rn_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("recip_sqrt_rn_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("reduce_block_tree", [1, 1, 1], [256, 1, 1], 1024),
    ("reduce_grid_stride_shuffle", [1, 1, 1], [256, 1, 1], 1024),
    ("rsqrt_approx_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("sgemm_register_blocked", [1, 1, 1], [256, 1, 1], 16640),
    ("sgemm_register_blocked_128x64", [1, 1, 1], [256, 1, 1], 25088),
    (
        "sgemm_register_blocked_128x64_guarded_edges",
        [1, 1, 1],
        [256, 1, 1],
        25088,
    ),
    ("sgemm_register_blocked_128x64_split_k", [1, 1, 2], [256, 1, 1], 25088),
    (
        "sgemm_register_blocked_128x64_whole_tiles",
        [1, 1, 1],
        [256, 1, 1],
        25088,
    ),
    ("sgemm_register_blocked_guarded_edges", [1, 1, 1], [256, 1, 1], 16640),
    ("sgemm_register_blocked_whole_tiles", [1, 1, 1], [256, 1, 1], 16640),
    ("sgemm_warp_tiled", [1, 1, 1], [256, 1, 1], 33280),
    ("sgemm_warp_tiled_whole_tiles", [1, 1, 1], [256, 1, 1], 33280),
    ("shared_ab_multiply", [1, 1, 1], [32, 32, 1], 8192),
    ("shared_pointer_chase", [1, 1, 1], [256, 1, 1], 32768),
    ("shift_copy", [1, 1, 1], [256, 1, 1], 0),
    ("short_branch_predicated", [1, 1, 1], [256, 1, 1], 0),
    ("simple_multiply", [1, 1, 1], [32, 32, 1], 0),
    ("simple_multiply_aat", [1, 1, 1], [32, 32, 1], 0),
    ("sin_approx_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("sin_cos_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("sin_pi_x_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("sin_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("sincos_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("sinpi_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("spin_wait", [1, 1, 1], [256, 1, 1], 0),
    ("sqrt_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("stride_copy", [1, 1, 1], [256, 1, 1], 0),
    ("stride_copy_f16", [1, 1, 1], [256, 1, 1], 0),
    ("stride_copy_f32x4", [1, 1, 1], [256, 1, 1], 0),
    ("stride_copy_f64", [1, 1, 1], [256, 1, 1], 0),
    ("texture_2d_tile_sample", [1, 1, 1], [256, 1, 1], 0),
    ("texture_shift_copy", [1, 1, 1], [256, 1, 1], 0),
    ("tiled_sgemm", [1, 1, 1], [16, 16, 1], 2048),
    ("u32_div_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("u32_mask_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("u32_rem_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("u32_shift_throughput", [1, 1, 1], [256, 1, 1], 0),
    ("uniform_warp_paths", [1, 1, 1], [256, 1, 1], 0),
    ("vector_copy", [1, 1, 1], [256, 1, 1], 0),
];

#[test]
fn every_entry_gets_its_recorded_shape() {
    for &(entry, grid, block, shared_bytes) in RECORDED_SHAPES {
        let shape = nominal_shape(entry);
        assert_eq!(
            (
                [shape.grid.x, shape.grid.y, shape.grid.z],
                [shape.block.x, shape.block.y, shape.block.z],
                shape.shared_bytes
            ),
            (grid, block, shared_bytes),
            "{entry}"
        );
    }
}

#[test]
fn every_ptx_entry_has_a_recorded_shape() {
    let entries = ptx::entry_points(KERNELS_PTX);
    assert!(
        entries.len() > 100,
        "{} entries: the PTX lost its kernels?",
        entries.len()
    );
    for entry in &entries {
        assert!(
            RECORDED_SHAPES.iter().any(|&(recorded, ..)| recorded == entry),
            "{entry} has no row in RECORDED_SHAPES"
        );
    }
}
