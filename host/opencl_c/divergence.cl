// OpenCL C twins of ptxsuite's control-flow kernels (kernels-gpu/src/divergence/):
// the OpenCL guide §3.1.1.2 makes its divergence and predication claims for
// OpenCL, so the claims are measured in OpenCL C too. Same algorithms, same
// launch shapes (work-groups of 256, one full wave), same entry names and
// parameters as the Rust kernels; every value stored agrees bit for bit with the
// CPU reference (fma() is correctly rounded; sums in chain order).
//
// A "warp" here is 32 consecutive work-items of a work-group (NVIDIA's warp; the
// work-group size is a multiple of 32, so lane = local id mod 32 = global id mod
// 32). OpenCL C 1.2 has no way to ask for the device's SIMD width without
// sub-groups, and NVIDIA's OpenCL offers none.
//
// Unrolling: where the device's compiler honours `#pragma unroll` (NVIDIA's
// cl_nv_pragma_unroll extension; the host then builds with
// -D DIVERGENCE_PRAGMA_UNROLL) each path's loop is unrolled 8 times, as rustc
// unrolls the Rust kernel; elsewhere (PoCL) the loops are plain and the compiler
// decides. The Rust and CUDA C kernels also pin ptxas with PTX's
// `.pragma "nounroll"`; OpenCL C has no portable inline PTX, so here ptxas may
// unroll each path again (a larger instruction footprint for 32 paths: see the
// Rust kernel's notes). Nor is there an empty asm naming each path: the paths
// stay distinct because each is its own loop with its own constant.

#ifdef DIVERGENCE_PRAGMA_UNROLL
#define DIVERGENCE_UNROLL _Pragma("unroll 8")
#else
#define DIVERGENCE_UNROLL
#endif

#define DIVERGENCE_WARP 32u
#define DIVERGENCE_CHAINS 4

// Path P: `iterations` rounds of x[c] = fma(x[c], 0.5f, (P + 1) / 256) on four chains
// (the offset scaled by 2^-8: exact).
#define DIVERGENCE_PATH(P)                                                         \
    case P: {                                                                      \
        const float offset = (float)((P) + 1) * (1.0f / 256.0f);                         \
        DIVERGENCE_UNROLL for (uint round = 0; round < iterations; round++) {      \
            x0 = fma(x0, 0.5f, offset);                                            \
            x1 = fma(x1, 0.5f, offset);                                            \
            x2 = fma(x2, 0.5f, offset);                                            \
            x3 = fma(x3, 0.5f, offset);                                            \
        }                                                                          \
    } break;

// The value chain `c` of work-item `thread` starts from: (thread * 4 + c) / 1024, as a
// multiplication by 2^-10 (exact; OpenCL C's `/` need not be correctly rounded).
inline float divergence_start(uint thread, uint chain)
{
    return (float)((ulong)thread * DIVERGENCE_CHAINS + chain) * (1.0f / 1024.0f);
}

// Path `path` (0..31; another value leaves the chains as they start) for work-item
// `thread`, which then stores ((x0 + x1) + x2) + x3 at out[thread].
inline void divergence_paths(__global float *out, uint thread, uint path, uint iterations)
{
    float x0 = divergence_start(thread, 0);
    float x1 = divergence_start(thread, 1);
    float x2 = divergence_start(thread, 2);
    float x3 = divergence_start(thread, 3);
    switch (path) {
        DIVERGENCE_PATH(0) DIVERGENCE_PATH(1) DIVERGENCE_PATH(2) DIVERGENCE_PATH(3)
        DIVERGENCE_PATH(4) DIVERGENCE_PATH(5) DIVERGENCE_PATH(6) DIVERGENCE_PATH(7)
        DIVERGENCE_PATH(8) DIVERGENCE_PATH(9) DIVERGENCE_PATH(10) DIVERGENCE_PATH(11)
        DIVERGENCE_PATH(12) DIVERGENCE_PATH(13) DIVERGENCE_PATH(14) DIVERGENCE_PATH(15)
        DIVERGENCE_PATH(16) DIVERGENCE_PATH(17) DIVERGENCE_PATH(18) DIVERGENCE_PATH(19)
        DIVERGENCE_PATH(20) DIVERGENCE_PATH(21) DIVERGENCE_PATH(22) DIVERGENCE_PATH(23)
        DIVERGENCE_PATH(24) DIVERGENCE_PATH(25) DIVERGENCE_PATH(26) DIVERGENCE_PATH(27)
        DIVERGENCE_PATH(28) DIVERGENCE_PATH(29) DIVERGENCE_PATH(30) DIVERGENCE_PATH(31)
    default:
        break;
    }
    out[thread] = ((x0 + x1) + x2) + x3;
}

