// CUDA C twins of ptxsuite's math-library pairs
// (kernels-gpu/src/instruction_throughput/math_functions.rs), Best Practices
// Guide §5.1.2-5.1.4: each recommended call beside the one it replaces, with
// CUDA's own functions (powf, exp2f, exp10f, cbrtf, sinpif, sinf, cosf,
// sincosf). Appended to instruction_throughput.cu (its CHAIN_KERNEL,
// EACH_CHAIN and F32_SEED); the suite compiles the pair twice, as the twins
// and once more with -use_fast_math, which turns powf, exp10f, sinf, cosf
// and sincosf into their __ intrinsics and flushes subnormals.

CHAIN_KERNEL(cube_mul_throughput, float, F32_SEED, EACH_CHAIN(a * (x * x * x) + b))
CHAIN_KERNEL(pow_cube_throughput, float, F32_SEED, EACH_CHAIN(a * powf(x, 3.0f) + b))
CHAIN_KERNEL(exp2_throughput, float, F32_SEED, EACH_CHAIN(exp2f(x) + b))
CHAIN_KERNEL(pow2_throughput, float, F32_SEED, EACH_CHAIN(powf(2.0f, x) + b))
CHAIN_KERNEL(exp10_throughput, float, F32_SEED, EACH_CHAIN(exp10f(x) + b))
CHAIN_KERNEL(pow10_throughput, float, F32_SEED, EACH_CHAIN(powf(10.0f, x) + b))
CHAIN_KERNEL(cbrt_throughput, float, F32_SEED, EACH_CHAIN(cbrtf(x) + b))
CHAIN_KERNEL(pow_third_throughput, float, F32_SEED, EACH_CHAIN(powf(x, 1.0f / 3.0f) + b))
CHAIN_KERNEL(sinpi_throughput, float, F32_SEED, EACH_CHAIN(a * sinpif(x) + b))
CHAIN_KERNEL(sin_pi_x_throughput, float, F32_SEED, EACH_CHAIN(a * sinf(3.14159265f * x) + b))

static __device__ __forceinline__ float sin_plus_cos_one_call(float x)
{
    float s, c;
    sincosf(x, &s, &c);
    return s + c;
}

CHAIN_KERNEL(sincos_throughput, float, F32_SEED, EACH_CHAIN(a * sin_plus_cos_one_call(x) + b))
CHAIN_KERNEL(sin_cos_throughput, float, F32_SEED, EACH_CHAIN(a * (sinf(x) + cosf(x)) + b))
