// CUDA C twins of ptxsuite's shared-memory matrix multiplies
// (kernels-gpu/src/guide_multiply/): the CUDA C Best Practices Guide's
// Listings 3.7-3.11 with TILE_DIM = 32 and the same launch shapes
// (32 x 32 threads per block, one block per 32 x 32 tile of C). As in the
// Rust versions, the barrier after filling a tile is kept (the guide's
// warp-synchronous shortcut is unsafe since Volta), the sums use FMA, and
// tiles live in dynamic shared memory so both sides size them the same way.

#define TILE_DIM 32

// Listing 3.7: C = AB with A of M x TILE_DIM and B of TILE_DIM x N; no shared memory.
extern "C" __global__ void simple_multiply(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int i = 0; i < TILE_DIM; i++)
        sum = fmaf(a[row * TILE_DIM + i], b[i * n + col], sum);
    c[row * n + col] = sum;
}

// Listing 3.8: a tile of A read coalesced into shared memory.
extern "C" __global__ void coalesced_multiply(const float *a, const float *b, float *c, int n)
{
    extern __shared__ float shared[];
    float *a_tile = shared; // [TILE_DIM][TILE_DIM]
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    a_tile[threadIdx.y * TILE_DIM + threadIdx.x] = a[row * TILE_DIM + threadIdx.x];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i++)
        sum = fmaf(a_tile[threadIdx.y * TILE_DIM + i], b[i * n + col], sum);
    c[row * n + col] = sum;
}

// Listing 3.9: tiles of A and B in shared memory; no redundant reads of B.
extern "C" __global__ void shared_ab_multiply(const float *a, const float *b, float *c, int n)
{
    extern __shared__ float shared[];
    float *a_tile = shared;                   // [TILE_DIM][TILE_DIM]
    float *b_tile = shared + TILE_DIM * TILE_DIM; // [TILE_DIM][TILE_DIM]
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    a_tile[threadIdx.y * TILE_DIM + threadIdx.x] = a[row * TILE_DIM + threadIdx.x];
    b_tile[threadIdx.y * TILE_DIM + threadIdx.x] = b[threadIdx.y * n + col];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i++)
        sum = fmaf(a_tile[threadIdx.y * TILE_DIM + i], b_tile[i * TILE_DIM + threadIdx.x], sum);
    c[row * n + col] = sum;
}

// Listing 3.10: C = AA^T with A of M x TILE_DIM; the transpose is read strided.
extern "C" __global__ void simple_multiply_aat(const float *a, float *c, int m)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int i = 0; i < TILE_DIM; i++)
        sum = fmaf(a[row * TILE_DIM + i], a[col * TILE_DIM + i], sum);
    c[row * m + col] = sum;
}

// Listing 3.11's body: `pitch` is the transposed tile's row length
// (TILE_DIM: bank conflicts on the transposed store; TILE_DIM + 1: none).
__device__ __forceinline__ void multiply_aat_tiled(const float *a, float *c, int m, int pitch)
{
    extern __shared__ float shared[];
    float *a_tile = shared;                     // [TILE_DIM][TILE_DIM]
    float *transposed = shared + TILE_DIM * TILE_DIM; // [TILE_DIM][pitch]
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    a_tile[threadIdx.y * TILE_DIM + threadIdx.x] = a[row * TILE_DIM + threadIdx.x];
    transposed[threadIdx.x * pitch + threadIdx.y] = a[(blockIdx.x * blockDim.x + threadIdx.y) * TILE_DIM + threadIdx.x];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i++)
        sum = fmaf(a_tile[threadIdx.y * TILE_DIM + i], transposed[i * pitch + threadIdx.x], sum);
    c[row * m + col] = sum;
}

// Listing 3.11: coalesced reads through a transposed tile (bank conflicts).
extern "C" __global__ void coalesced_multiply_aat(const float *a, float *c, int m)
{
    multiply_aat_tiled(a, c, m, TILE_DIM);
}

// Listing 3.11 with the padded [TILE_DIM][TILE_DIM + 1] tile.
extern "C" __global__ void coalesced_multiply_aat_padded(const float *a, float *c, int m)
{
    multiply_aat_tiled(a, c, m, TILE_DIM + 1);
}

#undef TILE_DIM
