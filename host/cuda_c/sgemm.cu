// CUDA C twins of ptxsuite's matrix-multiply kernels (kernels-gpu/src/sgemm/):
// C = A * B, row-major, any m, n, k >= 1; same algorithms, tile sizes, indexing
// and launch shapes as the Rust versions. No includes, so NVRTC compiles it as is.
// The register-blocked kernels get their launch bounds where the Rust ones do: the host adds
// .maxntid/.minnctapersm from kernels-gpu/src/launch_bounds.rs to both PTX modules when it loads them.

// The OpenCL guide's untiled kernel (section 2.5, Figure 2-4): a row of A and a column of B from global
// memory per element of C. Block (16, 16), grid (ceil(n / 16), ceil(m / 16)), no shared memory.
extern "C" __global__ void naive_sgemm(const float *a, const float *b, float *c, unsigned int m, unsigned int n,
                                       unsigned int k)
{
    size_t row = (size_t)blockIdx.y * 16 + threadIdx.y, col = (size_t)blockIdx.x * 16 + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (size_t i = 0; i < k; ++i)
            sum = fmaf(a[row * k + i], b[i * n + col], sum);
        c[row * n + col] = sum;
    }
}

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

// The register-blocked kernels, one template over the tile (the Rust SgemmTile / TileShape): a BM x BN tile
// of C per block of 256 threads, TM x TN per thread (one strip of 4, or two strips half a tile apart, each
// way), k-steps of BK; A's tile transposed and padded (As[kk][row], BM + 4 floats a row), two shared-memory
// stages; 1-D block of 256, grid (ceil(n / BN), ceil(m / BM)), 2 * (BK * (BM + 4) + BK * BN) * 4 bytes of
// dynamic shared memory. A is staged by two threads a row (one float4 per 8 of depth), B by BN / 4 threads a
// row (one float4 per 4 * 256 / BN rows of depth).
#define SGEMM_THREADS 256

template <int BM_, int BN_, int BK_, int TM_, int TN_> struct SgemmTile {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
    static constexpr int A_PITCH = BM + 4;
    static constexpr int A_TILE = BK * A_PITCH;
    static constexpr int STAGE = A_TILE + BK * BN;
    static constexpr int A_STRIPS = BK / 8;
    static constexpr int B_PASS_ROWS = 4 * SGEMM_THREADS / BN;
    static constexpr int B_STRIPS = BK / B_PASS_ROWS;
    static constexpr int THREAD_COLS = BN / TN;
    static_assert(2 * BM == SGEMM_THREADS && (BK == 8 || BK == 16), "A: two threads a row, 1 or 2 strips");
    static_assert(B_STRIPS >= 1 && B_STRIPS <= 2 && B_PASS_ROWS * B_STRIPS == BK, "B: one or two strips");
    static_assert((BM / TM) * (BN / TN) == SGEMM_THREADS && (TM == 4 || TM == 8) && (TN == 4 || TN == 8),
                  "register tile");
};
typedef SgemmTile<128, 128, 8, 8, 8> Tile128x128;
typedef SgemmTile<128, 64, 16, 8, 4> Tile128x64;

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

// Writes one thread's staged strips into stage `stage`: A transposed, B as float4s.
template <typename T>
__device__ __forceinline__ void stage_tiles(float *shared, size_t stage, size_t a_row, size_t a_k, size_t b_k,
                                            size_t b_col, const float4 *a_strips, const float4 *b_strips)
{
    float *a_tile = shared + stage * T::STAGE;
#pragma unroll
    for (int s = 0; s < T::A_STRIPS; ++s) {
        a_tile[(a_k + 8 * s + 0) * T::A_PITCH + a_row] = a_strips[s].x;
        a_tile[(a_k + 8 * s + 1) * T::A_PITCH + a_row] = a_strips[s].y;
        a_tile[(a_k + 8 * s + 2) * T::A_PITCH + a_row] = a_strips[s].z;
        a_tile[(a_k + 8 * s + 3) * T::A_PITCH + a_row] = a_strips[s].w;
    }
#pragma unroll
    for (int s = 0; s < T::B_STRIPS; ++s)
        *reinterpret_cast<float4 *>(a_tile + T::A_TILE + (b_k + T::B_PASS_ROWS * s) * T::BN + b_col) = b_strips[s];
}

