// CUDA C twins of ptxsuite's latency kernels (kernels-gpu/src/latency/): one thread, a chain
// of dependent operations, timed in SM cycles and global-timer nanoseconds.

__device__ __forceinline__ unsigned long long latency_global_timer_ns()
{
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

// Runs steps() between readings of both clocks: out[0] = its result (stored before the
// closing readings: the store waits for the chain's last value), out[1] = cycles,
// out[2] = nanoseconds.
template <typename Steps> __device__ __forceinline__ void timed_chain(unsigned long long *out, Steps steps)
{
    unsigned long long start_ns = latency_global_timer_ns();
    long long start = clock64();
    out[0] = steps();
    long long end = clock64();
    unsigned long long end_ns = latency_global_timer_ns();
    out[1] = (unsigned long long)(end - start);
    out[2] = end_ns - start_ns;
}

// One link: an explicit ld.global, as the Rust kernel's (a pointer read from memory would
// otherwise be loaded with a generic ld).
__device__ __forceinline__ unsigned long long follow_link(unsigned long long link)
{
    unsigned long long next;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(next) : "l"(link));
    return next;
}

// p <- *p through a ring of links (each the address of the next slot's link).
extern "C" __global__ void pointer_chase(const unsigned long long *start, unsigned int warmup, unsigned int count,
                                         unsigned long long *out)
{
    unsigned long long link = (unsigned long long)start;
    for (unsigned int step = 0; step < warmup; ++step)
        link = follow_link(link);
    timed_chain(out, [&]() {
        for (unsigned int step = 0; step < count; ++step)
            link = follow_link(link);
        return link;
    });
}

// The chase inside shared memory: the block copies the ring in, thread 0 chases it.
extern "C" __global__ void shared_pointer_chase(const unsigned int *links, unsigned int slots, unsigned int start,
                                                unsigned int warmup, unsigned int count, unsigned long long *out)
{
    extern __shared__ unsigned int latency_ring[];
    for (unsigned int slot = threadIdx.x; slot < slots; slot += blockDim.x)
        latency_ring[slot] = links[slot];
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    unsigned int slot = start;
    for (unsigned int step = 0; step < warmup; ++step)
        slot = latency_ring[slot];
    timed_chain(out, [&]() {
        for (unsigned int step = 0; step < count; ++step)
            slot = latency_ring[slot];
        return (unsigned long long)slot;
    });
}

#define FMA_LATENCY_UNROLL 64

// x <- fma(x, multiplier, addend), count * 64 times.
extern "C" __global__ void fma_latency(float x, float multiplier, float addend, unsigned int count,
                                       unsigned long long *out)
{
    timed_chain(out, [&]() {
        for (unsigned int trip = 0; trip < count; ++trip) {
#pragma unroll
            for (int k = 0; k < FMA_LATENCY_UNROLL; ++k)
                x = fmaf(x, multiplier, addend);
        }
        return (unsigned long long)__float_as_uint(x);
    });
}
