// CUDA C twin of ptxsuite's fma_chain (kernels-gpu/src/streams/fma_chain.rs): the
// calibrated arithmetic of the stream experiments (Best Practices Guide §3.1.2, the
// OpenCL whitepaper's one-kernel-at-a-time claim). x <- fmaf(x, A, B) `iterations`
// times per element, in place, grid-stride over `n` elements. fmaf is correctly
// rounded, as the Rust and CPU fma: the three agree bit for bit.

#define FMA_CHAIN_A 0.9999f
#define FMA_CHAIN_B 0.001f

extern "C" __global__ void fma_chain(float *data, unsigned int n, unsigned int iterations)
{
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float x = data[i];
        for (unsigned int k = 0; k < iterations; ++k)
            x = fmaf(x, FMA_CHAIN_A, FMA_CHAIN_B);
        data[i] = x;
    }
}
