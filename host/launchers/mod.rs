//! Typed launchers: one function per kernel, taking device buffers (which
//! carry their lengths) and proving before the launch that every index the
//! kernel will compute stays inside them. Each takes the
//! [`DeviceUnderTest`](crate::testbed::DeviceUnderTest) and the
//! [`Implementation`](crate::testbed::Implementation) whose kernel it launches.
//!
//! The shape checks are pure functions (`*_shape`) so they are tested without a GPU.

mod allocation;
mod batched_copies;
mod block_grid;
mod compat_layer;
mod constant_memory;
mod cublas;
mod diagnostics;
mod divergence;
mod execution_configuration;
mod families;
mod family;
mod fountain_emitter_probe;
mod global_memory;
mod guide_multiply;
mod instruction_throughput;
mod latency;
mod launch_outputs;
mod local_memory;
mod loop_counters;
mod mapped_host;
mod math_accuracy;
mod matrix_vector;
mod measured_sass;
mod node_copies;
mod occupancy;
mod opencl_nd_range;
mod particles;
mod pointer_ring;
mod reduction;
mod sgemm;
mod shared_memory_banks;
mod slot_ring;
mod streams;
mod stride_copy_global;
mod texture_2d;
mod transfers;
mod twin_waivers;

pub use allocation::{
    AllocationCase, AllocationRunner, CaseReadBack, CudaAllocationRunner, allocation_runners, stream_ordered_pools,
};
pub use batched_copies::{CUDA_PINNED_PIECES, CudaPieceCopyRunner, PieceCopies, PieceCopyRunner, piece_copy_runners};
pub use compat_layer::{
    CompatKernel, CompatLayerRunner, CudaCompatLayerRunner, CudaStdBlockSum, CudaStdVecadd, KernelLayer, block_sum,
    block_sum_shape, block_sum_shared_bytes, compat_blocks, compat_layer_runners, vecadd, vecadd_shape,
};
pub use constant_memory::{
    CONSTANT_CHASE_BLOCK_THREADS, CONSTANT_CHASE_TABLE_WORDS, ChaseCase, ChaseRunner, ChaseTable, ChaseTiming,
    ConstantSpace, constant_chase, constant_chase_runners, constant_chase_shape,
};
pub use cublas::{cublas_gemm_f16_storage, cublas_sgemm, cublas_sgemm_aat, cublas_sgemv};
pub use diagnostics::{SAMPLE_HOLD, held_timer, spin_wait};
pub use divergence::{
    ControlFlow, CudaDivergenceRunner, DivergenceRunner, OpenClDivergenceRunner, branch, branch_kernel,
    divergence_runners, divergence_shape, divergent_paths, paths_kernel,
};
pub use execution_configuration::{
    CudaFmaChainRunner, FmaChainGrid, FmaChainRunner, OpenClFmaChainRunner, fma_chain_in, fma_chain_runners,
    fma_chain_shape,
};
pub use families::{memory_claims_entries, nominal_shape, opencl_c_kernels, ptx_entries};
pub use fountain_emitter_probe::{
    EMITTER_PROBE_GRID, emitter_from_probe, emitter_mismatch, emitter_probe_state, fountain_emitter_positions,
};
pub use global_memory::{
    CopyKernel, CopyReference, CopyRunner, CudaCopyRunner, copy_runners, driver_copy, offset_copy, offset_copy_shape,
    permuted_copy, permuted_copy_shape, shift_copy, shift_copy_shape, stride_copy, stride_copy_shape,
    texture_shift_copy, texture_shift_copy_shape, vector_copy, vector_copy_blocks, vector_copy_global,
    vector_copy_global_grid, vector_copy_global_on,
};
pub use guide_multiply::{
    CudaGuideMultiplyRunner, GuideLaunch, GuideMultiply, GuideMultiplyRunner, guide_multiply, guide_multiply_runners,
    guide_multiply_shape,
};
pub use instruction_throughput::{
    AnyChainParams, ChainLaunch, ChainValue, ChainValues, CompiledSass, CudaThroughputRunner, OpenClThroughputRunner,
    RustWaves, ThroughputOutputs, ThroughputRow, ThroughputRunner, build_throughput_twins, cc1_per_sm_per_clock,
    fast_math_runner, first_threads, hopper_peak_per_sm_per_clock, opencl_throughput, opencl_throughput_runners,
    suggested_params, throughput, throughput_in_module, throughput_runners, throughput_shape, throughput_table,
    throughput_wave_blocks,
};
pub use latency::{
    ChaseRing, CudaLatencyRunner, CudaLinkChaseRunner, LatencyRunner, LinkChaseRunner, RingMemory,
    SHARED_CHASE_BLOCK_THREADS, fma_latency, latency_runners, link_chase_runners, pointer_chase, pointer_chase_from,
    shared_pointer_chase, shared_pointer_chase_shape,
};
pub use launch_outputs::{LaunchOutputs, MAX_KEPT_LAUNCHES, TimedLaunches, kept_reps, launches_of};
pub use local_memory::{
    LOCAL_ARRAY_BLOCK_THREADS, LocalArrayCase, LocalArrayKernel, LocalArrayRunner, local_array, local_array_runners,
    local_array_shape,
};
pub use loop_counters::{
    CudaLoopCounterRunner, LoopCounter, LoopCounterRunner, StridedLoop, loop_counter, loop_counter_grid,
    loop_counter_runners, loop_counter_shape,
};
pub use mapped_host::{ArrayId, CudaMappedRunner, MappedRunner, MappedStep, Memory, mapped_runners};
pub use math_accuracy::{
    CudaMathAccuracyRunner, MathAccuracyRunner, function_values_shape, math_accuracy_runners, math_function_values,
};
pub use matrix_vector::{
    CudaMatVecRunner, MATVEC_BLOCK_THREADS, MatVecEntry, MatVecRunner, MatVecVersion, check_matvec_buffers, matvec,
    matvec_runners, matvec_shape, matvec_with_grid,
};
pub use measured_sass::measured_sass_opcodes;
pub use node_copies::{
    ConcurrentSamples, CudaNodeCopyRunner, NodeArray, NodeCopy, NodeCopyRunner, PeerPath, Residence, node_copy_runners,
};
pub use occupancy::{
    CudaOccupancyRunner, OCCUPANCY_BLOCK_THREADS, OccupancyKernel, OccupancyRunner, occupancy_chase,
    occupancy_chase_shape, occupancy_copy, occupancy_copy_shape, occupancy_runners, shared_bytes_for_resident_blocks,
};
pub use particles::{
    CudaGravityBuffers, CudaParticleBuffers, CudaParticleRunner, FrameTimes, GravityBuffers, InteropFrames,
    ParticleBuffers, ParticleFrames, ParticleRunner, StepReplay, fountain_version_step, gravity_step, particle_runners,
    particle_shape, particle_step, particle_step_global, population_bytes,
};
pub use pointer_ring::{PointerRing, pointer_ring_words};
pub use reduction::{
    CudaReductionRunner, OpenClReductionRunner, ReductionEntry, ReductionKernel, ReductionRunner, reduce,
    reduction_runners, reduction_shape,
};
pub use sgemm::{
    CudaGemmRunner, GemmEntry, GemmOp, GemmRunner, REGISTER_BLOCKED_TILES, RegisterBlockedPlan, SPLIT_K_MIN_TILES,
    SPLIT_K_PLAN, SPLIT_K_SPLITS, SgemmKernel, TileChoice, adds_into_c, check_gemm_buffers, cublas_reference,
    gemm_flops, gemm_runners, hgemm_f16_storage, hgemm_f16_storage_shape, register_blocked_plan, register_blocked_tile,
    register_blocked_tile_of_entry, sgemm, sgemm_launch, sgemm_register_blocked_with_tile, sgemm_shape,
    split_k_deep_enough, warp_tiled_entry, whole_register_blocked_tiles,
};
pub use shared_memory_banks::{
    BANK_BLOCK_THREADS, BankAccess, BankCase, BankKernel, BankRunner, BankTimes, CudaBankRunner, OpenClBankRunner,
    bank_kernel, bank_kernel_shape, bank_runners,
};
pub use slot_ring::{SlotRing, check_slot_links};
pub use streams::{
    CudaFanOutRunner, CudaStagedRunner, FAN_BLOCK, FAN_ITERATIONS, FAN_MARK, FanOut, FanOutRunner, FanStream,
    HostMemory, Lanes, OpenClFanOutRunner, OpenClStagedRunner, PipelineStep, StagedPipeline, StagedRunner, UploadOrder,
    chunk_ranges, fan_out_runners, fma_chain, fma_chain_of, opencl_fma_chain, staged_runners,
};
pub use stride_copy_global::stride_copy_global;
pub use texture_2d::{
    CudaTexture2dRunner, Image2d, SamplePlacement, Sampling, Texture2dRunner, TileFetch, global_2d_tile_load,
    texture_2d_runners, texture_2d_tile_sample, texture_2d_tile_shape,
};
pub use transfers::{
    CudaTransferRunner, OpenClTransferRunner, PAGEABLE_SAMPLE_FACTOR, TransferDirection, TransferEntry, TransferRunner,
    cuda_transfer_entries, opencl_transfer_entries, timed_copies, transfer_runners,
};
pub use twin_waivers::KernelSet;

/// The OpenCL C twins' launchers, by family (the same shape checks as the CUDA launchers).
pub mod opencl {
    pub use super::constant_memory::opencl::{
        CHASE_TWIN_PARAMS, ClChaseTable, SHARED_CHASE_TWIN_PARAMS, constant_chase,
    };
    pub use super::divergence::opencl::{branch, divergent_paths};
    pub use super::execution_configuration::opencl::{opencl_fma_chain_in, opencl_fma_chain_per_item};
    pub use super::global_memory::opencl::*;
    pub use super::local_memory::opencl::{SPILL_REGISTER_CAP, build_spilled_twin, local_array};
    pub use super::matrix_vector::opencl::*;
    pub use super::opencl_nd_range::*;
    pub use super::reduction::opencl::reduce;
    pub use super::sgemm::opencl::*;
    pub use super::shared_memory_banks::opencl::{BANK_TWIN_PARAMS, bank_kernel};
}
