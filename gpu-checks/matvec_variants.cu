// Issue #29 goal 3: which matrix-vector kernel is clearly ahead of cuBLAS SGEMV at both of the matvec
// experiment's shapes (height x width, M row-major, w = M.v): 60989 x 1100 and 12800 x 8192? The suite's
// matvec_warp_per_row (one warp per row, 256-thread blocks, ceil(height / 8) blocks) is ahead at
// 60989 x 1100 on an H100 but trades places with SGEMV at 12800 x 8192. Its 34 registers (Rust build; 38
// for the CUDA C twin under nvcc 13) leave 6 blocks = 48 warps per SM: 132 x 48 = 6336 resident warps,
// so 12800 rows are 2.02 rounds, the third 128 rows (16 blocks, 4 MB of M) read by 128 warps alone.
// This program times, on the same data, the suite's kernel (V0, its CUDA C twin verbatim) beside variants
// that change one thing each: launch bounds for 64 warps per SM (V0L: 1.52 rounds), the block size (V1,
// V2), the loads in flight (V3), warps per row (V4, V5, V5b, V5bL), the cache operator of M's loads (V6,
// V6c, V6p), an L2 bulk prefetch ahead of the loads (V9a, V9b), a persistent grid (V7, the suite's older
// design), an even split of M's float4s over one wave of warps (V8, V8b, V8L: every warp the same bytes,
// whatever the rows), then cuBLAS SGEMV and the copy ceiling (a float4 copy of M's bytes). Each result is
// checked per row against an f64 CPU reference within the suite's bound (gamma_width + u) * sum|m.v|.
// Columns: regs and w/SM (resident warps per SM) from the runtime; rnds = the kernel's work items (rows or
// row pieces, one per warp) over the GPU's resident warps; rep = launches per sample.
// Byte counting as host/experiments/matvec.rs: a product moves (width x height + width + height) x 4
// bytes; the copy ceiling 2 x 4 bytes per element of M (read + write). GB = 1e9 bytes.
// Timing: one warm-up, then 9 samples of `reps` launches back to back between CUDA events (reps so that
// a sample lasts >= 5 ms), the variants' samples taken round-robin so that clock drift hits all alike.
// Build and run on one GPU (about 10 s):
//   nvcc -O3 -arch=sm_90 -o /tmp/mv gpu-checks/matvec_variants.cu -lcublas && /tmp/mv
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cublas_v2.h>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