// What the body may assume of a block's edges (the Rust Edges types): GUARDED, any block of any shape (every
// load and store guarded, one tile per trip); WHOLE_TILES, m, n and k multiples of the tile sizes (no guards,
// float4 throughout); INSIDE / INSIDE_VECTOR, a block wholly inside C of any k (the whole k tiles unguarded,
// float by float / as float4s where k and n are multiples of 4, then the partial last k tile guarded in k).
enum Edges { GUARDED, WHOLE_TILES, INSIDE, INSIDE_VECTOR };

// How a block writes its tile of C (the Rust Output types): STORE_TILE, its tile over all of k, stored;
// ADD_PARTIAL_TILE, split-K: block z of gridDim.z multiplies only its span of k (split_k_span) and adds its
// partial tile into C (zeroed by the host first) with atomicAdd, which compiles to red.global.add.f32.
enum Output { STORE_TILE, ADD_PARTIAL_TILE };

// The span [begin, end) of k that split `split` of `splits` multiplies (the Rust split_k_span): the
// ceil(k / depth) tiles dealt out in contiguous runs of ceil(tiles / splits); empty past the last tile.
__device__ __forceinline__ void split_k_span(size_t k, size_t depth, size_t split, size_t splits, size_t *begin,
                                             size_t *end)
{
    size_t per_split = ((k + depth - 1) / depth + splits - 1) / splits * depth;
    *begin = split * per_split < k ? split * per_split : k;
    *end = *begin + per_split < k ? *begin + per_split : k;
}

