// CUDA C twins of ptxsuite's global-memory kernels (kernels-gpu/src/global_memory/).
// Same algorithms, same indexing, same launch shapes; compiled at run time by
// NVRTC for the same virtual architecture as the Rust PTX. extern "C" keeps
// the entry names equal to the Rust ones.

// Best Practices Guide Listing 3.5.
extern "C" __global__ void offset_copy(float *odata, const float *idata, int offset)
{
    int xid = blockIdx.x * blockDim.x + threadIdx.x + offset;
    odata[xid] = idata[xid];
}

// Best Practices Guide Listing 3.6.
extern "C" __global__ void stride_copy(float *odata, const float *idata, int stride)
{
    int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
    odata[xid] = idata[xid];
}

// Best Practices Guide Listing 3.12.
extern "C" __global__ void shift_copy(float *odata, const float *idata, int shift)
{
    int xid = blockIdx.x * blockDim.x + threadIdx.x;
    odata[xid] = idata[xid + shift];
}

// Best Practices Guide §3.2.1.1: each warp reads the 32 words of its own
// aligned 128-byte segment in a scrambled order (lane l reads word
// (l * (2 key + 1)) mod 32 XOR key; key 0 is in order) and writes in order.
extern "C" __global__ void permuted_copy(float *odata, const float *idata, int key)
{
    unsigned int xid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = xid & 31;
    unsigned int k = (unsigned int)key & 31;
    unsigned int word = ((lane * (2 * k + 1)) & 31) ^ k;
    odata[xid] = idata[(xid - lane) + word];
}

// Best Practices Guide Listing 3.13, with a texture object instead of a texture reference.
extern "C" __global__ void texture_shift_copy(float *odata, cudaTextureObject_t texture, int shift)
{
    int xid = blockIdx.x * blockDim.x + threadIdx.x;
    odata[xid] = tex1Dfetch<float>(texture, xid + shift);
}

// Offset and stride copies for 2-, 8- and 16-byte elements.
#define WIDTH_KERNELS(OFFSET, STRIDE, T)                                         \
    extern "C" __global__ void OFFSET(T *odata, const T *idata, int offset)      \
    {                                                                            \
        int xid = blockIdx.x * blockDim.x + threadIdx.x + offset;                \
        odata[xid] = idata[xid];                                                 \
    }                                                                            \
    extern "C" __global__ void STRIDE(T *odata, const T *idata, int stride)      \
    {                                                                            \
        int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;              \
        odata[xid] = idata[xid];                                                 \
    }

WIDTH_KERNELS(offset_copy_f16, stride_copy_f16, unsigned short)
WIDTH_KERNELS(offset_copy_f64, stride_copy_f64, double)
WIDTH_KERNELS(offset_copy_f32x4, stride_copy_f32x4, float4)

// The suite's best-practice copy: float4 accesses, grid-stride loop, scalar
// tail; launched with min(ceil(n/4/256), SMs x resident blocks x 1024) blocks.
extern "C" __global__ void vector_copy(float *out, const float *inp, unsigned long long n)
{
    float4 *out4 = reinterpret_cast<float4 *>(out);
    const float4 *inp4 = reinterpret_cast<const float4 *>(inp);
    unsigned long long vectors = n / 4;
    unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long v = first; v < vectors; v += step) {
        out4[v] = inp4[v];
    }
    if (first < n % 4) {
        unsigned long long i = vectors * 4 + first;
        out[i] = inp[i];
    }
}
