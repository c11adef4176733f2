// CUDA C twins of ptxsuite's occupancy kernels (kernels-gpu/src/occupancy/): a guarded copy
// and a per-thread chain of dependent loads; neither touches its dynamic shared memory.

extern "C" __global__ void occupancy_copy(float *out, const float *inp, unsigned long long n)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = inp[i];
}

extern "C" __global__ void occupancy_chase(const unsigned int *links, unsigned int threads, unsigned int count,
                                           unsigned int *out)
{
    unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < threads) {
        unsigned int slot = t;
        for (unsigned int step = 0; step < count; ++step)
            slot = links[slot];
        out[t] = slot;
    }
}