// The body for one tile and one case of edges (see the Rust register_blocked): every case but GUARDED runs
// its whole k tiles two per trip with constant stage offsets.
template <typename E, typename T, Edges X, Output O = STORE_TILE>
__device__ __forceinline__ void register_blocked_tiles(const E *a, const E *b, float *c, unsigned int m_,
                                                       unsigned int n_, unsigned int k_)
{
    constexpr bool Guarded = X == GUARDED, WholeK = X == WHOLE_TILES, Vector = X == WHOLE_TILES || X == INSIDE_VECTOR;
    constexpr bool SplitK = O == ADD_PARTIAL_TILE;
    extern __shared__ float4 shared4[];
    float *shared = reinterpret_cast<float *>(shared4);
    size_t tid = threadIdx.x, m = m_, n = n_, k = k_;
    size_t block_row = (size_t)blockIdx.y * T::BM, block_col = (size_t)blockIdx.x * T::BN;
    // Row starts are 16-byte aligned only when the row length is a multiple of 4.
    bool vector_a = k % 4 == 0, vector_b = n % 4 == 0, vector_c = n % 4 == 0;
    // The part of k this block multiplies: all of it, or (split-K) its split's span; k stays A's row length.
    size_t k_begin = 0, k_end = k;
    if (SplitK)
        split_k_span(k, T::BK, blockIdx.z, gridDim.z, &k_begin, &k_end);

    // Staging: A[block_row + a_row][k0 + a_k + 8 s ..][..4] and B[k0 + b_k + B_PASS_ROWS s][block_col + b_col ..][..4].
    size_t a_row = tid / 2, a_k = tid % 2 * 4;
    size_t b_k = tid / (T::BN / 4), b_col = tid % (T::BN / 4) * 4;
    bool a_row_inside = block_row + a_row < m;
    // Compute: rows 4 ty + {0..4} (+ BM / 2 when TM = 8) and columns 4 tx + {0..4} (+ BN / 2 when TN = 8).
    size_t tx = tid % T::THREAD_COLS, ty = tid / T::THREAD_COLS;
    float acc[T::TM][T::TN];
#pragma unroll
    for (int i = 0; i < T::TM; ++i)
#pragma unroll
        for (int j = 0; j < T::TN; ++j)
            acc[i][j] = 0.0f;

    // The unguarded loads' per-thread starts, A[block_row + a_row][a_k] and B[b_k][block_col + b_col] (the Rust
    // a_thread, b_thread): each tile's loads are one offset from them. Formed for every block (as pointers, so
    // that the loads stay ld.global); only the unguarded cases read through them, where the caller's contract
    // puts them inside A and B.
    const E *a_thread = a + (block_row + a_row) * k + a_k;
    const E *b_thread = b + b_k * n + block_col + b_col;
    // The strips of the tile at k0: guarded (load_strip's guards), or, unguarded, a tile inside A and B (the
    // caller's contract) as float4s (Vector) or float by float.
    auto strips = [&](size_t k0, bool guarded, float4 *a_strips, float4 *b_strips) {
#pragma unroll
        for (int s = 0; s < T::A_STRIPS; ++s) {
            size_t a_at = k0 + a_k + 8 * s, a_index = (block_row + a_row) * k + a_at, at = k0 + 8 * s;
            a_strips[s] = guarded  ? load_strip(a, a_index, a_row_inside, a_at, k_end, vector_a)
                          : Vector ? load4(a_thread, at)
                                   : make_float4(load1(a_thread, at), load1(a_thread, at + 1),
                                                 load1(a_thread, at + 2), load1(a_thread, at + 3));
        }
#pragma unroll
        for (int s = 0; s < T::B_STRIPS; ++s) {
            size_t b_at = k0 + b_k + T::B_PASS_ROWS * s, b_index = b_at * n + block_col + b_col;
            size_t at = (k0 + T::B_PASS_ROWS * s) * n;
            b_strips[s] = guarded  ? load_strip(b, b_index, b_at < k_end, block_col + b_col, n, vector_b)
                          : Vector ? load4(b_thread, at)
                                   : make_float4(load1(b_thread, at), load1(b_thread, at + 1),
                                                 load1(b_thread, at + 2), load1(b_thread, at + 3));
        }
    };
    // The tile loops' loads: guarded in the GUARDED case only.
    auto fetch = [&](size_t k0, float4 *a_strips, float4 *b_strips) { strips(k0, Guarded, a_strips, b_strips); };
    // One k step's fragments (A's column kk, B's row kk of this thread's strips) from `stage`.
    struct Fragments {
        float a[T::TM], b[T::TN];
    };
    auto fragments = [&](size_t stage, int kk) {
        Fragments f;
        const float4 *a_frags = shared4 + (stage * T::STAGE + 4 * ty) / 4;
        const float4 *b_frags = shared4 + (stage * T::STAGE + T::A_TILE + 4 * tx) / 4;
#pragma unroll
        for (int s = 0; s < T::TM / 4; ++s) {
            float4 strip = a_frags[(kk * T::A_PITCH + s * T::BM / 2) / 4];
            f.a[4 * s] = strip.x, f.a[4 * s + 1] = strip.y, f.a[4 * s + 2] = strip.z, f.a[4 * s + 3] = strip.w;
        }
#pragma unroll
        for (int s = 0; s < T::TN / 4; ++s) {
            float4 strip = b_frags[(kk * T::BN + s * T::BN / 2) / 4];
            f.b[4 * s] = strip.x, f.b[4 * s + 1] = strip.y, f.b[4 * s + 2] = strip.z, f.b[4 * s + 3] = strip.w;
        }
        return f;
    };
    auto fma_step = [&](const Fragments &f) {
#pragma unroll
        for (int i = 0; i < T::TM; ++i)
#pragma unroll
            for (int j = 0; j < T::TN; ++j)
                acc[i][j] = fmaf(f.a[i], f.b[j], acc[i][j]);
    };
    // A stage's first BK - 1 k steps, each step's FMAs after the next step's fragments are requested; returns
    // the last step's fragments, whose FMAs the caller runs after staging the next tile, the barrier and the
    // request of the next stage's first fragments (the Rust multiply_stage).
    auto multiply_stage = [&](size_t stage, Fragments current) {
#pragma unroll
        for (int kk = 0; kk < T::BK - 1; ++kk) {
            Fragments next = fragments(stage, kk + 1);
            fma_step(current);
            current = next;
        }
        return current;
    };
    float4 a_strips[T::A_STRIPS], b_strips[T::B_STRIPS];
    // The loop's tiles: every tile (GUARDED), or the whole ones.
    // The tiles as unsigned int (k is), so the whole-tile loop compares 32-bit values.
    unsigned int tiles = Guarded ? (k_end - k_begin + T::BK - 1) / T::BK : (k_end - k_begin) / T::BK;
    Fragments first;
    // One tile: fetch the tile at next_k0, multiply this stage but its last k step, store the fetched tile into
    // the other stage, pass the barrier, request its first fragments, then the last k step's FMAs.
    auto step = [&](size_t stage, size_t next_k0) {
        float4 next_a[T::A_STRIPS], next_b[T::B_STRIPS];
        fetch(next_k0, next_a, next_b);
        Fragments last = multiply_stage(stage, first);
        stage_tiles<T>(shared, 1 - stage, a_row, a_k, b_k, b_col, next_a, next_b);
        __syncthreads();
        first = fragments(1 - stage, 0);
        fma_step(last);
    };
    auto k0 = [&](unsigned int tile) { return k_begin + (size_t)tile * T::BK; };
    if (Guarded) {
        fetch(k_begin, a_strips, b_strips);
        stage_tiles<T>(shared, 0, a_row, a_k, b_k, b_col, a_strips, b_strips);
        __syncthreads();
        first = fragments(0, 0);
        // Past the last tile every strip is outside A and B (or past the span): zeros, no loads.
        for (unsigned int tile = 0; tile < tiles; ++tile)
            step(tile % 2, k0(tile + 1));
    } else {
        // Whole tiles have at least one k tile, but a split's span may be empty.
        if ((WholeK && !SplitK) || tiles > 0) {
            fetch(k_begin, a_strips, b_strips);
            // Two tiles per trip with constant stages; an odd count runs its first tile alone, from stage 1, so
            // that the pairs after it run stages 0 and 1 (the Rust loop says what this measured). The prefetch
            // past the last whole tile loads that one again (never multiplied), so no branch skips loads.
            // (The first stage a constant in each branch: with the stage chosen at run time, the Rust build
            // spilled 16 bytes.)
            unsigned int tile = 0, last_tile = tiles > 0 ? tiles - 1 : 0;
            if (tiles % 2 == 1) {
                stage_tiles<T>(shared, 1, a_row, a_k, b_k, b_col, a_strips, b_strips);
                __syncthreads();
                first = fragments(1, 0);
                step(1, k0(1 < last_tile ? 1 : last_tile));
                tile = 1;
            } else {
                stage_tiles<T>(shared, 0, a_row, a_k, b_k, b_col, a_strips, b_strips);
                __syncthreads();
                first = fragments(0, 0);
            }
            for (; tile < tiles; tile += 2) {
                step(0, k0(tile + 1));
                step(1, k0(tile + 2 < last_tile ? tile + 2 : last_tile));
            }
        }
        if (!WholeK && (k_end - k_begin) % T::BK != 0) {
            // The partial last k tile, guarded, not overlapped. The loop's last step (stage 1) read stage 0's
            // first fragments after its barrier, so a barrier comes first.
            __syncthreads();
            strips(k0(tiles), true, a_strips, b_strips);
            stage_tiles<T>(shared, 0, a_row, a_k, b_k, b_col, a_strips, b_strips);
            __syncthreads();
            fma_step(multiply_stage(0, fragments(0, 0)));
        }
    }

#pragma unroll
    for (int i = 0; i < T::TM; ++i) {
        size_t row = block_row + 4 * ty + i % 4 + (i / 4) * (T::BM / 2);
#pragma unroll
        for (int half = 0; half < T::TN / 4; ++half) {
            size_t col = block_col + 4 * tx + half * (T::BN / 2);
            size_t index = row * n + col;
            // Unguarded cases: the block is inside C (row < m, col + 4 <= n).
            if (SplitK) {
                // One atomic addition per element: the other splits add into the same elements.
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (!Guarded || (row < m && col + j < n))
                        atomicAdd(c + index + j, acc[i][4 * half + j]);
            } else if (WholeK || vector_c) {
                if (!Guarded || (row < m && col < n))
                    *reinterpret_cast<float4 *>(c + index) = make_float4(
                        acc[i][4 * half], acc[i][4 * half + 1], acc[i][4 * half + 2], acc[i][4 * half + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (!Guarded || (row < m && col + j < n))
                        c[index + j] = acc[i][4 * half + j];
            }
        }
    }
}

// One case of the body as a function of its own, for register_blocked_guarded_edges: with the three cases
// inlined into one kernel, NVVM shared their common values and ptxas spilled 76 bytes (reloaded in every
// loop; ptxas 13, sm_90, under the launch bound); as calls, ptxas inlines them again but without the
// spills. (The Rust kernel, inlined, does not spill.)
template <typename E, typename T, Edges X, Output O>
__device__ __noinline__ void register_blocked_case(const E *a, const E *b, float *c, unsigned int m, unsigned int n,
                                                   unsigned int k)
{
    register_blocked_tiles<E, T, X, O>(a, b, c, m, n, k);
}

// The _guarded_edges entries' body (the Rust register_blocked_guarded_edges): a block wholly inside C runs
// INSIDE_VECTOR (k and n multiples of 4) or INSIDE, any other block GUARDED; uniform per block.
template <typename E, typename T, Output O = STORE_TILE>
__device__ __forceinline__ void register_blocked_guarded_edges(const E *a, const E *b, float *c, unsigned int m,
                                                               unsigned int n, unsigned int k)
{
    size_t rows_end = ((size_t)blockIdx.y + 1) * T::BM, cols_end = ((size_t)blockIdx.x + 1) * T::BN;
    if (rows_end <= m && cols_end <= n) {
        if (k % 4 == 0 && n % 4 == 0)
            register_blocked_case<E, T, INSIDE_VECTOR, O>(a, b, c, m, n, k);
        else
            register_blocked_case<E, T, INSIDE, O>(a, b, c, m, n, k);
    } else {
        register_blocked_case<E, T, GUARDED, O>(a, b, c, m, n, k);
    }
}

extern "C" __global__ void sgemm_register_blocked(const float *a, const float *b, float *c, unsigned int m,
                                                  unsigned int n, unsigned int k)
{
    register_blocked_tiles<float, Tile128x128, GUARDED>(a, b, c, m, n, k);
}

// m, n multiples of 128 and k of 8 (the host picks it whenever the shape allows).
extern "C" __global__ void sgemm_register_blocked_whole_tiles(const float *a, const float *b, float *c, unsigned int m,
                                                              unsigned int n, unsigned int k)
{
    register_blocked_tiles<float, Tile128x128, WHOLE_TILES>(a, b, c, m, n, k);
}

// The 128 x 64 x 16 tile, 8 x 4 per thread: twice the blocks, for problems where 128 x 128 leaves SMs idle.
extern "C" __global__ void sgemm_register_blocked_128x64(const float *a, const float *b, float *c, unsigned int m,
                                                         unsigned int n, unsigned int k)
{
    register_blocked_tiles<float, Tile128x64, GUARDED>(a, b, c, m, n, k);
}

// m a multiple of 128, n of 64 and k of 16.
extern "C" __global__ void sgemm_register_blocked_128x64_whole_tiles(const float *a, const float *b, float *c,
                                                                     unsigned int m, unsigned int n, unsigned int k)
{
    register_blocked_tiles<float, Tile128x64, WHOLE_TILES>(a, b, c, m, n, k);
}

// Guards only where a block crosses an edge of C (any shape; the host picks it where the shape is not made of
// whole tiles): blocks inside C run the whole-tile loop over their whole k tiles, edge blocks the guarded one.
extern "C" __global__ void sgemm_register_blocked_guarded_edges(const float *a, const float *b, float *c,
                                                                unsigned int m, unsigned int n, unsigned int k)
{
    register_blocked_guarded_edges<float, Tile128x128>(a, b, c, m, n, k);
}

// The same on the 128 x 64 x 16 tile.
extern "C" __global__ void sgemm_register_blocked_128x64_guarded_edges(const float *a, const float *b, float *c,
                                                                       unsigned int m, unsigned int n,
                                                                       unsigned int k)
{
    register_blocked_guarded_edges<float, Tile128x64>(a, b, c, m, n, k);
}

// Split-K on the 128 x 64 x 16 tile (the Rust sgemm_register_blocked_128x64_split_k): grid (ceil(n / 64),
// ceil(m / 128), splits), C zeroed by the host first; block z adds its partial tile over its span of k with
// atomicAdd. Two splits: the sum is independent of the order of the additions (0 + a + b == 0 + b + a); more
// splits: not. red.global.add.f32 flushes subnormals to zero.
extern "C" __global__ void sgemm_register_blocked_128x64_split_k(const float *a, const float *b, float *c,
                                                                 unsigned int m, unsigned int n, unsigned int k)
{
    register_blocked_guarded_edges<float, Tile128x64, ADD_PARTIAL_TILE>(a, b, c, m, n, k);
}

// The warp-tiled kernels (the Rust warp_tiled body, SgemmWarpTile): a BM x BN tile of C per block, staged BK
// deep, cut into WM x WN warp tiles, one per warp; each lane owns 8 x 8 outputs as 2 x 2 sub-tiles of 4 x 4,
// WM / 2 rows and WN / 2 columns apart. A is staged transposed and padded (As[kk][row], BM + 4 floats a row),
// two threads a row; B as float4s, BN / 4 threads a row; two shared stages, the next tile staged in LOADS
// slices (one float4 of A and one of B a thread), each slice's loads issued before BK / LOADS k steps of FMAs
// and stored into the other stage after them. 1-D block of 32 * (BM / WM) * (BN / WN) threads, grid
// (ceil(n / BN), ceil(m / BM)), 2 * (BK * (BM + 4) + BK * BN) * 4 bytes of dynamic shared memory.
template <int BM_, int BN_, int BK_, int WM_, int WN_> struct WarpTile {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
    static constexpr int THREADS = 32 * (BM / WM) * (BN / WN);
    static constexpr int A_PITCH = BM + 4;
    static constexpr int A_TILE = BK * A_PITCH;
    static constexpr int STAGE = A_TILE + BK * BN;
    static constexpr int LOADS = BM * BK / (4 * THREADS);
    static constexpr int STEPS = BK / LOADS;
    static constexpr int LANE_COLS = WN / 8;
    static constexpr int WARP_COLS = BN / WN;
    static_assert((WM / 8) * (WN / 8) == 32, "32 lanes of 4 x 4 per warp sub-tile");
    static_assert(BM == BN && BK % 8 == 0 && LOADS >= 1 && LOADS <= 4 && BK % LOADS == 0, "staging slices");
    static_assert((2 * BM) % THREADS == 0 && THREADS % (BN / 4) == 0, "whole rows of strips per pass");
};
typedef WarpTile<128, 128, 16, 64, 32> WarpTile128x128;

template <typename T, bool WholeTiles>
__device__ __forceinline__ void warp_tiled_tiles(const float *a, const float *b, float *c, unsigned int m_,
                                                 unsigned int n_, unsigned int k_)
{
    extern __shared__ float4 shared4[];
    float *shared = reinterpret_cast<float *>(shared4);
    size_t tid = threadIdx.x, m = m_, n = n_, k = k_;
    size_t block_row = (size_t)blockIdx.y * T::BM, block_col = (size_t)blockIdx.x * T::BN;
    bool vector_a = k % 4 == 0, vector_b = n % 4 == 0, vector_c = n % 4 == 0;

    // Staging: A strip q = tid + THREADS s is row (q / 2) % BM, k offset 4 (q % 2) + 8 (q / 2BM); B strip q is
    // k row q / (BN / 4), columns 4 (q % (BN / 4)) ..
    auto a_row = [&](int s) { return ((tid + (size_t)T::THREADS * s) / 2) % T::BM; };
    auto a_k = [&](int s) { return 4 * (tid % 2) + 8 * ((tid + (size_t)T::THREADS * s) / (2 * T::BM)); };
    auto b_k = [&](int s) { return (tid + (size_t)T::THREADS * s) / (T::BN / 4); };
    size_t b_col = 4 * (tid % (T::BN / 4));
    auto a_strip = [&](int s, size_t k0) {
        size_t row = block_row + a_row(s), at = k0 + a_k(s);
        if (WholeTiles)
            return reinterpret_cast<const float4 *>(a)[row * (k / 4) + at / 4];
        return load_strip(a, row * k + at, row < m, at, k, vector_a);
    };
    auto b_strip = [&](int s, size_t k0) {
        size_t at = k0 + b_k(s);
        if (WholeTiles)
            return reinterpret_cast<const float4 *>(b)[at * (n / 4) + (block_col + b_col) / 4];
        return load_strip(b, at * n + block_col + b_col, at < k, block_col + b_col, n, vector_b);
    };
    auto stage_strips = [&](size_t base, int s, float4 a_values, float4 b_values) {
        float *a_at = shared + base + a_k(s) * T::A_PITCH + a_row(s);
        a_at[0] = a_values.x, a_at[T::A_PITCH] = a_values.y, a_at[2 * T::A_PITCH] = a_values.z,
        a_at[3 * T::A_PITCH] = a_values.w;
        *reinterpret_cast<float4 *>(shared + base + T::A_TILE + b_k(s) * T::BN + b_col) = b_values;
    };

    // Compute: warp w owns warp tile (w / WARP_COLS, w % WARP_COLS); lane l rows 4 (l / LANE_COLS) + {0..4} +
    // {0, WM / 2} and columns 4 (l % LANE_COLS) + {0..4} + {0, WN / 2} of it.
    size_t warp = tid / 32, lane = tid % 32;
    size_t row_in_block = (warp / T::WARP_COLS) * T::WM + 4 * (lane / T::LANE_COLS);
    size_t col_in_block = (warp % T::WARP_COLS) * T::WN + 4 * (lane % T::LANE_COLS);
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;
    auto multiply_steps = [&](size_t base, int first) {
        const float *a_base = shared + base + row_in_block, *b_base = shared + base + T::A_TILE + col_in_block;
#pragma unroll
        for (int step = 0; step < T::STEPS; ++step) {
            int kk = first + step;
            float a_frag[8], b_frag[8];
#pragma unroll
            for (int s = 0; s < 2; ++s) {
                float4 sa = *reinterpret_cast<const float4 *>(a_base + kk * T::A_PITCH + s * T::WM / 2);
                float4 sb = *reinterpret_cast<const float4 *>(b_base + kk * T::BN + s * T::WN / 2);
                a_frag[4 * s] = sa.x, a_frag[4 * s + 1] = sa.y, a_frag[4 * s + 2] = sa.z, a_frag[4 * s + 3] = sa.w;
                b_frag[4 * s] = sb.x, b_frag[4 * s + 1] = sb.y, b_frag[4 * s + 2] = sb.z, b_frag[4 * s + 3] = sb.w;
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
        }
    };

    unsigned int tiles = (unsigned int)((k + T::BK - 1) / T::BK);
#pragma unroll
    for (int s = 0; s < T::LOADS; ++s)
        stage_strips(0, s, a_strip(s, 0), b_strip(s, 0));
    __syncthreads();
    size_t read = 0;
    // Whole tiles: every tile but the last prefetches the next, the last (peeled) only multiplies. Guarded:
    // the prefetch past the last tile reads zeros without loads.
    for (unsigned int tile = 1; WholeTiles ? tile < tiles : tile <= tiles; ++tile) {
        size_t k0 = (size_t)tile * T::BK, write = T::STAGE - read;
#pragma unroll
        for (int s = 0; s < T::LOADS; ++s) {
            float4 a_values = a_strip(s, k0), b_values = b_strip(s, k0);
            multiply_steps(read, s * T::STEPS);
            stage_strips(write, s, a_values, b_values);
        }
        __syncthreads();
        read = write;
    }
    if (WholeTiles) {
#pragma unroll
        for (int s = 0; s < T::LOADS; ++s)
            multiply_steps(read, s * T::STEPS);
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        size_t row = block_row + row_in_block + i % 4 + (i / 4) * (T::WM / 2);
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            size_t col = block_col + col_in_block + half * (T::WN / 2);
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

// 128 x 128 x 16, warps of 64 x 32, 256 threads: any m, n, k.
extern "C" __global__ void sgemm_warp_tiled(const float *a, const float *b, float *c, unsigned int m, unsigned int n,
                                            unsigned int k)
{
    warp_tiled_tiles<WarpTile128x128, false>(a, b, c, m, n, k);
}

// m, n multiples of 128 and k of 16.
extern "C" __global__ void sgemm_warp_tiled_whole_tiles(const float *a, const float *b, float *c, unsigned int m,
                                                        unsigned int n, unsigned int k)
{
    warp_tiled_tiles<WarpTile128x128, true>(a, b, c, m, n, k);
}

// A and B stored as IEEE binary16 bits, widened to float when staged; float accumulation and C.
extern "C" __global__ void hgemm_f16_storage(const unsigned short *a, const unsigned short *b, float *c,
                                             unsigned int m, unsigned int n, unsigned int k)
{
    register_blocked_tiles<unsigned short, Tile128x128, GUARDED>(a, b, c, m, n, k);
}

extern "C" __global__ void hgemm_f16_storage_whole_tiles(const unsigned short *a, const unsigned short *b, float *c,
                                                         unsigned int m, unsigned int n, unsigned int k)
{
    register_blocked_tiles<unsigned short, Tile128x128, WHOLE_TILES>(a, b, c, m, n, k);
}