#define CHECK_CUBLAS(call)                                                                       \
    do {                                                                                         \
        cublasStatus_t s_ = (call);                                                              \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                       \
            fprintf(stderr, "%s:%d %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

// ---------------------------------------------------------------------------------------------------
// V0: host/cuda_c/matrix_vector.cu's matvec_warp_per_row and its warp_sum, verbatim.

__device__ __forceinline__ float warp_sum(float value)
{
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

__device__ __forceinline__ void warp_per_row_body(const float *m, unsigned int width, unsigned int height,
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

extern "C" __global__ void matvec_warp_per_row(const float *m, unsigned int width, unsigned int height,
                                               const float *v, float *w)
{
    warp_per_row_body(m, width, height, v, w);
}

// V0L: the same body under __launch_bounds__(256, 8): 32 registers, 64 warps per SM (V0 takes 38 here
// and the Rust build 34 on an H100, both 48 warps per SM: 6336 resident warps, 12800 rows = 2.02 rounds).
extern "C" __global__ void __launch_bounds__(256, 8)
    matvec_warp_per_row_bounded(const float *m, unsigned int width, unsigned int height, const float *v, float *w)
{
    warp_per_row_body(m, width, height, v, w);
}

// ---------------------------------------------------------------------------------------------------
// The variants' pieces. Every variant below needs width % 4 == 0 (both shapes have it; main checks).

// How M's float4s are loaded: PLAIN as V0 (ld.global, v the same); the others load v through __ldg.
enum Load { PLAIN = 0, STREAMING = 1, NO_ALLOCATE = 2, NO_ALLOCATE_L2_256 = 3 };

template <int LOAD>
__device__ __forceinline__ float4 load_m(const float4 *p)
{
    float4 r;
    if (LOAD == STREAMING) {
        r = __ldcs(p);  // ld.global.cs: evict-first
    } else if (LOAD == NO_ALLOCATE) {
        asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
            : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
            : "l"(p));
    } else if (LOAD == NO_ALLOCATE_L2_256) {
        asm("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
            : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
            : "l"(p));
    } else {
        r = *p;
    }
    return r;
}

template <int LOAD>
__device__ __forceinline__ float4 load_v(const float4 *p)
{
    if (LOAD == PLAIN)
        return *p;
    return __ldg(p);
}

// sum + a . b, one FMA per lane in order x, y, z, w (as the suite's kernels).
__device__ __forceinline__ float dot4(float4 a, float4 b, float sum)
{
    return fmaf(a.w, b.w, fmaf(a.z, b.z, fmaf(a.y, b.y, fmaf(a.x, b.x, sum))));
}

// One thread's running sum over float4s x, x + stride, ... < end of a row (`row` points at the row's
// float4 0, `v4` at v's), UNROLL loads of M in flight before their FMAs, then the rest one at a time.
template <int UNROLL, int LOAD>
__device__ __forceinline__ float strided_dot(const float4 *row, const float4 *v4, unsigned x, unsigned end,
                                             unsigned stride)
{
    float sum = 0.0f;
    for (; x + (UNROLL - 1) * stride < end; x += UNROLL * stride) {
        float4 a[UNROLL];
#pragma unroll
        for (int k = 0; k < UNROLL; k++)
            a[k] = load_m<LOAD>(row + x + k * stride);
#pragma unroll
        for (int k = 0; k < UNROLL; k++)
            sum = dot4(a[k], load_v<LOAD>(v4 + x + k * stride), sum);
    }
    for (; x < end; x += stride)
        sum = dot4(load_m<LOAD>(row + x), load_v<LOAD>(v4 + x), sum);
    return sum;
}

// V3, V6*: one warp per row as V0 (grid-stride over rows), UNROLL loads in flight, M loaded as LOAD.
template <int UNROLL, int LOAD>
__global__ void warp_rows(const float *m, unsigned width, unsigned height, const float *v, float *w)
{
    const unsigned lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32;
    const unsigned warps = gridDim.x * warps_per_block, n4 = width / 4;
    const float4 *v4 = reinterpret_cast<const float4 *>(v);
    for (unsigned y = blockIdx.x * warps_per_block + threadIdx.x / 32; y < height; y += warps) {
        const float4 *row = reinterpret_cast<const float4 *>(m) + (size_t)y * n4;
        const float sum = warp_sum(strided_dot<UNROLL, LOAD>(row, v4, lane, n4, 32));
        if (lane == 0)
            w[y] = sum;
    }
}

// V9a, V9b: V0's loop (4 float4s of M per lane per step, 2 KB per warp) with lane 0 asking the TMA to
// bring the row's 2 KB chunk DIST steps ahead into L2 (cp.async.bulk.prefetch.L2, sm_90: no registers), so
// that more of M is on its way per warp than the ~3 float4 loads per lane that ptxas keeps in flight (it
// interleaves V0's four loads with their FMAs: see the SASS), which is what a warp has alone in the tail.
__device__ __forceinline__ void prefetch_l2(const float4 *row, unsigned begin, unsigned end)
{
    if (begin < end)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(row + begin), "r"((end - begin) * 16u)
                     : "memory");
}

template <int DIST>
__global__ void warp_rows_prefetch(const float *m, unsigned width, unsigned height, const float *v, float *w)
{
    const unsigned lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32;
    const unsigned warps = gridDim.x * warps_per_block, n4 = width / 4, step = 4 * 32;
    const float4 *v4 = reinterpret_cast<const float4 *>(v);
    for (unsigned y = blockIdx.x * warps_per_block + threadIdx.x / 32; y < height; y += warps) {
        const float4 *row = reinterpret_cast<const float4 *>(m) + (size_t)y * n4;
        if (lane == 0)  // steps 1 .. DIST - 1 now (step 0 is loaded at once), step k + DIST at step k
            prefetch_l2(row, min(n4, step), min(n4, DIST * step));
        float sum = 0.0f;
        unsigned x = lane;
        for (; x + 3 * 32 < n4; x += step) {
            if (lane == 0)  // x is the step's first float4
                prefetch_l2(row, min(n4, x + DIST * step), min(n4, x + (DIST + 1) * step));
            float4 a[4];
#pragma unroll
            for (int k = 0; k < 4; k++)
                a[k] = row[x + k * 32];
#pragma unroll
            for (int k = 0; k < 4; k++)
                sum = dot4(a[k], v4[x + k * 32], sum);
        }
        for (; x < n4; x += 32)
            sum = dot4(row[x], v4[x], sum);
        sum = warp_sum(sum);
        if (lane == 0)
            w[y] = sum;
    }
}

// V4, V5, V5b: PARTS warps per row, warp p of the row reading the row's p-th contiguous piece (pieces of
// ceil(n4 / PARTS) float4s rounded up to 8, i.e. 128 bytes); the block (blockDim.x / 32 / PARTS rows)
// sums each row's pieces through shared memory in piece order. Grid: ceil(height / rows per block).
template <int PARTS>
__device__ __forceinline__ void split_rows_body(const float *m, unsigned width, unsigned height, const float *v,
                                                float *w)
{
    __shared__ float pieces[32];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32, n4 = width / 4;
    const unsigned y = blockIdx.x * (blockDim.x / 32 / PARTS) + warp / PARTS, part = warp % PARTS;
    float sum = 0.0f;
    if (y < height) {
        const unsigned per = ((n4 + PARTS - 1) / PARTS + 7) / 8 * 8;
        const unsigned begin = min(n4, part * per), end = min(n4, begin + per);
        const float4 *row = reinterpret_cast<const float4 *>(m) + (size_t)y * n4;
        sum = warp_sum(strided_dot<4, PLAIN>(row, reinterpret_cast<const float4 *>(v), begin + lane, end, 32));
    }
    if (lane == 0)
        pieces[warp] = sum;
    __syncthreads();
    if (part == 0 && lane == 0 && y < height) {
        float total = pieces[warp];
        for (unsigned p = 1; p < PARTS; p++)
            total += pieces[warp + p];
        w[y] = total;
    }
}

template <int PARTS>
__global__ void split_rows(const float *m, unsigned width, unsigned height, const float *v, float *w)
{
    split_rows_body<PARTS>(m, width, height, v, w);
}

// V5bL: V5b under __launch_bounds__(256, 8) (64 warps per SM).
__global__ void __launch_bounds__(256, 8)
    split_rows8_bounded(const float *m, unsigned width, unsigned height, const float *v, float *w)
{
    split_rows_body<8>(m, width, height, v, w);
}

// V8, V8b: M's n4 x height float4s, flattened, split evenly over the grid's G warps: warp g takes
// [start(g), start(g + 1)), start(g) = floor(total * g / G) rounded down to 8 float4s (128 bytes), so
// that every warp has the same bytes to read whatever the rows. Main picks G with each range at least a
// row long, so a row has at most two pieces, in two neighbouring warps g - 1 and g (boundary g): each
// warp sums each of its rows' pieces; a whole row goes to w directly, a piece to parts[2g + side] (side 0:
// the row's first piece, 1: its second), then the boundary's counter; the second arrival adds the two
// pieces (first + second: the same bits whoever arrives last) into w and resets the counter to 0 for the
// next launch. No spinning, no atomics on w, w need not be zeroed.
template <int UNROLL, int LOAD>
__device__ __forceinline__ void even_split_body(const float *m, unsigned width, unsigned height, const float *v,
                                                float *w, float *parts, unsigned *arrivals)
{
    const unsigned lane = threadIdx.x % 32, warps_per_block = blockDim.x / 32, n4 = width / 4;
    const unsigned g = blockIdx.x * warps_per_block + threadIdx.x / 32, G = gridDim.x * warps_per_block;
    const unsigned long long total = (unsigned long long)n4 * height;
    const unsigned long long start = total * g / G / 8 * 8;
    const unsigned long long stop = g + 1 == G ? total : total * (g + 1) / G / 8 * 8;
    const float4 *m4 = reinterpret_cast<const float4 *>(m), *v4 = reinterpret_cast<const float4 *>(v);
    for (unsigned long long at = start; at < stop;) {
        const unsigned y = (unsigned)(at / n4);
        const unsigned long long row_start = (unsigned long long)y * n4;
        const unsigned begin = (unsigned)(at - row_start);
        const unsigned end = (unsigned)(min(stop, row_start + n4) - row_start);
        const float sum = warp_sum(strided_dot<UNROLL, LOAD>(m4 + row_start, v4, begin + lane, end, 32));
        if (lane == 0) {
            if (begin == 0 && end == n4) {
                w[y] = sum;
            } else {
                const unsigned side = begin == 0 ? 0 : 1;  // first piece: this warp's last row
                const unsigned boundary = side == 0 ? g + 1 : g;
                parts[2 * boundary + side] = sum;
                __threadfence();
                if (atomicAdd(&arrivals[boundary], 1u) == 1u) {
                    __threadfence();
                    w[y] = __ldcg(&parts[2 * boundary]) + __ldcg(&parts[2 * boundary + 1]);
                    arrivals[boundary] = 0;
                }
            }
        }
        at = row_start + end;
    }
}

template <int UNROLL, int LOAD>
__global__ void even_split(const float *m, unsigned width, unsigned height, const float *v, float *w,
                           float *parts, unsigned *arrivals)
{
    even_split_body<UNROLL, LOAD>(m, width, height, v, w, parts, arrivals);
}

// V8L: V8 under __launch_bounds__(256, 8) (64 warps per SM: a wave of 8448 warps on an H100).
__global__ void __launch_bounds__(256, 8)
    even_split_bounded(const float *m, unsigned width, unsigned height, const float *v, float *w, float *parts,
                       unsigned *arrivals)
{
    even_split_body<4, PLAIN>(m, width, height, v, w, parts, arrivals);
}

// The copy ceiling: host/launchers/global_memory's vector_copy (float4 grid-stride copy, 256-thread blocks,
// about one float4 per thread, at most 1024 full waves of blocks).
__global__ void vector_copy(float *out, const float *in, unsigned long long n)
{
    float4 *out4 = reinterpret_cast<float4 *>(out);
    const float4 *in4 = reinterpret_cast<const float4 *>(in);
    const unsigned long long vectors = n / 4;
    const unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = first; i < vectors; i += step)
        out4[i] = in4[i];
    if (first < n % 4)
        out[vectors * 4 + first] = in[vectors * 4 + first];
}

// ---------------------------------------------------------------------------------------------------

struct Variant {
    std::string name;
    std::function<void()> launch;
    unsigned grid, block;
    double units;            // warps' work items (rows, row pieces, even ranges): rounds = units / resident warps
    int regs, warps_per_sm;  // -1: not ours (cuBLAS)
    bool copy;               // the copy ceiling: its own bytes, no check
    int reps;
    std::string error;       // check: "FAIL ..." or the worst relative error
    bool failed;
    std::vector<double> ms;  // per launch, one per sample
};

static int sms;

template <typename K>
static void kernel_info(K kernel, unsigned block, int *regs, int *warps_per_sm)
{
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, kernel));
    int blocks;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, (int)block, 0));
    *regs = attributes.numRegs;
    *warps_per_sm = blocks * (int)block / 32;
}