// Divergence within a warp: lane l takes path l % paths, so every warp holds
// `paths` distinct paths, run one after another. Expected: time ∝ paths.
__kernel void divergent_lane_paths(__global float *out, uint paths, uint iterations)
{
    uint thread = (uint)get_global_id(0);
    divergence_paths(out, thread, (thread % DIVERGENCE_WARP) % max(paths, 1u), iterations);
}

// The guide's remedy: the same paths chosen per warp (warp w takes path
// w % paths), so no warp diverges. Expected: the time of one path for every k.
__kernel void uniform_warp_paths(__global float *out, uint paths, uint iterations)
{
    uint thread = (uint)get_global_id(0);
    divergence_paths(out, thread, (thread / DIVERGENCE_WARP) % max(paths, 1u), iterations);
}

// The if/else kernels: in round `round` lane l takes the first side when
// ((l ^ round) & select_mask) != 0 (mask 0: every warp one way; mask 1: every
// warp split in half, alternating by round), on four chains.
#define BRANCH_KERNEL(NAME, FIRST, SECOND)                                           \
    __kernel void NAME(__global float *out, uint select_mask, uint iterations)       \
    {                                                                                \
        uint thread = (uint)get_global_id(0);                                        \
        uint lane = (uint)get_local_id(0) % DIVERGENCE_WARP;                         \
        float v[DIVERGENCE_CHAINS];                                                  \
        for (uint c = 0; c < DIVERGENCE_CHAINS; c++)                                 \
            v[c] = divergence_start(thread, c);                                      \
        for (uint round = 0; round < iterations; round++) {                          \
            bool first = ((lane ^ round) & select_mask) != 0;                        \
            for (uint c = 0; c < DIVERGENCE_CHAINS; c++) {                           \
                float x = v[c];                                                      \
                if (first) {                                                         \
                    FIRST                                                            \
                } else {                                                             \
                    SECOND                                                           \
                }                                                                    \
                v[c] = x;                                                            \
            }                                                                        \
        }                                                                            \
        out[thread] = ((v[0] + v[1]) + v[2]) + v[3];                                 \
    }

// Short sides (one operation each): the compiler may evaluate both and select,
// so no warp diverges. Expected: split and uniform warps take the same time.
BRANCH_KERNEL(short_branch_predicated, x = x * 0.75f;, x = x + 0.25f;)

// Long sides (eight dependent FMAs each): the compiler branches, and a split warp
// runs both sides. Expected: split warps about twice as long.
BRANCH_KERNEL(long_branch_divergent, x = fma(x, 0.5f, 0.125f); x = fma(x, 0.75f, 0.25f); x = fma(x, 0.5f, 0.375f);
              x = fma(x, 0.75f, 0.5f); x = fma(x, 0.5f, 0.625f); x = fma(x, 0.75f, 0.75f);
              x = fma(x, 0.5f, 0.875f); x = fma(x, 0.75f, 1.0f);,
              x = fma(x, 0.625f, -0.125f); x = fma(x, 0.875f, 0.0625f); x = fma(x, 0.625f, -0.25f);
              x = fma(x, 0.875f, 0.1875f); x = fma(x, 0.625f, -0.375f); x = fma(x, 0.875f, 0.3125f);
              x = fma(x, 0.625f, -0.5f); x = fma(x, 0.875f, 0.4375f);)
