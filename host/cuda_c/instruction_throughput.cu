// CUDA C twins of ptxsuite's instruction-throughput kernels
// (kernels-gpu/src/instruction_throughput/). Same parameter list
// (out, start, step, a, b, iterations), same 8 chains per thread seeded from
// k = thread * 8 + chain, same rounds, same stores at out[chain * threads + thread].
// The approximate instructions are written as inline PTX where CUDA C has no
// intrinsic that is exactly that one instruction; the device layer's sin,
// exp and exp_accurate are set against CUDA's own sinf and expf (NVIDIA's
// implementations, not the Rust ones; exp_throughput and
// exp_accurate_throughput both run expf).

#define THROUGHPUT_CHAINS 8

// The kernel skeleton: T is the element type, SEED an expression of k, and
// ROUND a statement over the array v (it may use a and b).
#define CHAIN_KERNEL(NAME, T, SEED, ROUND)                                              \
    extern "C" __global__ void NAME(T *out, T start, T step, T a, T b, unsigned iterations) \
    {                                                                                   \
        unsigned threads = gridDim.x * blockDim.x;                                      \
        unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;                        \
        T v[THROUGHPUT_CHAINS];                                                         \
        _Pragma("unroll") for (unsigned c = 0; c < THROUGHPUT_CHAINS; c++)              \
        {                                                                               \
            unsigned k = thread * THROUGHPUT_CHAINS + c;                                \
            v[c] = (SEED);                                                              \
        }                                                                               \
        for (unsigned round = 0; round < iterations; round++) {                         \
            ROUND                                                                       \
        }                                                                               \
        _Pragma("unroll") for (unsigned c = 0; c < THROUGHPUT_CHAINS; c++)              \
            out[(unsigned long long)c * threads + thread] = v[c];                                   \
        (void)a;                                                                        \
        (void)b;                                                                        \
        (void)step;                                                                     \
    }

// v[c] = EXPR(x) for every chain, x being the chain's value.
#define EACH_CHAIN(EXPR)                                                   \
    _Pragma("unroll") for (unsigned c = 0; c < THROUGHPUT_CHAINS; c++)     \
    {                                                                      \
        auto x = v[c];                                                     \
        v[c] = (EXPR);                                                     \
    }

#define F32_SEED fmaf((float)k, step, start)