template <typename K>
static unsigned wave_blocks(K kernel, unsigned block)
{
    int blocks;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, (int)block, 0));
    return (unsigned)(blocks * sms);
}

// A kernel (m, width, height, v, w) launched with `grid` blocks of `block` threads.
template <typename K>
static Variant kernel_variant(const char *name, K kernel, unsigned grid, unsigned block, const float *m,
                              unsigned width, unsigned height, const float *v, float *w, unsigned parts = 1)
{
    Variant out{name, [=] { kernel<<<grid, block>>>(m, width, height, v, w); }, grid, block,
                (double)height * parts, 0, 0, false, 1, "", false, {}};
    kernel_info(kernel, block, &out.regs, &out.warps_per_sm);
    return out;
}

static uint64_t lcg_state;
static float next_value()  // in [-1, 1), exact in f32: k * 2^-23 - 1 for a 24-bit k
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(lcg_state >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

static double dot_error_bound(unsigned k)  // host/reference/dot_error_bound.rs
{
    const double u = std::ldexp(1.0, -24), ku = k * u;
    return ku / std::max(1.0 - ku, 2.220446049250313e-16) + u;
}

static void run_shape(unsigned width, unsigned height, cublasHandle_t cublas)
{
    const size_t elements = (size_t)width * height, n4 = width / 4;
    std::vector<float> m(elements), v(width), got(height);
    lcg_state = 0x5eed0000ull + width;
    for (auto &x : m) x = next_value();
    for (auto &x : v) x = next_value();
    std::vector<double> expected(height), scale(height);
    for (unsigned y = 0; y < height; y++) {
        double s = 0.0, a = 0.0;
        for (unsigned x = 0; x < width; x++) {
            const double p = (double)m[(size_t)y * width + x] * (double)v[x];
            s += p;
            a += std::fabs(p);
        }
        expected[y] = s;
        scale[y] = a;
    }

    float *dm, *dv, *dw, *dcopy, *dparts;
    unsigned *darrivals;
    CHECK(cudaMalloc(&dm, elements * 4));
    CHECK(cudaMalloc(&dcopy, elements * 4));
    CHECK(cudaMalloc(&dv, width * 4));
    CHECK(cudaMalloc(&dw, height * 4));
    CHECK(cudaMemcpy(dm, m.data(), elements * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv, v.data(), width * 4, cudaMemcpyHostToDevice));

    std::vector<Variant> vs;
    auto add = [&](const char *name, auto kernel, unsigned grid, unsigned block, unsigned parts = 1) {
        vs.push_back(kernel_variant(name, kernel, grid, block, dm, width, height, dv, dw, parts));
    };
    const unsigned rows8 = (height + 7) / 8;
    add("V0 suite warp/row, 256 thr", matvec_warp_per_row, rows8, 256);
    add("V0L V0, launch bounds 256,8", matvec_warp_per_row_bounded, rows8, 256);
    add("V1 warp/row, 128 thr", matvec_warp_per_row, (height + 3) / 4, 128);
    add("V2 warp/row, 64 thr", matvec_warp_per_row, (height + 1) / 2, 64);
    add("V3 warp/row, 8 in flight", warp_rows<8, PLAIN>, rows8, 256);
    add("V4 2 warps/row, 256 thr", split_rows<2>, (height + 3) / 4, 256, 2);
    add("V5 4 warps/row, 128 thr", split_rows<4>, height, 128, 4);
    add("V5b 8 warps/row, 256 thr", split_rows<8>, height, 256, 8);
    add("V5bL V5b, launch bounds", split_rows8_bounded, height, 256, 8);
    add("V6 M nc.L1::no_allocate", warp_rows<4, NO_ALLOCATE>, rows8, 256);
    add("V6c M __ldcs", warp_rows<4, STREAMING>, rows8, 256);
    add("V6p M no_allocate.L2::256B", warp_rows<4, NO_ALLOCATE_L2_256>, rows8, 256);
    add("V9a V0 + L2 prefetch 1 step", warp_rows_prefetch<1>, rows8, 256);
    add("V9b V0 + L2 prefetch 2 steps", warp_rows_prefetch<2>, rows8, 256);
    add("V7 V0 on one wave", matvec_warp_per_row, wave_blocks(matvec_warp_per_row, 256), 256);

    // V8, V8b, V8L: one wave of warps, fewer where a warp's range would be shorter than a row (+ 8 for rounding).
    const size_t total4 = n4 * height;
    CHECK(cudaMalloc(&dparts, 2 * ((total4 / (n4 + 8)) + 2) * 4));
    CHECK(cudaMalloc(&darrivals, ((total4 / (n4 + 8)) + 2) * 4));
    CHECK(cudaMemset(darrivals, 0, ((total4 / (n4 + 8)) + 2) * 4));
    auto even = [&](const char *name, auto kernel) {
        const unsigned most_warps = (unsigned)std::min<size_t>(8 * wave_blocks(kernel, 256), total4 / (n4 + 8));
        const unsigned grid = std::max(1u, most_warps / 8);
        Variant out{name, [=] { kernel<<<grid, 256>>>(dm, width, height, dv, dw, dparts, darrivals); }, grid, 256,
                    8.0 * grid, 0, 0, false, 1, "", false, {}};
        kernel_info(kernel, 256, &out.regs, &out.warps_per_sm);
        vs.push_back(out);
    };
    even("V8 even split, one wave", even_split<4, PLAIN>);
    even("V8b even split, 8 in flight", even_split<8, PLAIN>);
    even("V8L V8, launch bounds 256,8", even_split_bounded);

    vs.push_back(Variant{"cuBLAS SGEMV",
                         [=] {
                             const float alpha = 1.0f, beta = 0.0f;
                             CHECK_CUBLAS(cublasSgemv(cublas, CUBLAS_OP_T, (int)width, (int)height, &alpha, dm,
                                                      (int)width, dv, 1, &beta, dw, 1));
                         },
                         0, 0, 0.0, -1, -1, false, 1, "", false, {}});
    {
        const unsigned long long n = elements;
        const unsigned long long cap = (unsigned long long)wave_blocks(vector_copy, 256) * 1024;
        const unsigned grid = (unsigned)std::min<unsigned long long>((n / 4 + 255) / 256, cap);
        Variant out{"copy ceiling (copy of M)", [=] { vector_copy<<<grid, 256>>>(dcopy, dm, n); }, grid, 256,
                    8.0 * grid, 0, 0, true, 1, "", false, {}};
        kernel_info(vector_copy, 256, &out.regs, &out.warps_per_sm);
        vs.push_back(out);
    }

    // Check each (w first filled with NaN: every row must be written), warm up, pick reps.
    const double bound = dot_error_bound(width);
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    auto sample_ms = [&](Variant &x, int reps) {
        CHECK(cudaEventRecord(a));
        for (int r = 0; r < reps; r++) x.launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaGetLastError());
        float t;
        CHECK(cudaEventElapsedTime(&t, a, b));
        return (double)t / reps;
    };
    for (auto &x : vs) {
        if (!x.copy) {
            CHECK(cudaMemset(dw, 0xff, height * 4));
            x.launch();
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(got.data(), dw, height * 4, cudaMemcpyDeviceToHost));
            double worst = 0.0;
            for (unsigned y = 0; y < height && !x.failed; y++) {
                const double err = std::fabs((double)got[y] - expected[y]);
                if (!(err <= bound * scale[y] + 1e-30)) {
                    char text[96];
                    snprintf(text, sizeof text, "FAIL row %u: %g, not %g", y, got[y], expected[y]);
                    x.error = text;
                    x.failed = true;
                }
                worst = std::max(worst, err / std::max(scale[y], 1e-30));
            }
            if (!x.failed) {
                char text[32];
                snprintf(text, sizeof text, "%.1e", worst);
                x.error = text;
            }
        }
        x.launch();  // warm-up
        CHECK(cudaDeviceSynchronize());
        x.reps = std::max(1, (int)std::ceil(5.0 / sample_ms(x, 3)));
    }
    for (int s = 0; s < 9; s++)
        for (auto &x : vs)
            x.ms.push_back(sample_ms(x, x.reps));

    const double product_bytes = 4.0 * ((double)elements + width + height), copy_bytes = 8.0 * (double)elements;
    auto gbps = [&](const Variant &x, double ms) { return (x.copy ? copy_bytes : product_bytes) / (ms * 1e-3) / 1e9; };
    auto median_gbps = [&](const Variant &x) {
        std::vector<double> t = x.ms;
        std::sort(t.begin(), t.end());
        return gbps(x, t[t.size() / 2]);
    };
    double sgemv = 0.0, copy = 0.0;
    for (auto &x : vs) {
        if (x.name == "cuBLAS SGEMV" && !x.failed) sgemv = median_gbps(x);
        if (x.copy) copy = median_gbps(x);
    }
    printf("\n%u x %u (height x width): product %.1f MB, copy %.1f MB; GB/s min / median / max of 9 samples; "
           "err: max |w - ref| / sum|m.v| (bound %.1e)\n",
           height, width, product_bytes / 1e6, copy_bytes / 1e6, bound);
    printf("%-28s %12s %4s %4s %5s %3s %7s %7s %7s %6s %6s %s\n", "variant", "grid x block", "regs", "w/SM", "rnds",
           "rep", "min", "median", "max", "/sgemv", "/copy", "err");
    for (auto &x : vs) {
        char shape[32] = "-", regs[8] = "-", warps[8] = "-", rounds[16] = "-";
        if (x.regs >= 0) {
            snprintf(shape, sizeof shape, "%ux%u", x.grid, x.block);
            snprintf(regs, sizeof regs, "%d", x.regs);
            snprintf(warps, sizeof warps, "%d", x.warps_per_sm);
            if (!x.copy && x.warps_per_sm > 0)
                snprintf(rounds, sizeof rounds, "%.2f", x.units / ((double)x.warps_per_sm * sms));
        }
        if (x.failed) {
            printf("%-28s %12s %4s %4s %5s %3d %s\n", x.name.c_str(), shape, regs, warps, rounds, x.reps,
                   x.error.c_str());
            continue;
        }
        const auto fastest = *std::min_element(x.ms.begin(), x.ms.end());
        const auto slowest = *std::max_element(x.ms.begin(), x.ms.end());
        const double med = median_gbps(x);
        printf("%-28s %12s %4s %4s %5s %3d %7.1f %7.1f %7.1f %6.3f %6.3f %s\n", x.name.c_str(), shape, regs, warps,
               rounds, x.reps, gbps(x, slowest), med, gbps(x, fastest), sgemv > 0 ? med / sgemv : 0.0,
               copy > 0 ? med / copy : 0.0, x.copy ? "-" : x.error.c_str());
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    CHECK(cudaFree(dm));
    CHECK(cudaFree(dcopy));
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dw));
    CHECK(cudaFree(dparts));
    CHECK(cudaFree(darrivals));
}

int main()
{
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs, %d MiB L2\n", prop.name, sms, prop.l2CacheSize >> 20);
    cublasHandle_t cublas;
    CHECK_CUBLAS(cublasCreate(&cublas));
    // host/experiments/matvec.rs: (width, height) = (1100, 60989), the whitepaper's, and (8192, buffer /
    // (8192 x 4)) = 12800 on an H100 (400 MiB: 8 x its 50 MiB L2).
    const unsigned shapes[2][2] = {{1100, 60989}, {8192, 12800}};
    for (auto &shape : shapes) {
        if (shape[0] % 4 != 0) {
            fprintf(stderr, "width %u: the variants need width %% 4 == 0\n", shape[0]);
            return 1;
        }
        run_shape(shape[0], shape[1], cublas);
    }
    CHECK_CUBLAS(cublasDestroy(cublas));
    return 0;
}
