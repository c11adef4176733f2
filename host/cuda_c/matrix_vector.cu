// CUDA C twins of ptxsuite's matrix-vector kernels (kernels-gpu/src/matrix_vector/):
// the OpenCL whitepaper's Listings 2-7 in CUDA C, with the same fixes as the
// Rust versions (row guard in Listing 2, 64-bit row offsets, shuffles instead
// of warp-synchronous shared memory in Listing 7).

// Row y's whole dot product by one thread (Listings 2 and 3), as the Rust
// row_dot: 8 elements (one 32-byte sector) loaded first, then their FMAs in
// column order; the sum equals the plain loop's bit for bit.
__device__ __forceinline__ float row_dot(const float *m, unsigned int width, unsigned int y, const float *v)
{
    const float *row = m + (long long)y * width;
    float dot = 0.0f;
    unsigned int x = 0;
#pragma unroll 1 // one chunk per iteration, as rustc leaves the Rust loop
    for (; x + 8 <= width; x += 8) {
        float row_part[8], v_part[8];
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            row_part[k] = row[x + k];
            v_part[k] = v[x + k];
        }
#pragma unroll
        for (int k = 0; k < 8; ++k)
            dot = fmaf(row_part[k], v_part[k], dot);
    }
    for (; x < width; ++x)
        dot = fmaf(row[x], v[x], dot);
    return dot;
}

__device__ __forceinline__ float strided_partial_dot(const float *m, unsigned int width, unsigned int y, const float *v)
{
    const float *row = m + (long long)y * width;
    float sum = 0.0f;
    for (unsigned int x = threadIdx.x; x < width; x += blockDim.x)
        sum += row[x] * v[x];
    return sum;
}

// Listing 2 (with the missing y < height guard).
extern "C" __global__ void matvec_row_per_thread(const float *m, unsigned int width, unsigned int height,
                                                 const float *v, float *w)
{
    unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= height) return;
    w[y] = row_dot(m, width, y, v);
}

// Listing 3.
extern "C" __global__ void matvec_grid_stride_rows(const float *m, unsigned int width, unsigned int height,
                                                   const float *v, float *w)
{
    for (unsigned int y = blockIdx.x * blockDim.x + threadIdx.x; y < height; y += gridDim.x * blockDim.x) {
        w[y] = row_dot(m, width, y, v);
    }
}

// Listing 4.
extern "C" __global__ void matvec_block_serial_sum(const float *m, unsigned int width, unsigned int height,
                                                   const float *v, float *w)
{
    extern __shared__ float partial[];
    for (unsigned int y = blockIdx.x; y < height; y += gridDim.x) {
        partial[threadIdx.x] = strided_partial_dot(m, width, y, v);
        __syncthreads();
        if (threadIdx.x == 0) {
            float dot = 0.0f;
            for (unsigned int t = 0; t < blockDim.x; ++t)
                dot += partial[t];
            w[y] = dot;
        }
        __syncthreads();
    }
}

// Listing 5: interleaved addressing.
extern "C" __global__ void matvec_tree_interleaved(const float *m, unsigned int width, unsigned int height,
                                                   const float *v, float *w)
{
    extern __shared__ float partial[];
    for (unsigned int y = blockIdx.x; y < height; y += gridDim.x) {
        partial[threadIdx.x] = strided_partial_dot(m, width, y, v);
        for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
            __syncthreads();
            unsigned int index = 2 * stride * threadIdx.x;
            if (index < blockDim.x)
                partial[index] += partial[index + stride];
        }
        if (threadIdx.x == 0)
            w[y] = partial[0];
        __syncthreads();
    }
}

// Listing 6: sequential addressing.
extern "C" __global__ void matvec_tree_sequential(const float *m, unsigned int width, unsigned int height,
                                                  const float *v, float *w)
{
    extern __shared__ float partial[];
    for (unsigned int y = blockIdx.x; y < height; y += gridDim.x) {
        partial[threadIdx.x] = strided_partial_dot(m, width, y, v);
        for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
            __syncthreads();
            if (threadIdx.x < stride)
                partial[threadIdx.x] += partial[threadIdx.x + stride];
        }
        if (threadIdx.x == 0)
            w[y] = partial[0];
        __syncthreads();
    }
}

__device__ __forceinline__ float warp_sum(float value)
{
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Listing 7, modern form: warp shuffles.
extern "C" __global__ void matvec_warp_shuffle(const float *m, unsigned int width, unsigned int height,
                                               const float *v, float *w)
{
    extern __shared__ float warp_sums[];
    unsigned int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (unsigned int y = blockIdx.x; y < height; y += gridDim.x) {
        float sum = warp_sum(strided_partial_dot(m, width, y, v));
        if (lane == 0)
            warp_sums[warp] = sum;
        __syncthreads();
        if (warp == 0) {
            float total = warp_sum(threadIdx.x < warps ? warp_sums[threadIdx.x] : 0.0f);
            if (threadIdx.x == 0)
                w[y] = total;
        }
        __syncthreads();
    }
}

// Beyond the whitepaper: one warp per row, float4 loads, shuffle reduction.
extern "C" __global__ void matvec_warp_per_row(const float *m, unsigned int width, unsigned int height,
                                               const float *v, float *w)
{
    unsigned int lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32;
    unsigned int warps = gridDim.x * warps_per_block;
    bool vectorized = width % 4 == 0;
    for (unsigned int y = blockIdx.x * warps_per_block + threadIdx.x / 32; y < height; y += warps) {
        long long row = (long long)y * width;
        float sum = 0.0f;
        if (vectorized) {
            const float4 *m4 = reinterpret_cast<const float4 *>(m) + row / 4;
            const float4 *v4 = reinterpret_cast<const float4 *>(v);
            unsigned int x = lane, n4 = width / 4;
            for (; x + 3 * 32 < n4; x += 4 * 32) {  // four loads of M in flight per lane
                float4 a[4];
                for (int k = 0; k < 4; k++)
                    a[k] = m4[x + k * 32];
                for (int k = 0; k < 4; k++) {
                    float4 b = v4[x + k * 32];
                    sum = fmaf(a[k].w, b.w, fmaf(a[k].z, b.z, fmaf(a[k].y, b.y, fmaf(a[k].x, b.x, sum))));
                }
            }
            for (; x < n4; x += 32) {
                float4 a = m4[x], b = v4[x];
                sum = fmaf(a.w, b.w, fmaf(a.z, b.z, fmaf(a.y, b.y, fmaf(a.x, b.x, sum))));
            }
        } else {
            for (unsigned int x = lane; x < width; x += 32)
                sum = fmaf(m[row + x], v[x], sum);
        }
        sum = warp_sum(sum);
        if (lane == 0)
            w[y] = sum;
    }
}
