// Issue #31 item 2: can an SM-issued peer copy match the copy engine if it
// uses the Tensor Memory Accelerator's bulk copies (sm_90 `cp.async.bulk`)
// instead of loads and stores? Measures, between GPU 0 and GPU 1 in one run:
//   ce         cudaMemcpyPeerAsync (the copy engine), the reference;
//   sm-pull    an int4 grid-stride copy on GPU 0 reading GPU 1 (what
//              vector_copy and nvbandwidth's SM copies do);
//   sm-push    the same kernel on GPU 0 writing GPU 1;
//   tma-pull   bulk copies on GPU 0: peer global -> shared (mbarrier), then
//              shared -> local global; one issuing thread per block;
//   tma-push   bulk copies on GPU 0: local global -> shared, then shared ->
//              peer global.
// The TMA kernels keep `stages` shared-memory buffers of `chunk` bytes per
// block and `stages - 2` loads ahead of the store. Each figure is the median
// of 5 samples of 10 copies after a warm-up; GB = 1e9 bytes; every copy is
// checked against the source once.
// Build and run on a two-GPU machine:
//   nvcc -O2 -arch=sm_90 -o /tmp/tma_peer_copy gpu-checks/tma_peer_copy.cu && /tmp/tma_peer_copy [MiB]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

