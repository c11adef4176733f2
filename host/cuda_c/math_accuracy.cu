// CUDA C twin of ptxsuite's accuracy kernel (kernels-gpu/src/math_accuracy/):
// out[i] = f(inp[i]) for the function numbered `function` (the Rust enum
// MathFunction's discriminants). The fast approximations are the same PTX
// instructions as the Rust ones; Sin is CUDA's own sinf, ExpAccurate and
// Exp both CUDA's expf (the Rust side has two exponentials: the tighter
// exp_accurate and exp), so their errors are NVIDIA's, for comparison; so
// are Exp2, Exp10, Cbrt, Cos and Sinpi (exp2f, exp10f, cbrtf, cosf, sinpif).

extern "C" __global__ void math_function_values(float *out, const float *inp, unsigned n, unsigned function)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = inp[i];
        float y;
        switch (function) {
        case 0: y = __sinf(x); break;
        case 1: y = __cosf(x); break;
        case 2: asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
        case 3: asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
        case 4: asm("rcp.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
        case 5: asm("rsqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
        case 6: y = __expf(x); break;
        case 7: y = sinf(x); break;
        case 8: y = expf(x); break;
        case 9: y = expf(x); break;
        case 10: y = exp2f(x); break;
        case 11: y = exp10f(x); break;
        case 12: y = cbrtf(x); break;
        case 13: y = cosf(x); break;
        case 14: y = sinpif(x); break;
        default: y = __int_as_float(0x7fc00000); break;
        }
        out[i] = y;
    }
}
