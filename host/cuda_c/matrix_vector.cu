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

// Warps that share a row in matvec_warp_per_row: the largest of 8, 4, 2 whose pieces hold at least 256
// float4s (4 KB), else 1; 1 when width % 4 != 0. As kernels-gpu's warps_per_row
// (kernels-gpu/src/matrix_vector/warp_per_row.rs), which the launcher sizes the grid with.
__device__ __forceinline__ unsigned int warps_per_row(unsigned int width)
{
    if (width % 4 != 0)
        return 1;
    unsigned int warps = 8;
    while (warps > 1 && (width / 4) / warps < 256)
        warps /= 2;
    return warps;
}

// warps_per_row, halved until it divides the block's warps (the suite's 8 take it as it is); as block_row_parts.
__device__ __forceinline__ unsigned int block_row_parts(unsigned int width, unsigned int block_warps)
{
    unsigned int parts = warps_per_row(width);
    while (parts > 1 && block_warps % parts != 0)
        parts /= 2;
    return parts;
}

// One lane's sum over float4s x, x + 32, ... < end of a row or a piece of one (m4 and v4 at its float4 0):
// four loads of M in flight, then the rest one at a time; FMAs in column order, x, y, z, w (as the Rust
// float4_dot).
__device__ __forceinline__ float float4_dot(const float4 *m4, const float4 *v4, unsigned int x, unsigned int end)
{
    float sum = 0.0f;
    for (; x + 3 * 32 < end; x += 4 * 32) {  // four loads of M in flight per lane
        float4 a[4];
        for (int k = 0; k < 4; k++)
            a[k] = m4[x + k * 32];
        for (int k = 0; k < 4; k++) {
            float4 b = v4[x + k * 32];
            sum = fmaf(a[k].w, b.w, fmaf(a[k].z, b.z, fmaf(a[k].y, b.y, fmaf(a[k].x, b.x, sum))));
        }
    }
    for (; x < end; x += 32) {
        float4 a = m4[x], b = v4[x];
        sum = fmaf(a.w, b.w, fmaf(a.z, b.z, fmaf(a.y, b.y, fmaf(a.x, b.x, sum))));
    }
    return sum;
}

// Beyond the whitepaper: a warp per row (warps_per_row warps per wide row, each a contiguous piece of
// ceil(n4 / parts) float4s rounded up to 8), float4 loads, shuffle reduction. With one warp per row: no
// shared memory, no barrier. With several: the pieces' sums go through shared memory (blockDim.x / 32
// floats) and lane 0 of the row's first warp adds them in piece order, between two barriers; the loop over
// the block's groups of rows is the same for every warp of the block. As the Rust kernel, bit for bit.
extern "C" __global__ void matvec_warp_per_row(const float *m, unsigned int width, unsigned int height,
                                               const float *v, float *w)
{
    extern __shared__ float pieces[];
    unsigned int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32;
    unsigned int parts = block_row_parts(width, warps_per_block);
    const float4 *v4 = reinterpret_cast<const float4 *>(v);
    if (parts == 1) {
        unsigned int warps = gridDim.x * warps_per_block;
        for (unsigned int y = blockIdx.x * warps_per_block + warp; y < height; y += warps) {
            long long row = (long long)y * width;
            float sum = 0.0f;
            if (width % 4 == 0) {
                sum = float4_dot(reinterpret_cast<const float4 *>(m) + row / 4, v4, lane, width / 4);
            } else {
                for (unsigned int x = lane; x < width; x += 32)
                    sum = fmaf(m[row + x], v[x], sum);
            }
            sum = warp_sum(sum);
            if (lane == 0)
                w[y] = sum;
        }
        return;
    }
    // parts > 1 only where width % 4 == 0: float4 pieces.
    unsigned int rows_per_block = warps_per_block / parts, part = warp % parts, n4 = width / 4;
    unsigned int per = ((n4 + parts - 1) / parts + 7) / 8 * 8;
    unsigned int begin = min(n4, part * per), end = min(n4, begin + per);
    for (unsigned int first = blockIdx.x * rows_per_block; first < height; first += gridDim.x * rows_per_block) {
        unsigned int y = first + warp / parts;
        float sum = 0.0f;
        if (y < height) {
            // Pointers at the piece, indices from 0 (not x from begin + lane to end): 34 registers on sm_90
            // instead of 44, which would leave 40 warps per SM instead of 48 at one warp per row.
            const float4 *row4 = reinterpret_cast<const float4 *>(m) + (long long)y * n4 + begin;
            sum = warp_sum(float4_dot(row4, v4 + begin, lane, end - begin));
        }
        if (lane == 0)
            pieces[warp] = sum;
        __syncthreads();
        if (lane == 0 && part == 0 && y < height) {
            float total = pieces[warp];
            for (unsigned int p = 1; p < parts; p++)
                total += pieces[warp + p];
            w[y] = total;
        }
        __syncthreads();
    }
}
