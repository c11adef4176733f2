// CUDA C twins of ptxsuite's matrix-multiply kernels (kernels-gpu/src/sgemm/):
// C = A * B, row-major, any m, n, k >= 1; same algorithms, tile sizes, indexing
// and launch shapes as the Rust versions. No includes, so NVRTC compiles it as is.
// The register-blocked kernels get their launch bounds where the Rust ones do: the host adds
// .maxntid/.minnctapersm from kernels-gpu/src/launch_bounds.rs to both PTX modules when it loads them.

// The OpenCL guide's tiled kernel (section 2.5), guarded for any m, n, k.
// Block (16, 16), grid (ceil(n / 16), ceil(m / 16)), 2 * 16 * 16 * 4 bytes of dynamic shared memory.
#define TILED_TILE 16

extern "C" __global__ void tiled_sgemm(const float *a, const float *b, float *c, unsigned int m, unsigned int n,
                                       unsigned int k)
{
    extern __shared__ float tiles[];
    float *a_tile = tiles, *b_tile = tiles + TILED_TILE * TILED_TILE;
    unsigned int tx = threadIdx.x, ty = threadIdx.y;
    size_t row = (size_t)blockIdx.y * TILED_TILE + ty, col = (size_t)blockIdx.x * TILED_TILE + tx;
    float sum = 0.0f;
    for (size_t first = 0; first < k; first += TILED_TILE) {
        size_t a_col = first + tx, b_row = first + ty;
        a_tile[ty * TILED_TILE + tx] = row < m && a_col < k ? a[row * k + a_col] : 0.0f;
        b_tile[ty * TILED_TILE + tx] = b_row < k && col < n ? b[b_row * n + col] : 0.0f;
        __syncthreads();
        for (unsigned int i = 0; i < TILED_TILE; ++i)
            sum = fmaf(a_tile[ty * TILED_TILE + i], b_tile[i * TILED_TILE + tx], sum);
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}

// The register-blocked kernels: a 128 x 128 tile of C per block of 256 threads,
// 8 x 8 per thread (two 4-row strips 64 apart times two 4-column strips 64 apart),
// k-steps of 8; A's tile transposed and padded (As[kk][row], 132 floats a row),
// two shared-memory stages; 1-D block of 256, grid (ceil(n / 128), ceil(m / 128)),
// 2 * (8 * 132 + 8 * 128) * 4 = 16640 bytes of dynamic shared memory.
#define SGEMM_BM 128
#define SGEMM_BN 128
#define SGEMM_BK 8
#define SGEMM_A_PITCH (SGEMM_BM + 4)
#define SGEMM_A_TILE (SGEMM_BK * SGEMM_A_PITCH)
#define SGEMM_STAGE (SGEMM_A_TILE + SGEMM_BK * SGEMM_BN)

__device__ __forceinline__ float f16_bits_to_f32(unsigned short bits)
{
    float out;
    asm("cvt.f32.f16 %0, %1;" : "=f"(out) : "h"(bits));
    return out;
}

// Staging loads, one overload pair per storage type: four elements at a 4-aligned index, or one.
__device__ __forceinline__ float4 load4(const float *from, size_t index)
{
    return *reinterpret_cast<const float4 *>(from + index);
}
__device__ __forceinline__ float load1(const float *from, size_t index) { return from[index]; }
__device__ __forceinline__ float4 load4(const unsigned short *from, size_t index)
{
    unsigned long long word = *reinterpret_cast<const unsigned long long *>(from + index);
    return make_float4(f16_bits_to_f32((unsigned short)word), f16_bits_to_f32((unsigned short)(word >> 16)),
                       f16_bits_to_f32((unsigned short)(word >> 32)), f16_bits_to_f32((unsigned short)(word >> 48)));
}
__device__ __forceinline__ float load1(const unsigned short *from, size_t index) { return f16_bits_to_f32(from[index]); }

// Four consecutive elements of a row (see the Rust load_strip): zeros past the row or outside the rows.
template <typename E>
__device__ __forceinline__ float4 load_strip(const E *from, size_t index, bool row_inside, size_t first, size_t len,
                                             bool vectorized)
{
    float strip[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (vectorized) {
        if (row_inside && first < len) {
            float4 v = load4(from, index);
            strip[0] = v.x, strip[1] = v.y, strip[2] = v.z, strip[3] = v.w;
        }
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
            if (row_inside && first + j < len)
                strip[j] = load1(from, index + j);
    }
    return make_float4(strip[0], strip[1], strip[2], strip[3]);
}

// Writes one thread's staged strips into stage `stage`: A transposed, B as one float4.
__device__ __forceinline__ void stage_tiles(float *shared, size_t stage, size_t a_row, size_t a_k, size_t b_k,
                                            size_t b_col, float4 a_strip, float4 b_strip)
{
    float *a_tile = shared + stage * SGEMM_STAGE;
    a_tile[(a_k + 0) * SGEMM_A_PITCH + a_row] = a_strip.x;
    a_tile[(a_k + 1) * SGEMM_A_PITCH + a_row] = a_strip.y;
    a_tile[(a_k + 2) * SGEMM_A_PITCH + a_row] = a_strip.z;
    a_tile[(a_k + 3) * SGEMM_A_PITCH + a_row] = a_strip.w;
    *reinterpret_cast<float4 *>(a_tile + SGEMM_A_TILE + b_k * SGEMM_BN + b_col) = b_strip;
}

// The body for one kind of problem (see the Rust tiles_body): WholeTiles when m, n and k are multiples of
// the tile sizes (no guards, float4 throughout, tile loop unrolled 2x), otherwise guarded at every edge.
template <typename E, bool WholeTiles>
__device__ __forceinline__ void register_blocked_tiles(const E *a, const E *b, float *c, unsigned int m_,
                                                       unsigned int n_, unsigned int k_)
{
    extern __shared__ float4 shared4[];
    float *shared = reinterpret_cast<float *>(shared4);
    size_t tid = threadIdx.x, m = m_, n = n_, k = k_;
    size_t block_row = (size_t)blockIdx.y * SGEMM_BM, block_col = (size_t)blockIdx.x * SGEMM_BN;
    // Row starts are 16-byte aligned only when the row length is a multiple of 4.
    bool vector_a = k % 4 == 0, vector_b = n % 4 == 0, vector_c = n % 4 == 0;

    // Staging: A[block_row + a_row][k0 + a_k ..][..4] and B[k0 + b_k][block_col + b_col ..][..4].
    size_t a_row = tid / (SGEMM_BK / 4), a_k = tid % (SGEMM_BK / 4) * 4;
    size_t b_k = tid / (SGEMM_BN / 4), b_col = tid % (SGEMM_BN / 4) * 4;
    bool a_row_inside = block_row + a_row < m;
    // Compute: rows {0..4, 64..68} + 4 ty and columns {0..4, 64..68} + 4 tx of the block's tile.
    size_t tx = tid % 16, ty = tid / 16;
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

    // Every tile of a WholeTiles problem lies inside A and B; only the prefetch past the last one loads nothing.
#define SGEMM_FETCH_A(k0)                                                                                              \
    (WholeTiles ? ((k0) < k ? load4(a, (block_row + a_row) * k + (k0) + a_k) : make_float4(0.0f, 0.0f, 0.0f, 0.0f))  \
                : load_strip(a, (block_row + a_row) * k + (k0) + a_k, a_row_inside, (k0) + a_k, k, vector_a))
#define SGEMM_FETCH_B(k0)                                                                                              \
    (WholeTiles ? ((k0) < k ? load4(b, ((k0) + b_k) * n + block_col + b_col) : make_float4(0.0f, 0.0f, 0.0f, 0.0f))  \
                : load_strip(b, ((k0) + b_k) * n + block_col + b_col, (k0) + b_k < k, block_col + b_col, n, vector_b))
    stage_tiles(shared, 0, a_row, a_k, b_k, b_col, SGEMM_FETCH_A(0), SGEMM_FETCH_B(0));
    __syncthreads();
    size_t tiles = (k + SGEMM_BK - 1) / SGEMM_BK;
    // One tile: fetch the next one, multiply this stage, store the next into the other stage.
    auto step = [&](size_t tile, size_t stage) {
        // Past the last tile every strip is outside A and B: zeros, no loads.
        float4 next_a = SGEMM_FETCH_A((tile + 1) * SGEMM_BK);
        float4 next_b = SGEMM_FETCH_B((tile + 1) * SGEMM_BK);
        const float4 *a_frags = shared4 + (stage * SGEMM_STAGE + 4 * ty) / 4;
        const float4 *b_frags = shared4 + (stage * SGEMM_STAGE + SGEMM_A_TILE + 4 * tx) / 4;
#pragma unroll
        for (int kk = 0; kk < SGEMM_BK; ++kk) {
            float4 a_lo = a_frags[kk * SGEMM_A_PITCH / 4], a_hi = a_frags[(kk * SGEMM_A_PITCH + SGEMM_BM / 2) / 4];
            float4 b_lo = b_frags[kk * SGEMM_BN / 4], b_hi = b_frags[(kk * SGEMM_BN + SGEMM_BN / 2) / 4];
            float a_frag[8] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            float b_frag[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
        }
        stage_tiles(shared, 1 - stage, a_row, a_k, b_k, b_col, next_a, next_b);
        __syncthreads();
    };
    if (WholeTiles) {
        // Two tiles per trip, so each stage's shared-memory offsets are constants.
        for (size_t tile = 0; tile < tiles; tile += 2) {
            step(tile, 0);
            if (tile + 1 < tiles)
                step(tile + 1, 1);
        }
    } else {
        for (size_t tile = 0; tile < tiles; ++tile)
            step(tile, tile % 2);
    }
#undef SGEMM_FETCH_A
#undef SGEMM_FETCH_B

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        size_t row = block_row + 4 * ty + i % 4 + (i / 4) * (SGEMM_BM / 2);
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            size_t col = block_col + 4 * tx + half * (SGEMM_BN / 2);
            size_t index = row * n + col;
            if (WholeTiles || vector_c) {
                if (WholeTiles || (row < m && col < n))
                    *reinterpret_cast<float4 *>(c + index) = make_float4(
                        acc[i][4 * half], acc[i][4 * half + 1], acc[i][4 * half + 2], acc[i][4 * half + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (row < m && col + j < n)
                        c[index + j] = acc[i][4 * half + j];
            }
        }
    }
}

extern "C" __global__ void sgemm_register_blocked(const float *a, const float *b, float *c, unsigned int m,
                                                  unsigned int n, unsigned int k)
{
    register_blocked_tiles<float, false>(a, b, c, m, n, k);
}

// m, n multiples of 128 and k of 8 (the host picks it whenever the shape allows).
extern "C" __global__ void sgemm_register_blocked_whole_tiles(const float *a, const float *b, float *c, unsigned int m,
                                                              unsigned int n, unsigned int k)
{
    register_blocked_tiles<float, true>(a, b, c, m, n, k);
}

// A and B stored as IEEE binary16 bits, widened to float when staged; float accumulation and C.
extern "C" __global__ void hgemm_f16_storage(const unsigned short *a, const unsigned short *b, float *c,
                                             unsigned int m, unsigned int n, unsigned int k)
{
    register_blocked_tiles<unsigned short, false>(a, b, c, m, n, k);
}

extern "C" __global__ void hgemm_f16_storage_whole_tiles(const unsigned short *a, const unsigned short *b, float *c,
                                                         unsigned int m, unsigned int n, unsigned int k)
{
    register_blocked_tiles<unsigned short, true>(a, b, c, m, n, k);
}
