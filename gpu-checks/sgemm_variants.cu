// Issue #29 goal 1: what would take the register-blocked SGEMM to >= 0.90 of cuBLAS at every size?
// cuBLAS (FP32, no tensor cores) runs sm80_xmma_gemm_f32f32_..._tilesize128x64x8_stage3_..._ffma at 1024^3 on an
// H100: 128 threads of 224 registers, three shared-memory stages filled by cp.async (sm_80), one block per SM.
// The suite's kernels stage through registers into two stages (sm_75 PTX has no cp.async).
// This program times, on the same data and in the same run, the suite's CUDA C twins (RB: the register-blocked
// body of host/cuda_c/sgemm.cu, included, under the launch bounds the host gives them) beside cp.async
// kernels (CPA<BM, BN, THREADS, STAGES, MIN_BLOCKS>: BK = 8, 8 x 8 outputs a thread as two strips of 4 each
// way half a tile apart, A transposed into shared memory by 4-byte cp.async, B by 16-byte cp.async, STAGES
// shared stages, one barrier per k tile), then cuBLAS SGEMM. Every result is checked against cuBLAS's C
// (max |diff| / (k * max|a| * max|b| * 2^-23 * 2) must stay below 1) and at 64 elements against an f64 CPU
// reference. Only whole tiles (m, n, k multiples of 128 and 8): 1024, 2048, 4096, 8192.
// Timing: one warm-up launch, then 7 samples of `reps` launches between CUDA events (a sample >= 20 ms), the
// variants' samples round-robin. TFLOP/s = 2 m n k / time / 1e12 (median; min-max).
// Build and run on one GPU (about 60 s):
//   nvcc -O3 -arch=sm_90 -o /tmp/sv gpu-checks/sgemm_variants.cu -lcublas && /tmp/sv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cublas_v2.h>

#include "../host/cuda_c/sgemm.cu"

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

// The suite's twins under their launch bounds (kernels-gpu/src/launch_bounds.rs: 256 threads, 2 blocks/SM).
template <typename T, int MINB>
__global__ void __launch_bounds__(256, MINB) rb(const float *a, const float *b, float *c, unsigned m, unsigned n,
                                                unsigned k)
{
    register_blocked_tiles<float, T, WHOLE_TILES>(a, b, c, m, n, k);
}

__device__ __forceinline__ void cp_async4(float *shared, const float *global)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(shared);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(global));
}
__device__ __forceinline__ void cp_async16(float *shared, const float *global)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(shared);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(global));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// cp.async pipeline: block tile BM x BN, BK = 8, THREADS threads of 8 x 8 outputs each.
template <int BM, int BN, int THREADS, int STAGES, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) cpa(const float *__restrict__ a, const float *__restrict__ b,
                                                     float *__restrict__ c, unsigned m, unsigned n, unsigned k)
{
    constexpr int BK = 8, AP = BM + 4, A_T = BK * AP, STAGE = A_T + BK * BN;
    constexpr int A_LOADS = BM * BK / THREADS, B_LOADS = BK * BN / 4 / THREADS;
    constexpr int TCOLS = BN / 8;
    static_assert((BM / 8) * (BN / 8) == THREADS && A_LOADS >= 1 && B_LOADS >= 1, "shape");
    extern __shared__ float4 smem4[];
    float *smem = reinterpret_cast<float *>(smem4);
    const int tid = threadIdx.x;
    const float *a_block = a + (size_t)blockIdx.y * BM * k;
    const float *b_block = b + (size_t)blockIdx.x * BN;
    const int tiles = k / BK;
    auto load = [&](int stage, int tile) {
        float *s = smem + stage * STAGE;
#pragma unroll
        for (int i = 0; i < A_LOADS; ++i) {
            int e = tid + i * THREADS, row = e / BK, kk = e % BK;
            cp_async4(s + kk * AP + row, a_block + (size_t)row * k + tile * BK + kk);
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; ++i) {
            int e = tid + i * THREADS, kk = e / (BN / 4), col = e % (BN / 4) * 4;
            cp_async16(s + A_T + kk * BN + col, b_block + (size_t)(tile * BK + kk) * n + col);
        }
    };
    const int tx = tid % TCOLS, ty = tid / TCOLS;
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles)
            load(s, s);
        cp_async_commit();
    }
    for (int tile = 0; tile < tiles; ++tile) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        int next = tile + STAGES - 1;
        if (next < tiles)
            load(next % STAGES, next);
        cp_async_commit();
        const float *s = smem + (tile % STAGES) * STAGE;
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float4 a0 = *reinterpret_cast<const float4 *>(s + kk * AP + 4 * ty);
            float4 a1 = *reinterpret_cast<const float4 *>(s + kk * AP + 4 * ty + BM / 2);
            float4 b0 = *reinterpret_cast<const float4 *>(s + A_T + kk * BN + 4 * tx);
            float4 b1 = *reinterpret_cast<const float4 *>(s + A_T + kk * BN + 4 * tx + BN / 2);
            float af[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float bf[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] = fmaf(af[i], bf[j], acc[i][j]);
        }
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        size_t row = (size_t)blockIdx.y * BM + 4 * ty + i % 4 + (i / 4) * (BM / 2);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            size_t col = (size_t)blockIdx.x * BN + 4 * tx + h * (BN / 2);
            *reinterpret_cast<float4 *>(c + row * n + col) =
                make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
        }
    }
}


