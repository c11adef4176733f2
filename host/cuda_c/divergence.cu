// CUDA C twins of ptxsuite's control-flow kernels (kernels-gpu/src/divergence/).

#define PATH_CHAINS 4
#define BRANCH_CHAINS 4

// Path P: `iterations` rounds of x[c] = fmaf(x[c], 0.5f, (P + 1) / 256.0f) on
// four chains, behind an empty asm naming the path (which keeps the compiler
// from merging paths, as in the Rust kernel).
template <unsigned P>
static __device__ __forceinline__ void run_path(float x[PATH_CHAINS], unsigned iterations)
{
    asm volatile("// divergence path %0" ::"n"(P));
    const float offset = (float)(P + 1) / 256.0f;
    // Unrolled 8 times as rustc unrolls the Rust kernel, and no further by
    // ptxas (the nounroll pragma, as in the Rust kernel): each path stays
    // small enough that 32 of them fit the instruction cache.
#pragma unroll 8
    for (unsigned round = 0; round < iterations; round++) {
        asm volatile(".pragma \"nounroll\";");
#pragma unroll
        for (int c = 0; c < PATH_CHAINS; c++)
            x[c] = fmaf(x[c], 0.5f, offset);
    }
}

#define PATH_CASE(P) case P: run_path<P>(x, iterations); break;

static __device__ __forceinline__ void paths_kernel(float *out, unsigned thread, unsigned path, unsigned iterations)
{
    float x[PATH_CHAINS];
#pragma unroll
    for (int c = 0; c < PATH_CHAINS; c++)
        x[c] = (float)((unsigned long long)thread * PATH_CHAINS + c) / 1024.0f;
    switch (path) {
        PATH_CASE(0) PATH_CASE(1) PATH_CASE(2) PATH_CASE(3) PATH_CASE(4) PATH_CASE(5) PATH_CASE(6) PATH_CASE(7)
        PATH_CASE(8) PATH_CASE(9) PATH_CASE(10) PATH_CASE(11) PATH_CASE(12) PATH_CASE(13) PATH_CASE(14) PATH_CASE(15)
        PATH_CASE(16) PATH_CASE(17) PATH_CASE(18) PATH_CASE(19) PATH_CASE(20) PATH_CASE(21) PATH_CASE(22) PATH_CASE(23)
        PATH_CASE(24) PATH_CASE(25) PATH_CASE(26) PATH_CASE(27) PATH_CASE(28) PATH_CASE(29) PATH_CASE(30) PATH_CASE(31)
    default: break;
    }
    out[thread] = ((x[0] + x[1]) + x[2]) + x[3];
}

// Lane l takes path l % paths: `paths` distinct paths inside every warp.
extern "C" __global__ void divergent_lane_paths(float *out, unsigned paths, unsigned iterations)
{
    unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned path = (thread % 32u) % (paths > 0 ? paths : 1u);
    paths_kernel(out, thread, path, iterations);
}

// Warp w takes path w % paths: no warp diverges.
extern "C" __global__ void uniform_warp_paths(float *out, unsigned paths, unsigned iterations)
{
    unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned path = (thread / 32u) % (paths > 0 ? paths : 1u);
    paths_kernel(out, thread, path, iterations);
}

// Round `round`: lane l takes the first side when ((l ^ round) & select_mask) != 0.
#define BRANCH_KERNEL(NAME, FIRST, SECOND)                                                  \
    extern "C" __global__ void NAME(float *out, unsigned select_mask, unsigned iterations)  \
    {                                                                                       \
        unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;                            \
        unsigned lane = threadIdx.x % 32u;                                                  \
        float v[BRANCH_CHAINS];                                                             \
        _Pragma("unroll") for (int c = 0; c < BRANCH_CHAINS; c++)                           \
            v[c] = (float)((unsigned long long)thread * BRANCH_CHAINS + c) / 1024.0f;       \
        for (unsigned round = 0; round < iterations; round++) {                             \
            bool first = ((lane ^ round) & select_mask) != 0;                               \
            _Pragma("unroll") for (int c = 0; c < BRANCH_CHAINS; c++)                       \
            {                                                                               \
                float x = v[c];                                                             \
                if (first) {                                                                \
                    FIRST                                                                   \
                } else {                                                                    \
                    SECOND                                                                  \
                }                                                                           \
                v[c] = x;                                                                   \
            }                                                                               \
        }                                                                                   \
        out[thread] = ((v[0] + v[1]) + v[2]) + v[3];                                        \
    }

// Short sides: two instructions each, predicated (selp) by the compiler.
BRANCH_KERNEL(short_branch_predicated, x = x * 0.75f;, x = x + 0.25f;)

// Long sides: eight dependent FMAs each, so the compiler branches.
BRANCH_KERNEL(long_branch_divergent,
              x = fmaf(x, 0.5f, 0.125f); x = fmaf(x, 0.75f, 0.25f); x = fmaf(x, 0.5f, 0.375f);
              x = fmaf(x, 0.75f, 0.5f); x = fmaf(x, 0.5f, 0.625f); x = fmaf(x, 0.75f, 0.75f);
              x = fmaf(x, 0.5f, 0.875f); x = fmaf(x, 0.75f, 1.0f);,
              x = fmaf(x, 0.625f, -0.125f); x = fmaf(x, 0.875f, 0.0625f); x = fmaf(x, 0.625f, -0.25f);
              x = fmaf(x, 0.875f, 0.1875f); x = fmaf(x, 0.625f, -0.375f); x = fmaf(x, 0.875f, 0.3125f);
              x = fmaf(x, 0.625f, -0.5f); x = fmaf(x, 0.875f, 0.4375f);)
