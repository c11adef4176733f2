// OpenCL C twins of ptxsuite's constant-memory kernels (kernels-gpu/src/constant_memory/):
// the OpenCL guide §3.1.2.3 (and the Best Practices Guide §3.2.5) say a warp's constant
// read costs in proportion to the distinct addresses it holds. The same table walk as the
// Rust kernels: lane l (get_local_id(0) % 32) starts at word l % distinct and follows
// w <- table[w] for `steps` steps; work-item t writes the wrapping sum of the words it
// visited to sums[t] (reference::constant_chase_sum). Work-groups of a multiple of 32.
//
// Where the table lives: constant_chase takes it as a __constant argument (OpenCL's
// constant memory: NVIDIA's OpenCL serves it from the constant cache, as CUDA C's
// __constant__), constant_chase_global_nc as a read-only __global restrict pointer (which
// the compiler may load through the read-only data cache), constant_chase_shared copies it
// into __local memory (CUDA's shared memory) first.
//
// Unlike the Rust and CUDA C kernels these take no block spans: OpenCL C has neither
// clock64 nor %globaltimer, so the twins are timed by the queue's profiling events alone.
//
// On modern GPUs (H100, the Rust kernels, full SMs): one address about 2 SM clocks per warp
// read from the constant bank, 32 addresses about 32x that (the guides' linear cost holds,
// counted per warp where cc 1.x counted per half-warp); the read-only cache and shared
// memory cost far less per distinct address.

// Lane l starts at word l % distinct and takes `steps` steps through READ(word); leaves
// the sum of the visited words in `sum`.
#define CONSTANT_CHASE_STEPS(READ)                                                                     \
    uint word = (uint)get_local_id(0) % 32u % distinct;                                                \
    uint sum = 0;                                                                                      \
    for (uint step = 0; step < steps; step++) {                                                        \
        word = READ;                                                                                   \
        sum += word;                                                                                   \
    }

// The table in constant memory. Requires 1 <= distinct <= 32 and every link inside the
// table (the host checks both).
__kernel void constant_chase(__constant uint *links, uint distinct, uint steps, __global uint *sums)
{
    CONSTANT_CHASE_STEPS(links[word])
    sums[get_global_id(0)] = sum;
}

// The same table in global memory, read-only and not aliased: the read-only data cache's
// candidate (CUDA C's __ldg).
__kernel void constant_chase_global_nc(__global const uint *restrict links, uint distinct, uint steps,
                                       __global uint *sums)
{
    CONSTANT_CHASE_STEPS(links[word])
    sums[get_global_id(0)] = sum;
}

// The table's `words` words copied into __local memory (`table`: words * 4 bytes), then
// walked there: a distinct address per bank (links w -> w + 32 keep lane groups in their banks).
__kernel void constant_chase_shared(__global const uint *links, uint words, uint distinct, uint steps,
                                    __global uint *sums, __local uint *table)
{
    for (uint w = (uint)get_local_id(0); w < words; w += (uint)get_local_size(0))
        table[w] = links[w];
    barrier(CLK_LOCAL_MEM_FENCE);
    CONSTANT_CHASE_STEPS(table[word])
    sums[get_global_id(0)] = sum;
}