// RBX: the suite's register-blocked design (same staging, same tiles, two stages through registers) with the
// fragments double-buffered across k steps and across the barrier: the next k step's fragments are read
// from shared memory before this step's FMAs, and at a tile's last k step the staged tile is stored, the
// barrier passed and the next tile's first fragments read before the last step's FMAs, so no warp waits
// on a shared-memory load after a barrier. WARP4x8: a warp's 32 threads cover 8 thread columns by 4 rows
// (B fragments: 8 distinct float4s a load, one wavefront) instead of 16 by 2.
template <bool NC> __device__ __forceinline__ float4 load_a_b(const float *p)
{
    return NC ? __ldg(reinterpret_cast<const float4 *>(p)) : *reinterpret_cast<const float4 *>(p);
}
// Index type of the thread-derived values: int, or (the suite's twin) size_t.
template <bool WIDE> struct IndexType {
    typedef int type;
};
template <> struct IndexType<true> {
    typedef size_t type;
};
// FLAGS (steps from RBX towards the suite's twin): 1 = thread-derived indices as size_t; 2 = global loads by
// element index from the matrix base each tile ((row) * k + k0 + a_k, (k0 + b_k) * n + col) instead of from
// per-thread pointers; 4 = the loop as the suite's (pairs while tile + 1 < tiles, then an odd last tile).
template <int BM, int BN, int BK, int TM, int TN, int MINB, bool WARP4x8, bool NC = true, int FLAGS = 0>
__global__ void __launch_bounds__(256, MINB) rbx(const float *a, const float *b, float *c, unsigned m_, unsigned n_,
                                                 unsigned k_)
{
    typedef typename IndexType<(FLAGS & 1) != 0>::type I;
    constexpr int AP = BM + 4, A_T = BK * AP, STAGE = A_T + BK * BN;
    constexpr int A_STRIPS = BK / 8, B_PASS = 4 * 256 / BN, B_STRIPS = BK / B_PASS, TCOLS = BN / TN;
    static_assert(2 * BM == 256 && B_STRIPS >= 1 && B_PASS * B_STRIPS == BK, "staging");
    extern __shared__ float4 smem4[];
    float *smem = reinterpret_cast<float *>(smem4);
    const size_t n = n_, k = k_;
    const I tid = threadIdx.x;
    const I a_row = tid / 2, a_k = tid % 2 * 4, b_k = tid / (BN / 4), b_col = tid % (BN / 4) * 4;
    I tx = tid % TCOLS, ty = tid / TCOLS;
    if (WARP4x8 && TCOLS == 16) {
        I w = tid / 32, l = tid % 32;
        tx = (w % 2) * 8 + l % 8;
        ty = (w / 2) * 4 + l / 8;
    }
    const float *a_block = a + ((size_t)blockIdx.y * BM + a_row) * k + a_k;
    const float *b_block = b + (size_t)b_k * n + (size_t)blockIdx.x * BN + b_col;
    const int tiles = k_ / BK;
    float4 as[A_STRIPS], bs[B_STRIPS];
    auto fetch = [&](int tile) {
#pragma unroll
        for (int s = 0; s < A_STRIPS; ++s)
            as[s] = (FLAGS & 2) ? load_a_b<NC>(a + ((size_t)blockIdx.y * BM + a_row) * k + (size_t)tile * BK + a_k + 8 * s)
                                : load_a_b<NC>(a_block + (size_t)tile * BK + 8 * s);
#pragma unroll
        for (int s = 0; s < B_STRIPS; ++s)
            bs[s] = (FLAGS & 2) ? load_a_b<NC>(b + ((size_t)tile * BK + b_k + B_PASS * s) * n + (size_t)blockIdx.x * BN + b_col)
                                : load_a_b<NC>(b_block + ((size_t)tile * BK + B_PASS * s) * n);
    };
    auto store = [&](int stage) {
        float *t = smem + stage * STAGE;
#pragma unroll
        for (int s = 0; s < A_STRIPS; ++s) {
            t[(a_k + 8 * s + 0) * AP + a_row] = as[s].x;
            t[(a_k + 8 * s + 1) * AP + a_row] = as[s].y;
            t[(a_k + 8 * s + 2) * AP + a_row] = as[s].z;
            t[(a_k + 8 * s + 3) * AP + a_row] = as[s].w;
        }
#pragma unroll
        for (int s = 0; s < B_STRIPS; ++s)
            *reinterpret_cast<float4 *>(t + A_T + (b_k + B_PASS * s) * BN + b_col) = bs[s];
    };
    float af[2][TM], bf[2][TN];
    auto frags = [&](int stage, int kk, float *fa, float *fb) {
        const float *t = smem + stage * STAGE;
#pragma unroll
        for (int s = 0; s < TM / 4; ++s) {
            float4 v = *reinterpret_cast<const float4 *>(t + kk * AP + 4 * ty + s * BM / 2);
            fa[4 * s] = v.x, fa[4 * s + 1] = v.y, fa[4 * s + 2] = v.z, fa[4 * s + 3] = v.w;
        }
#pragma unroll
        for (int s = 0; s < TN / 4; ++s) {
            float4 v = *reinterpret_cast<const float4 *>(t + A_T + kk * BN + 4 * tx + s * BN / 2);
            fb[4 * s] = v.x, fb[4 * s + 1] = v.y, fb[4 * s + 2] = v.z, fb[4 * s + 3] = v.w;
        }
    };
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;
    fetch(0);
    store(0);
    __syncthreads();
    frags(0, 0, af[0], bf[0]);
    auto tile_body = [&](int tile, int cur) {
        // The prefetch past the last tile loads the last one again (never used): no branch around loads.
        fetch(tile + 1 < tiles ? tile + 1 : tile);
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            if (kk < BK - 1) {
                frags(cur, kk + 1, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
            } else {
                store(1 - cur);
                __syncthreads();
                frags(1 - cur, 0, af[0], bf[0]);
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(af[kk % 2][i], bf[kk % 2][j], acc[i][j]);
        }
    };
    if (FLAGS & 4) {
        int tile = 0;
        for (; tile + 1 < tiles; tile += 2) {
            tile_body(tile, 0);
            tile_body(tile + 1, 1);
        }
        if (tile < tiles)
            tile_body(tile, 0);
    } else {
        for (int tile = 0; tile < tiles; tile += 2) {
            tile_body(tile, 0);
            tile_body(tile + 1, 1);
        }
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        size_t row = (size_t)blockIdx.y * BM + 4 * ty + i % 4 + (i / 4) * (BM / 2);
#pragma unroll
        for (int h = 0; h < TN / 4; ++h) {
            size_t col = (size_t)blockIdx.x * BN + 4 * tx + h * (BN / 2);
            *reinterpret_cast<float4 *>(c + row * n + col) =
                make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
        }
    }
}

struct Variant {
    std::string name;
    int bm, bn;
    std::function<void(const float *, const float *, float *, unsigned)> launch;
    std::function<int()> regs;
};

template <typename K> static int regs_of(K kernel)
{
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, kernel));
    return attr.numRegs;
}