static __device__ __forceinline__ float ptx_rcp_approx(float x)
{
    float y;
    asm("rcp.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

static __device__ __forceinline__ float ptx_rsqrt_approx(float x)
{
    float y;
    asm("rsqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

static __device__ __forceinline__ float ptx_div_approx(float a, float b)
{
    float y;
    asm("div.approx.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));
    return y;
}

static __device__ __forceinline__ float ptx_ex2_approx(float x)
{
    float y;
    asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

static __device__ __forceinline__ float ptx_lg2_approx(float x)
{
    float y;
    asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

static __device__ __forceinline__ unsigned ptx_fma_f16x2(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

// Basic floating-point arithmetic.
CHAIN_KERNEL(f32_add_throughput, float, F32_SEED, EACH_CHAIN(x + a))
CHAIN_KERNEL(f32_mul_throughput, float, F32_SEED, EACH_CHAIN(x * a))
CHAIN_KERNEL(f32_fma_throughput, float, F32_SEED, EACH_CHAIN(fmaf(x, a, b)))
CHAIN_KERNEL(f64_fma_throughput, double, fma((double)k, step, start), EACH_CHAIN(fma(x, a, b)))

// Packed half precision: the seed is integer arithmetic on the packed bits.
CHAIN_KERNEL(f16x2_fma_throughput, unsigned, start + (k % 1024u) * step, EACH_CHAIN(ptx_fma_f16x2(x, a, b)))

// 32-bit integers: v[c] = v[c] op v[c+1 mod 8] from the previous round's values,
// in unsigned arithmetic so that overflow wraps as it does in Rust.
#define MIX_NEIGHBOURS(COMBINE)                                                 \
    {                                                                           \
        unsigned first = (unsigned)v[0];                                        \
        _Pragma("unroll") for (unsigned c = 0; c + 1 < THROUGHPUT_CHAINS; c++)  \
        {                                                                       \
            unsigned x = (unsigned)v[c], y = (unsigned)v[c + 1];                \
            v[c] = (int)(COMBINE);                                              \
        }                                                                       \
        {                                                                       \
            unsigned x = (unsigned)v[THROUGHPUT_CHAINS - 1], y = first;         \
            v[THROUGHPUT_CHAINS - 1] = (int)(COMBINE);                          \
        }                                                                       \
    }
#define I32_SEED (int)((unsigned)start + k * (unsigned)step)
CHAIN_KERNEL(i32_add_throughput, int, I32_SEED, MIX_NEIGHBOURS(x + y))
CHAIN_KERNEL(i32_mul_throughput, int, I32_SEED | 1, MIX_NEIGHBOURS(x * y))
CHAIN_KERNEL(i32_mad_throughput, int, I32_SEED | 1, MIX_NEIGHBOURS(x * y + (unsigned)a))

// C's short and char arithmetic: the operands promoted to int, the result
// converted back (Best Practices Guide §5.1.3), and the 24-bit multiply.
CHAIN_KERNEL(i16_mad_throughput, int, I32_SEED | 1, MIX_NEIGHBOURS((short)((short)x * (short)y + (short)a)))
CHAIN_KERNEL(i8_mad_throughput, int, I32_SEED | 1,
             MIX_NEIGHBOURS((signed char)((signed char)x * (signed char)y + (signed char)a)))
CHAIN_KERNEL(mul24_throughput, int, I32_SEED | 1, MIX_NEIGHBOURS(__mul24((int)x, (int)y)))

// The block-wide barrier (OpenCL guide §3.1.1.4): one __syncthreads() per
// chain per round, each followed by the chain's wrapping v + a.
CHAIN_KERNEL(bar_sync_throughput, int, I32_SEED, EACH_CHAIN((__syncthreads(), (int)((unsigned)x + (unsigned)a))))

// Division and modulo by a run-time divisor, and their power-of-two forms.
// A divisor of 0 divides by 1, as in the Rust kernels.
#define U32_SEED start + k * step
CHAIN_KERNEL(u32_div_throughput, unsigned, U32_SEED, unsigned d = a ? a : 1u; EACH_CHAIN(x / d + b))
CHAIN_KERNEL(u32_rem_throughput, unsigned, U32_SEED, unsigned d = a ? a : 1u; EACH_CHAIN(x % d + b))
CHAIN_KERNEL(u32_shift_throughput, unsigned, U32_SEED, EACH_CHAIN((x >> a) + b))
CHAIN_KERNEL(u32_mask_throughput, unsigned, U32_SEED, unsigned mask = (1u << a) - 1u; EACH_CHAIN((x & mask) + b))

// Reciprocal, division, reciprocal square root.
CHAIN_KERNEL(rcp_approx_throughput, float, F32_SEED, EACH_CHAIN(ptx_rcp_approx(x)))
CHAIN_KERNEL(rcp_rn_throughput, float, F32_SEED, EACH_CHAIN(__frcp_rn(x)))
CHAIN_KERNEL(div_rn_throughput, float, F32_SEED, EACH_CHAIN(a / x))
CHAIN_KERNEL(div_approx_throughput, float, F32_SEED, EACH_CHAIN(ptx_div_approx(a, x)))
CHAIN_KERNEL(rsqrt_approx_throughput, float, F32_SEED, EACH_CHAIN(ptx_rsqrt_approx(x)))
// Best Practices Guide §5.1.2: 1.0f / sqrtf(x) stays two IEEE operations under
// NVRTC's default -prec-sqrt=true -prec-div=true.
CHAIN_KERNEL(recip_sqrt_rn_throughput, float, F32_SEED, EACH_CHAIN(1.0f / sqrtf(x)))

// Transcendentals: v = f(v) + b.
CHAIN_KERNEL(sin_approx_throughput, float, F32_SEED, EACH_CHAIN(__sinf(x) + b))
CHAIN_KERNEL(cos_approx_throughput, float, F32_SEED, EACH_CHAIN(__cosf(x) + b))
CHAIN_KERNEL(ex2_approx_throughput, float, F32_SEED, EACH_CHAIN(ptx_ex2_approx(x) + b))
CHAIN_KERNEL(lg2_approx_throughput, float, F32_SEED, EACH_CHAIN(ptx_lg2_approx(x) + b))
CHAIN_KERNEL(exp_fast_throughput, float, F32_SEED, EACH_CHAIN(__expf(x) + b))
CHAIN_KERNEL(sin_throughput, float, F32_SEED, EACH_CHAIN(sinf(x) + b))
CHAIN_KERNEL(exp_accurate_throughput, float, F32_SEED, EACH_CHAIN(expf(x) + b))
CHAIN_KERNEL(exp_throughput, float, F32_SEED, EACH_CHAIN(expf(x) + b))

// Best Practices Guide §7.2.3: the same multiply by 1.02, once with a float
// constant and once with C's default double constant, which silently promotes
// x to double, multiplies in double and truncates back to float.
CHAIN_KERNEL(f32_literal_mul_throughput, float, F32_SEED, EACH_CHAIN((x * 1.02f) * a))
CHAIN_KERNEL(f64_promoted_mul_throughput, float, F32_SEED, EACH_CHAIN((float)(x * 1.02) * a))
