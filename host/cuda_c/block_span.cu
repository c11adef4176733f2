// The block span of kernels-gpu/src/block_span.rs: thread 0 of block b writes its start and end
// cycles, its SM and the nanoseconds between the two readings to spans[4b..4b + 4].

struct ptxsuite_span_start {
    long long cycles;
    unsigned long long ns;
};

__device__ __forceinline__ unsigned long long ptxsuite_global_timer_ns()
{
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__device__ __forceinline__ unsigned int ptxsuite_sm_id()
{
    unsigned int sm;
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    return sm;
}

__device__ __forceinline__ ptxsuite_span_start ptxsuite_span_begin()
{
    ptxsuite_span_start start;
    start.cycles = clock64();
    start.ns = ptxsuite_global_timer_ns();
    return start;
}

__device__ __forceinline__ void ptxsuite_record_block_span(unsigned long long *spans, ptxsuite_span_start start)
{
    long long end = clock64();
    unsigned long long end_ns = ptxsuite_global_timer_ns();
    if (threadIdx.x == 0) {
        unsigned long long *block = spans + 4 * blockIdx.x;
        block[0] = (unsigned long long)start.cycles;
        block[1] = (unsigned long long)end;
        block[2] = ptxsuite_sm_id();
        block[3] = end_ns - start.ns;
    }
}
