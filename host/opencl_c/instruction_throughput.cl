// OpenCL C twins of ptxsuite's instruction-throughput kernels that the OpenCL
// Programming Guide §3.1.1.1 states rates or advice for
// (kernels-gpu/src/instruction_throughput/): the same parameter list
// (out, start, step, a, b, iterations), 8 chains per work-item seeded from
// k = global id * 8 + chain, the same rounds, stores at out[chain * items + id].
// The standard functions (sin, exp, sqrt, fmin) beside the native_* ones
// (native_sin, native_exp, native_rsqrt: the SFU instructions the Rust
// sin_approx, exp_fast and rsqrt_approx kernels issue); the suite builds this
// file with no option, with -cl-mad-enable and with -cl-fast-relaxed-math.

#define THROUGHPUT_CHAINS 8

#define CHAIN_KERNEL(NAME, ROUND)                                                                  \
    __kernel void NAME(__global float *out, float start, float step, float a, float b, uint iterations) \
    {                                                                                              \
        uint items = (uint)get_global_size(0);                                                     \
        uint item = (uint)get_global_id(0);                                                        \
        float v[THROUGHPUT_CHAINS];                                                                \
        for (uint c = 0; c < THROUGHPUT_CHAINS; c++)                                               \
            v[c] = fma((float)(item * THROUGHPUT_CHAINS + c), step, start);                        \
        for (uint round = 0; round < iterations; round++) {                                        \
            for (uint c = 0; c < THROUGHPUT_CHAINS; c++) {                                         \
                float x = v[c];                                                                    \
                v[c] = (ROUND);                                                                    \
            }                                                                                      \
        }                                                                                          \
        for (uint c = 0; c < THROUGHPUT_CHAINS; c++)                                               \
            out[(ulong)c * items + item] = v[c];                                                   \
    }

CHAIN_KERNEL(f32_add_throughput, x + a)
CHAIN_KERNEL(rsqrt_approx_throughput, native_rsqrt(x))
CHAIN_KERNEL(sqrt_throughput, sqrt(x) + b)
CHAIN_KERNEL(fmin_throughput, fmin(-x, a))
CHAIN_KERNEL(convert_throughput, (float)convert_int_rtz(-x))
CHAIN_KERNEL(sin_throughput, sin(x) + b)
CHAIN_KERNEL(sin_approx_throughput, native_sin(x) + b)
CHAIN_KERNEL(exp_throughput, exp(x) + b)
CHAIN_KERNEL(exp_fast_throughput, native_exp(x) + b)
// a * x^3 + b written as separate multiplies and an add: what -cl-mad-enable may fuse.
CHAIN_KERNEL(cube_mul_throughput, a * (x * x * x) + b)
