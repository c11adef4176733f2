// OpenCL C twin of ptxsuite's fma_chain (kernels-gpu/src/streams/fma_chain.rs): the
// calibrated arithmetic of the staged copy/compute pipeline (Best Practices Guide
// §3.1.2, the OpenCL whitepaper's overlap claim). x <- fma(x, A, B) `iterations`
// times per element, in place, grid-stride over `n` elements that start `offset`
// elements into the buffer (OpenCL has no pointer arithmetic on a cl_mem from the
// host, so the chunk's offset is a parameter; the Rust kernel is given an offset
// pointer instead). fma() is correctly rounded, as the Rust and CPU fma: the three
// agree bit for bit.

#define FMA_CHAIN_A 0.9999f
#define FMA_CHAIN_B 0.001f

__kernel void fma_chain(__global float *data, uint offset, uint n, uint iterations)
{
    uint stride = (uint)(get_num_groups(0) * get_local_size(0));
    for (uint i = (uint)(get_group_id(0) * get_local_size(0) + get_local_id(0)); i < n; i += stride) {
        float x = data[offset + i];
        for (uint k = 0; k < iterations; k++)
            x = fma(x, FMA_CHAIN_A, FMA_CHAIN_B);
        data[offset + i] = x;
    }
}