__global__ void sm_copy(int4 *__restrict__ dst, const int4 *__restrict__ src, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, unsigned bytes) {
    asm volatile("{\n\t.reg .b64 state;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n\t}" ::"r"(
                     smem_addr(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity) {
    asm volatile(
        "{\n\t.reg .pred done;\n"
        "WAIT_%=:\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
        "@!done bra WAIT_%=;\n\t}" ::"r"(smem_addr(bar)),
        "r"(parity)
        : "memory");
}

__device__ __forceinline__ void bulk_load(void *smem, const void *gmem, unsigned bytes, uint64_t *bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_addr(smem)),
                 "l"(__cvta_generic_to_global(gmem)), "r"(bytes), "r"(smem_addr(bar))
                 : "memory");
}

__device__ __forceinline__ void bulk_store(void *gmem, const void *smem, unsigned bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(__cvta_generic_to_global(gmem)),
                 "r"(smem_addr(smem)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// Chunk c of the buffer is copied by block c % gridDim.x; `bytes` is a multiple of `chunk`.
__global__ void tma_copy(char *__restrict__ dst, const char *__restrict__ src, size_t bytes, unsigned chunk,
                         unsigned stages) {
    extern __shared__ __align__(128) char buffers[];
    uint64_t *bars = reinterpret_cast<uint64_t *>(buffers + (size_t)chunk * stages);
    if (threadIdx.x != 0) return;
    for (unsigned s = 0; s < stages; ++s) mbar_init(&bars[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    const size_t chunks = bytes / chunk;
    const size_t mine = chunks > blockIdx.x ? (chunks - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    const unsigned ahead = stages - 2;
    auto load = [&](size_t j) {
        const unsigned s = j % stages;
        const size_t c = blockIdx.x + j * gridDim.x;
        mbar_expect_tx(&bars[s], chunk);
        bulk_load(buffers + (size_t)s * chunk, src + c * chunk, chunk, &bars[s]);
    };
    for (size_t j = 0; j < ahead && j < mine; ++j) load(j);
    for (size_t i = 0; i < mine; ++i) {
        const size_t j = i + ahead;
        if (j < mine) {
            // stage j % stages was last read by the store of chunk j - stages = i - 2
            if (j >= stages) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            load(j);
        }
        const unsigned s = i % stages;
        mbar_wait(&bars[s], (unsigned)((i / stages) & 1));
        bulk_store(dst + (blockIdx.x + i * gridDim.x) * chunk, buffers + (size_t)s * chunk, chunk);
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

struct Timing {
    double low, median, high;
};

template <typename Copy>
Timing time_gbps(int device, size_t bytes, Copy copy) {
    CHECK(cudaSetDevice(device));
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int w = 0; w < 3; ++w) copy(stream);
    CHECK(cudaStreamSynchronize(stream));
    const int reps = 10;
    std::vector<double> rates;
    for (int sample = 0; sample < 5; ++sample) {
        CHECK(cudaEventRecord(start, stream));
        for (int r = 0; r < reps; ++r) copy(stream);
        CHECK(cudaEventRecord(stop, stream));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaGetLastError());
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        rates.push_back((double)bytes * reps / (ms * 1e-3) / 1e9);
    }
    std::sort(rates.begin(), rates.end());
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return {rates.front(), rates[rates.size() / 2], rates.back()};
}

static bool same(const char *dst_dev, const std::vector<char> &expected, int device) {
    CHECK(cudaSetDevice(device));
    std::vector<char> got(expected.size());
    CHECK(cudaMemcpy(got.data(), dst_dev, got.size(), cudaMemcpyDeviceToHost));
    return got == expected;
}

int main(int argc, char **argv) {
    const size_t mib = argc > 1 ? strtoul(argv[1], nullptr, 10) : 1024;
    const size_t bytes = mib << 20;
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 2) {
        fprintf(stderr, "tma_peer_copy: needs two GPUs, found %d\n", count);
        return 2;
    }
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("GPU 0: %s, %d SMs; buffer %zu MiB\n", prop.name, sms, mib);
    char *local, *peer;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&peer, bytes));
    CHECK(cudaDeviceEnablePeerAccess(0, 0));
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&local, bytes));
    CHECK(cudaDeviceEnablePeerAccess(1, 0));
    std::vector<char> pattern(bytes);
    for (size_t i = 0; i < bytes; ++i) pattern[i] = (char)(i * 2654435761u >> 13);
    auto fill = [&](char *buffer, int device) {
        CHECK(cudaSetDevice(device));
        CHECK(cudaMemcpy(buffer, pattern.data(), bytes, cudaMemcpyHostToDevice));
    };
    auto clear = [&](char *buffer, int device) {
        CHECK(cudaSetDevice(device));
        CHECK(cudaMemset(buffer, 0, bytes));
    };
    // Fills `src` (on `src_device`), clears `dst`, times `copy` on GPU 0, checks `dst` and prints the
    // figures with their fraction of `engine` (GB/s; 0: the copy is the engine itself).
    auto measure = [&](const char *name, char *dst, int dst_device, char *src, int src_device, double engine,
                       auto copy) {
        fill(src, src_device);
        clear(dst, dst_device);
        const Timing t = time_gbps(0, bytes, copy);
        const bool ok = same(dst, pattern, dst_device);
        printf("%-34s %8.1f %8.1f %8.1f GB/s  %5.3f x CE  %s\n", name, t.low, t.median, t.high,
               engine > 0 ? t.median / engine : 1.0, ok ? "ok" : "WRONG");
        return t.median;
    };
    printf("%-34s %8s %8s %8s\n", "copy GPU1 -> GPU0 unless named", "min", "median", "max");

    const double ce_pull = measure("ce (memcpy peer, GPU1->GPU0)", local, 0, peer, 1, 0, [&](cudaStream_t s) {
        CHECK(cudaMemcpyPeerAsync(local, 0, peer, 1, bytes, s));
    });
    const double ce_push = measure("ce (memcpy peer, GPU0->GPU1)", peer, 1, local, 0, 0, [&](cudaStream_t s) {
        CHECK(cudaMemcpyPeerAsync(peer, 1, local, 0, bytes, s));
    });

    const size_t n4 = bytes / sizeof(int4);
    char label[96];
    for (int per_sm : {1, 2, 4, 8}) {
        const int threads = 1024 / std::min(per_sm, 2);
        const int blocks = sms * per_sm;
        snprintf(label, sizeof label, "sm-pull int4 %dx%d", blocks, threads);
        measure(label, local, 0, peer, 1, ce_pull, [&](cudaStream_t s) {
            sm_copy<<<blocks, threads, 0, s>>>((int4 *)local, (const int4 *)peer, n4);
        });
        snprintf(label, sizeof label, "sm-push int4 %dx%d", blocks, threads);
        measure(label, peer, 1, local, 0, ce_push, [&](cudaStream_t s) {
            sm_copy<<<blocks, threads, 0, s>>>((int4 *)peer, (const int4 *)local, n4);
        });
    }

    struct Shape {
        unsigned chunk, stages, per_sm;
    };
    for (Shape shape : {Shape{16384, 4, 2}, Shape{32768, 4, 1}, Shape{32768, 6, 1}, Shape{49152, 4, 1} /* 3 MiB multiples only */,
                        Shape{8192, 8, 2}, Shape{65536, 3, 1}}) {
        if (bytes % shape.chunk != 0) {  // tma_copy copies whole chunks only
            printf("tma %uKB x%u: skipped, %zu MiB is not a whole number of chunks\n", shape.chunk / 1024,
                   shape.stages, mib);
            continue;
        }
        const size_t smem = (size_t)shape.chunk * shape.stages + 8 * shape.stages;
        CHECK(cudaSetDevice(0));
        CHECK(cudaFuncSetAttribute(tma_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        const int blocks = sms * shape.per_sm;
        snprintf(label, sizeof label, "tma-pull %uKB x%u, %d blocks", shape.chunk / 1024, shape.stages, blocks);
        measure(label, local, 0, peer, 1, ce_pull, [&](cudaStream_t s) {
            tma_copy<<<blocks, 32, smem, s>>>(local, peer, bytes, shape.chunk, shape.stages);
        });
        snprintf(label, sizeof label, "tma-push %uKB x%u, %d blocks", shape.chunk / 1024, shape.stages, blocks);
        measure(label, peer, 1, local, 0, ce_push, [&](cudaStream_t s) {
            tma_copy<<<blocks, 32, smem, s>>>(peer, local, bytes, shape.chunk, shape.stages);
        });
    }
    // The same kernels within one GPU, for scale (DRAM, no link).
    char *other;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&other, bytes));
    const double ce_local = measure("local ce (read+write counted once)", local, 0, other, 0, 0, [&](cudaStream_t s) {
        CHECK(cudaMemcpyAsync(local, other, bytes, cudaMemcpyDeviceToDevice, s));
    });
    const size_t smem = 32768 * 4 + 8 * 4;
    CHECK(cudaFuncSetAttribute(tma_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    measure("local tma 32KB x4", local, 0, other, 0, ce_local, [&](cudaStream_t s) {
        tma_copy<<<sms, 32, smem, s>>>(local, other, bytes, 32768, 4);
    });
    return 0;
}
