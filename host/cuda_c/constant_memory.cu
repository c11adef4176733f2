// CUDA C twins of ptxsuite's constant-memory kernels (kernels-gpu/src/constant_memory/):
// the same table walk through the constant bank, the read-only data cache and shared memory.

// The module's constant array; the host fills it through cuModuleGetGlobal (same name and
// size as the Rust module's, kernels_gpu::device::CONSTANT_SYMBOL / CONSTANT_WORDS).
__constant__ unsigned int ptx_device_constant_words[1024];

// Lane l starts at word l % distinct and takes `steps` steps through read(); thread 0 writes
// the block's span between two barriers (block_span.cu), every thread its sum of visited words.
template <typename Read>
__device__ __forceinline__ void timed_constant_chase(unsigned int distinct, unsigned int steps,
                                                     unsigned long long *spans, unsigned int *sums, Read read)
{
    unsigned int word = threadIdx.x % 32 % distinct;
    unsigned int sum = 0;
    __syncthreads();
    ptxsuite_span_start start = ptxsuite_span_begin();
    for (unsigned int step = 0; step < steps; ++step) {
        word = read(word);
        sum += word;
    }
    __syncthreads();
    ptxsuite_record_block_span(spans, start);
    sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" __global__ void constant_chase(unsigned int distinct, unsigned int steps, unsigned long long *spans,
                                          unsigned int *sums)
{
    timed_constant_chase(distinct, steps, spans, sums,
                         [](unsigned int word) { return ptx_device_constant_words[word]; });
}

extern "C" __global__ void constant_chase_global_nc(const unsigned int *links, unsigned int distinct,
                                                    unsigned int steps, unsigned long long *spans,
                                                    unsigned int *sums)
{
    timed_constant_chase(distinct, steps, spans, sums, [links](unsigned int word) { return __ldg(links + word); });
}

extern "C" __global__ void constant_chase_shared(const unsigned int *links, unsigned int words, unsigned int distinct,
                                                 unsigned int steps, unsigned long long *spans, unsigned int *sums)
{
    extern __shared__ unsigned int chase_table[];
    for (unsigned int word = threadIdx.x; word < words; word += blockDim.x)
        chase_table[word] = links[word];
    // timed_constant_chase's first barrier publishes the copy.
    timed_constant_chase(distinct, steps, spans, sums, [](unsigned int word) { return chase_table[word]; });
}
