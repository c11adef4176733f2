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

// Best Practices Guide section 3.2.4: one warp reads one tile of tile_width x (32 / tile_width)
// texels; tiles dealt to the warps in row-major order over the image (tile_texel in the Rust crate).
// width and tile_width are powers of two: shifts and masks instead of divisions.
__device__ __forceinline__ void tile_texel(unsigned int gid, unsigned int width, unsigned int tile_width,
                                           unsigned int *x, unsigned int *y)
{
    unsigned int warp = gid / 32, lane = gid % 32;
    unsigned int tile_log = __ffs(tile_width) - 1;
    unsigned int tiles_per_row_log = (__ffs(width) - 1) - tile_log;
    *x = ((warp & ((1u << tiles_per_row_log) - 1)) << tile_log) | (lane & (tile_width - 1));
    *y = ((warp >> tiles_per_row_log) << (5 - tile_log)) | (lane >> tile_log);
}

extern "C" __global__ void global_2d_tile_load(unsigned int *odata, const unsigned int *__restrict__ idata,
                                               unsigned int width, unsigned int tile_width)
{
    unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
    tile_texel(gid, width, tile_width, &x, &y);
    odata[gid] = __ldg(&idata[y * width + x]);
}

// Table 3.4: the texture object picks filtering, normalized coordinates and the addressing mode.
extern "C" __global__ void texture_2d_tile_sample(float *odata, cudaTextureObject_t texture, unsigned int width,
                                                  unsigned int tile_width, float offset_x, float offset_y,
                                                  float scale_x, float scale_y)
{
    unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
    tile_texel(gid, width, tile_width, &x, &y);
    odata[gid] = tex2D<float>(texture, ((float)x + offset_x) * scale_x, ((float)y + offset_y) * scale_y);
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