template <typename T, int MINB> static Variant rb_variant(const char *name)
{
    auto kernel = rb<T, MINB>;
    int shared = 2 * T::STAGE * 4;
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    return {name, T::BM, T::BN,
            [=](const float *a, const float *b, float *c, unsigned s) {
                kernel<<<dim3(s / T::BN, s / T::BM), 256, shared>>>(a, b, c, s, s, s);
            },
            [=] { return regs_of(kernel); }};
}

template <int BM, int BN, int THREADS, int STAGES, int MINB> static Variant cpa_variant()
{
    auto kernel = cpa<BM, BN, THREADS, STAGES, MINB>;
    int shared = STAGES * (8 * (BM + 4) + 8 * BN) * 4;
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    char name[64];
    snprintf(name, sizeof name, "CPA %dx%d t%d s%d b%d", BM, BN, THREADS, STAGES, MINB);
    return {name, BM, BN,
            [=](const float *a, const float *b, float *c, unsigned s) {
                kernel<<<dim3(s / BN, s / BM), THREADS, shared>>>(a, b, c, s, s, s);
            },
            [=] { return regs_of(kernel); }};
}

template <int BM, int BN, int BK, int TM, int TN, int MINB, bool W48, bool NC = true, int FLAGS = 0>
static Variant rbx_variant()
{
    auto kernel = rbx<BM, BN, BK, TM, TN, MINB, W48, NC, FLAGS>;
    int shared = 2 * (BK * (BM + 4) + BK * BN) * 4;
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    char name[64];
    snprintf(name, sizeof name, "RBX %dx%dx%d b%d%s%s f%d", BM, BN, BK, MINB, W48 ? " w4x8" : "", NC ? "" : " ld", FLAGS);
    return {name, BM, BN,
            [=](const float *a, const float *b, float *c, unsigned s) {
                kernel<<<dim3(s / BN, s / BM), 256, shared>>>(a, b, c, s, s, s);
            },
            [=] { return regs_of(kernel); }};
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    printf("%s, %d SMs, clock %d MHz; FP32 peak %.1f TFLOP/s\n", prop.name, prop.multiProcessorCount,
           clock_khz / 1000, 2.0 * 128 * prop.multiProcessorCount * clock_khz * 1e3 / 1e12);
    cublasHandle_t cublas;
    CHECK_CUBLAS(cublasCreate(&cublas));
    std::vector<Variant> variants = {
        rb_variant<Tile128x128, 2>("RB 128x128x8 (suite)"),
        rb_variant<Tile128x64, 2>("RB 128x64x16 (suite)"),
        rbx_variant<128, 128, 8, 8, 8, 2, false, false, 0>(),
        rbx_variant<128, 128, 8, 8, 8, 2, false, false, 1>(),
        rbx_variant<128, 128, 8, 8, 8, 2, false, false, 2>(),
        rbx_variant<128, 128, 8, 8, 8, 2, false, false, 4>(),
        rbx_variant<128, 128, 8, 8, 8, 2, false, false, 7>(),
        rbx_variant<128, 64, 16, 8, 4, 2, false, true, 0>(),
        rbx_variant<128, 64, 16, 8, 4, 2, false, false, 1>(),
        rbx_variant<128, 64, 16, 8, 4, 2, false, false, 7>(),
    };
    for (auto &v : variants)
        printf("  %-24s %3d registers\n", v.name.c_str(), v.regs());
    const unsigned sizes[] = {1024, 2048, 4096, 8192};
    for (unsigned s : sizes) {
        size_t elems = (size_t)s * s;
        std::vector<float> ha(elems), hb(elems);
        unsigned long long state = 12345 + s;
        auto next = [&] {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return (float)((state >> 40) & 0xffff) / 65536.0f - 0.5f;
        };
        for (auto &x : ha)
            x = next();
        for (auto &x : hb)
            x = next();
        float *a, *b, *c, *ref;
        CHECK(cudaMalloc(&a, elems * 4));
        CHECK(cudaMalloc(&b, elems * 4));
        CHECK(cudaMalloc(&c, elems * 4));
        CHECK(cudaMalloc(&ref, elems * 4));
        CHECK(cudaMemcpy(a, ha.data(), elems * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(b, hb.data(), elems * 4, cudaMemcpyHostToDevice));
        const float one = 1.0f, zero = 0.0f;
        // Row-major C = A B is column-major C^T = B^T A^T.
        auto cublas_launch = [&](float *out) {
            CHECK_CUBLAS(cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, b, s, a, s, &zero, out, s));
        };
        cublas_launch(ref);
        CHECK(cudaDeviceSynchronize());
        std::vector<float> href(elems), hc(elems);
        CHECK(cudaMemcpy(href.data(), ref, elems * 4, cudaMemcpyDeviceToHost));
        // cuBLAS against f64 at 64 elements.
        double worst_ref = 0;
        for (int p = 0; p < 64; ++p) {
            size_t i = (size_t)(p * 2654435761u) % s, j = (size_t)(p * 40503u + 7) % s;
            double dot = 0, mag = 0;
            for (size_t q = 0; q < s; ++q)
                dot += (double)ha[i * s + q] * hb[q * s + j], mag += fabs((double)ha[i * s + q] * hb[q * s + j]);
            worst_ref = std::max(worst_ref, fabs(href[i * s + j] - dot) / (s * 1.19e-7 * mag));
        }
        std::vector<std::function<void()>> launches;
        std::vector<std::string> names;
        std::vector<bool> ok;
        for (auto &v : variants) {
            CHECK(cudaMemset(c, 0, elems * 4));
            v.launch(a, b, c, s);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(hc.data(), c, elems * 4, cudaMemcpyDeviceToHost));
            double worst = 0;
            for (size_t e = 0; e < elems; ++e)
                worst = std::max(worst, (double)fabs(hc[e] - href[e]));
            double bound = 2.0 * s * 0.25 * 1.19e-7;  // |a|, |b| <= 0.5
            ok.push_back(worst <= bound);
            if (worst > bound)
                printf("  %s at %u: max |diff| %.3g > %.3g: FAILED, not timed\n", v.name.c_str(), s, worst, bound);
            auto launch = v.launch;
            launches.push_back([=] { launch(a, b, c, s); });
            names.push_back(v.name);
        }
        launches.push_back([&] { cublas_launch(c); });
        names.push_back("cuBLAS SGEMM");
        ok.push_back(true);
        // reps: a sample >= 20 ms.
        double flop = 2.0 * s * s * (double)s;
        int reps = std::max(1, (int)(20e-3 / (flop / 40e12)));
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        std::vector<std::vector<double>> tflops(launches.size());
        for (auto &l : launches)
            l();
        for (int sample = 0; sample < 7; ++sample)
            for (size_t v = 0; v < launches.size(); ++v) {
                if (!ok[v])
                    continue;
                CHECK(cudaEventRecord(e0));
                for (int r = 0; r < reps; ++r)
                    launches[v]();
                CHECK(cudaEventRecord(e1));
                CHECK(cudaEventSynchronize(e1));
                float ms;
                CHECK(cudaEventElapsedTime(&ms, e0, e1));
                tflops[v].push_back(flop * reps / (ms * 1e-3) / 1e12);
            }
        CHECK(cudaGetLastError());
        std::sort(tflops.back().begin(), tflops.back().end());
        double cublas_med = tflops.back()[3];
        printf("%u^3 (%d reps/sample; cuBLAS vs f64 at 64 elements: %.3f of k*u*sum|ab|)\n", s, reps, worst_ref);
        for (size_t v = 0; v < launches.size(); ++v) {
            if (!ok[v])
                continue;
            auto &t = tflops[v];
            std::sort(t.begin(), t.end());
            printf("  %-24s %6.2f (%6.2f-%6.2f) TFLOP/s  %.3f of cuBLAS\n", names[v].c_str(), t[3], t[0], t[6],
                   t[3] / cublas_med);
        }
        cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(ref);
    }
    CHECK_CUBLAS(cublasDestroy(cublas));
    return 0;
}
