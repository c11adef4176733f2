// CUDA C twins of ptxsuite's loop-counter kernels (kernels-gpu/src/loop_counters/):
// the Best Practices Guide's §6.3 loop, out[i] = in[offset + stride*i], on
// column t of each thread (out + t, in + offset + t).

// int: signed overflow is undefined, so the compiler may widen and strength-reduce.
extern "C" __global__ void loop_counter_i32(float *out, const float *inp, int n, int offset, int stride)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < n; i++) {
        out[t + stride * i] = inp[offset + t + stride * i];
    }
}

// unsigned: overflow wraps, so each index is computed in 32 bits and extended.
extern "C" __global__ void loop_counter_u32(float *out, const float *inp, unsigned n, unsigned offset, unsigned stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned i = 0; i < n; i++) {
        out[t + stride * i] = inp[offset + t + stride * i];
    }
}

// unsigned long long (size_t): pointer-sized indices, as Rust's usize.
extern "C" __global__ void loop_counter_usize(float *out, const float *inp, unsigned long long n, unsigned long long offset, unsigned long long stride)
{
    unsigned long long t = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned long long i = 0; i < n; i++) {
        out[t + stride * i] = inp[offset + t + stride * i];
    }
}

// The Rust kernel with unchecked (overflow-is-undefined) i32 arithmetic is C's
// int loop: the same code as loop_counter_i32.
extern "C" __global__ void loop_counter_i32_unchecked(float *out, const float *inp, int n, int offset, int stride)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < n; i++) {
        out[t + stride * i] = inp[offset + t + stride * i];
    }
}
