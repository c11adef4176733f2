// OpenCL C twin of ptxsuite's tiled_sgemm (kernels-gpu/src/matrix_multiply/tiled_sgemm.rs):
// the OpenCL Programming Guide's shared-memory matrix multiply (§2.5,
// BLOCK_SIZE 16), generalized to any m, n, k, with the same indexing and
// launch shape as the Rust kernel and its CUDA C twin: 16 x 16 work-groups
// (dimension 0 -> column), ceil(n / 16) x ceil(m / 16) of them, two 16 x 16
// tiles of __local memory, C = A * B row-major, FMA accumulation.
// Performance against the Rust and CUDA C builds: to be measured.
//
// What the guide's listing gets wrong, and what this version does instead:
// * Its host code sets globalWorkSize to { B.width / dimBlock.x, A.height /
//   dimBlock.y }: a CUDA grid in blocks (and dimBlock does not exist in the
//   OpenCL host code). OpenCL's global size counts work-items, so that NDRange
//   is 256 times too small, or rejected when not a multiple of the 16 x 16
//   local size. Here: global = (ceil(n / 16) * 16, ceil(m / 16) * 16).
// * Its kernel matrixMulKernel calls MatMul(A, B, C, As, Bs), but MatMul is
//   declared MatMul(Matrix C, Matrix A, Matrix B, ...): it computes B * C
//   and writes it over A. (The first, untiled example calls matrixMul, a function
//   it never defines.)
// * The host sets the A, B, C arguments in that order while the kernel
//   declares C first, and it never sets the two __local tile arguments
//   (clSetKernelArg with a size and a NULL value), so the launch fails with
//   CL_INVALID_KERNEL_ARGS. Here the tiles are __local arrays declared in the
//   kernel, sized at compile time like the guide's BLOCK_SIZE.
// * Dimensions must be multiples of BLOCK_SIZE ("assumed"): any other shape
//   reads and writes past the matrices. Here edge tiles are guarded: entries
//   outside A or B load as 0, and only entries inside C are stored.

#define TILED_SGEMM_TILE 16

// The guide's first, untiled example (its Figure 2-4; the listing calls a matrixMul it never
// defines): each work-item reads a row of A and a column of B from __global memory for its
// element of C. Same NDRange as tiled_sgemm, no __local memory; twin of naive_sgemm.
__kernel void naive_sgemm(__global const float *a, __global const float *b, __global float *c,
                          uint m, uint n, uint k)
{
    ulong row = (ulong)get_group_id(1) * TILED_SGEMM_TILE + get_local_id(1);
    ulong col = (ulong)get_group_id(0) * TILED_SGEMM_TILE + get_local_id(0);
    if (row < m && col < n) {
        float sum = 0.0f;
        for (ulong i = 0; i < k; ++i)
            sum = fma(a[row * k + i], b[i * n + col], sum);
        c[row * n + col] = sum;
    }
}

__kernel void tiled_sgemm(__global const float *a, __global const float *b, __global float *c,
                          uint m, uint n, uint k)
{
    __local float a_tile[TILED_SGEMM_TILE * TILED_SGEMM_TILE];
    __local float b_tile[TILED_SGEMM_TILE * TILED_SGEMM_TILE];
    uint tx = get_local_id(0), ty = get_local_id(1);
    ulong row = (ulong)get_group_id(1) * TILED_SGEMM_TILE + ty;
    ulong col = (ulong)get_group_id(0) * TILED_SGEMM_TILE + tx;
    float sum = 0.0f;
    for (ulong first = 0; first < k; first += TILED_SGEMM_TILE) {
        ulong a_col = first + tx, b_row = first + ty;
        a_tile[ty * TILED_SGEMM_TILE + tx] = row < m && a_col < k ? a[row * k + a_col] : 0.0f;
        b_tile[ty * TILED_SGEMM_TILE + tx] = b_row < k && col < n ? b[b_row * n + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = 0; i < TILED_SGEMM_TILE; ++i)
            sum = fma(a_tile[ty * TILED_SGEMM_TILE + i], b_tile[i * TILED_SGEMM_TILE + tx], sum);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}

#undef TILED_SGEMM_TILE
