// CUDA C twins of ptxsuite's local-memory kernels (kernels-gpu/src/local_memory/): the same
// per-thread work over a 64-word array, in registers, in local memory, or under a launch
// bound that spills (the host adds .maxntid/.minnctapersm to local_array_spilled, as for Rust).

#define LOCAL_ARRAY_WORDS 64

template <bool Dynamic>
__device__ __forceinline__ unsigned int scramble_rounds(unsigned int thread, unsigned int shift, unsigned int rounds)
{
    unsigned int words[LOCAL_ARRAY_WORDS];
#pragma unroll
    for (unsigned int i = 0; i < LOCAL_ARRAY_WORDS; ++i)
        words[i] = thread * 0x9e3779b9u + i;
    unsigned int value = thread;
    for (unsigned int round = 0; round < rounds; ++round) {
#pragma unroll
        for (unsigned int i = 0; i < LOCAL_ARRAY_WORDS; ++i) {
            unsigned int index = Dynamic ? (i + shift) % LOCAL_ARRAY_WORDS : i;
            value = value * 31 + words[index];
            words[index] = value ^ round;
        }
    }
    return value;
}

extern "C" __global__ void local_array_registers(unsigned int rounds, unsigned int *out)
{
    unsigned int thread = blockIdx.x * blockDim.x + threadIdx.x;
    out[thread] = scramble_rounds<false>(thread, 0, rounds);
}

extern "C" __global__ void local_array_dynamic(unsigned int shift, unsigned int rounds, unsigned int *out)
{
    unsigned int thread = blockIdx.x * blockDim.x + threadIdx.x;
    out[thread] = scramble_rounds<true>(thread, shift, rounds);
}

extern "C" __global__ void local_array_spilled(unsigned int rounds, unsigned int *out)
{
    unsigned int thread = blockIdx.x * blockDim.x + threadIdx.x;
    out[thread] = scramble_rounds<false>(thread, 0, rounds);
}
