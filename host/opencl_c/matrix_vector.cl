// OpenCL C twins of ptxsuite's matrix-vector kernels (kernels-gpu/src/matrix_vector/):
// the OpenCL whitepaper's Listings 2-7, in the OpenCL C they were written in,
// with the same fixes as the Rust and CUDA C versions (row guard in Listing 2,
// 64-bit row offsets, no warp-synchronous shared memory in Listing 7) and the
// same launch shapes: 1-D work-groups of 256, `block_threads * 4` bytes of
// __local memory for Listings 4-7, passed as the last kernel argument
// (clSetKernelArg with a size and no value), as the whitepaper does.
// Products are accumulated with fma(), as the Rust kernels do and as nvcc
// contracts the CUDA C twins' `sum += a * b`.
//
// The two "warp" kernels (Listing 7 and the warp-per-row version) need a
// reduction over 32 work-items. OpenCL C 1.2, which NVIDIA's OpenCL offers,
// has no shuffles and no sub-groups, so by default (no MATVEC_SUB_GROUPS) they
// reduce each 32-work-item segment in __local memory with work-group barriers:
// that is the build on NVIDIA's OpenCL (H100: OpenCL 3.0 platform, OpenCL C
// 1.2, no cl_khr_subgroups) and on PoCL's CPU device, and what their tests ran
// (OpenClTwins::reduction says which). Where the device offers sub-groups
// (cl_khr_subgroups, or OpenCL C 3.0 with __opencl_c_subgroups) the host builds
// with -D MATVEC_SUB_GROUPS, and the reduction is sub_group_reduce_add over
// the device's sub-group (its SIMD width, 32 on NVIDIA hardware), which is
// the modern Listing 7 of the Rust and CUDA C versions. Expected: the
// __local-memory form pays a barrier per reduction step that shuffles avoid,
// so Listing 7 and the warp-per-row version should trail their Rust and CUDA C
// twins more than Listings 2-6 do; to be measured.

#define ROW_DOT_CHUNK 8
#define WARP_SIZE 32

#if defined(MATVEC_SUB_GROUPS) && defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

// Row y's whole dot product by one work-item (Listings 2 and 3), as the Rust
// row_dot: 8 elements (one 32-byte sector) loaded first, then their FMAs in
// column order; the sum equals the plain loop's bit for bit.
float row_dot(__global const float *m, uint width, uint y, __global const float *v)
{
    __global const float *row = m + (long)y * width;
    float dot = 0.0f;
    uint x = 0;
    for (; x + ROW_DOT_CHUNK <= width; x += ROW_DOT_CHUNK) {
        float row_part[ROW_DOT_CHUNK], v_part[ROW_DOT_CHUNK];
        for (int k = 0; k < ROW_DOT_CHUNK; ++k) {
            row_part[k] = row[x + k];
            v_part[k] = v[x + k];
        }
        for (int k = 0; k < ROW_DOT_CHUNK; ++k)
            dot = fma(row_part[k], v_part[k], dot);
    }
    for (; x < width; ++x)
        dot = fma(row[x], v[x], dot);
    return dot;
}

// This work-item's share of row y: elements local_id, local_id + local_size, ... (coalesced).
float strided_partial_dot(__global const float *m, uint width, uint y, __global const float *v)
{
    __global const float *row = m + (long)y * width;
    float sum = 0.0f;
    for (uint x = get_local_id(0); x < width; x += get_local_size(0))
        sum = fma(row[x], v[x], sum);
    return sum;
}

// Listing 2 (with the missing y < height guard).
__kernel void matvec_row_per_thread(__global const float *m, uint width, uint height,
                                    __global const float *v, __global float *w)
{
    uint y = get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (y >= height)
        return;
    w[y] = row_dot(m, width, y, v);
}

// Listing 3: rows distributed by a grid-stride loop.
__kernel void matvec_grid_stride_rows(__global const float *m, uint width, uint height,
                                      __global const float *v, __global float *w)
{
    uint step = get_num_groups(0) * get_local_size(0);
    for (uint y = get_group_id(0) * get_local_size(0) + get_local_id(0); y < height; y += step)
        w[y] = row_dot(m, width, y, v);
}

// Listing 4: one work-group per row, the first work-item adds the partial sums.
__kernel void matvec_block_serial_sum(__global const float *m, uint width, uint height,
                                      __global const float *v, __global float *w,
                                      __local float *partial)
{
    uint tid = get_local_id(0);
    for (uint y = get_group_id(0); y < height; y += get_num_groups(0)) {
        partial[tid] = strided_partial_dot(m, width, y, v);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid == 0) {
            float dot = 0.0f;
            for (uint t = 0; t < get_local_size(0); ++t)
                dot += partial[t];
            w[y] = dot;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Listing 5: tree reduction, interleaved addressing (bank conflicts).
__kernel void matvec_tree_interleaved(__global const float *m, uint width, uint height,
                                      __global const float *v, __global float *w,
                                      __local float *partial)
{
    uint tid = get_local_id(0), n = get_local_size(0);
    for (uint y = get_group_id(0); y < height; y += get_num_groups(0)) {
        partial[tid] = strided_partial_dot(m, width, y, v);
        for (uint stride = 1; stride < n; stride *= 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            uint index = 2 * stride * tid;
            if (index < n)
                partial[index] += partial[index + stride];
        }
        if (tid == 0)
            w[y] = partial[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Listing 6: tree reduction, sequential addressing (no bank conflicts).
__kernel void matvec_tree_sequential(__global const float *m, uint width, uint height,
                                     __global const float *v, __global float *w,
                                     __local float *partial)
{
    uint tid = get_local_id(0);
    for (uint y = get_group_id(0); y < height; y += get_num_groups(0)) {
        partial[tid] = strided_partial_dot(m, width, y, v);
        for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (tid < stride)
                partial[tid] += partial[tid + stride];
        }
        if (tid == 0)
            w[y] = partial[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#if defined(MATVEC_SUB_GROUPS)

// Listing 7 with sub-groups: each sub-group reduces its partial sums in
// registers, its first work-item stores one value, and the first sub-group
// reduces those (a loop covers sub-groups narrower than their count).
__kernel void matvec_warp_shuffle(__global const float *m, uint width, uint height,
                                  __global const float *v, __global float *w,
                                  __local float *warp_sums)
{
    uint group = get_sub_group_id(), lane = get_sub_group_local_id();
    uint groups = get_num_sub_groups(), group_size = get_sub_group_size();
    for (uint y = get_group_id(0); y < height; y += get_num_groups(0)) {
        float sum = sub_group_reduce_add(strided_partial_dot(m, width, y, v));
        if (lane == 0)
            warp_sums[group] = sum;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (group == 0) {
            float first = 0.0f;
            for (uint s = lane; s < groups; s += group_size)
                first += warp_sums[s];
            float total = sub_group_reduce_add(first);
            if (lane == 0)
                w[y] = total;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#else

// The sum of one 32-work-item segment's values in `scratch` (its first slot
// receives it), in __local memory: OpenCL C 1.2 has no shuffles, and the
// whitepaper's warp-synchronous version (no barrier, volatile __local) is
// not safe on GPUs since Volta. Every work-item of the work-group must call
// this (it holds work-group barriers). Leaves with a barrier, so the total
// can be read right after.
void segment_sum(__local float *scratch, uint tid, float value)
{
    uint lane = tid % WARP_SIZE;
    scratch[tid] = value;
    for (uint offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane < offset)
            scratch[tid] += scratch[tid + offset];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// Listing 7 without sub-groups: each 32-work-item segment is reduced in
// __local memory (tree, sequential addressing), then the first segment
// reduces the segment totals the same way. Needs `local_size * 4` bytes.
__kernel void matvec_warp_shuffle(__global const float *m, uint width, uint height,
                                  __global const float *v, __global float *w,
                                  __local float *scratch)
{
    uint tid = get_local_id(0), warps = get_local_size(0) / WARP_SIZE;
    for (uint y = get_group_id(0); y < height; y += get_num_groups(0)) {
        segment_sum(scratch, tid, strided_partial_dot(m, width, y, v));
        float first = tid < warps ? scratch[tid * WARP_SIZE] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        segment_sum(scratch, tid, first);
        if (tid == 0)
            w[y] = scratch[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#endif

// Warps (sub-groups, 32-work-item segments) that share a row in matvec_warp_per_row: the largest of 8, 4,
// 2 whose pieces hold at least 256 float4s (4 KB), else 1; 1 when width % 4 != 0. As kernels-gpu's
// warps_per_row (kernels-gpu/src/matrix_vector/warp_per_row.rs), which the launcher sizes the NDRange with.
uint warps_per_row(uint width)
{
    if (width % 4 != 0)
        return 1;
    uint warps = 8;
    while (warps > 1 && (width / 4) / warps < 256)
        warps /= 2;
    return warps;
}

// warps_per_row, halved until it divides the work-group's warps (the suite's 8 take it as it is; other
// sub-group counts may not); as the Rust block_row_parts.
uint block_row_parts(uint width, uint block_warps)
{
    uint parts = warps_per_row(width);
    while (parts > 1 && block_warps % parts != 0)
        parts /= 2;
    return parts;
}

// Piece `part` of `parts` of row y for this lane (`lane` of `lanes`): float4s
// [part * per, min((part + 1) * per, width / 4)), per = ceil(width / 4 / parts)
// rounded up to 8, when rows start 16-byte aligned (width % 4 == 0), the lane
// reading the piece's float4s lane, lane + lanes, ...; else (one piece) floats.
// Four float4 loads in flight per lane, then one at a time; same FMA order as
// the Rust kernel.
float warp_row_partial(__global const float *m, uint width, uint y, __global const float *v,
                       uint lane, uint lanes, uint part, uint parts)
{
    long row = (long)y * width;
    float sum = 0.0f;
    if (width % 4 == 0) {
        uint n4 = width / 4, per = ((n4 + parts - 1) / parts + 7) / 8 * 8;
        uint begin = min(n4, part * per), end = min(n4, begin + per) - begin;
        __global const float4 *m4 = (__global const float4 *)(m + row) + begin;  // the piece's float4 0
        __global const float4 *v4 = (__global const float4 *)v + begin;
        uint x = lane;
        for (; x + 3 * lanes < end; x += 4 * lanes) {  // four loads of M in flight per lane
            float4 a[4];
            for (int k = 0; k < 4; k++)
                a[k] = m4[x + k * lanes];
            for (int k = 0; k < 4; k++) {
                float4 b = v4[x + k * lanes];
                sum = fma(a[k].w, b.w, fma(a[k].z, b.z, fma(a[k].y, b.y, fma(a[k].x, b.x, sum))));
            }
        }
        for (; x < end; x += lanes) {
            float4 a = m4[x], b = v4[x];
            sum = fma(a.w, b.w, fma(a.z, b.z, fma(a.y, b.y, fma(a.x, b.x, sum))));
        }
    } else {
        for (uint x = lane; x < width; x += lanes)
            sum = fma(m[row + x], v[x], sum);
    }
    return sum;
}

#if defined(MATVEC_SUB_GROUPS)

// Beyond the whitepaper: one sub-group per row (block_row_parts sub-groups per
// wide row, each a piece), float4 loads, sub-group reduction. With one
// sub-group per row: no __local memory and no work-group barrier. With several:
// each sub-group's sum goes to `pieces` (a float per sub-group: the launcher
// passes local_size * 4 bytes), a barrier, the row's first sub-group adds them
// in piece order and stores the row, a barrier; the loop over the work-group's
// groups of rows is the same for every sub-group of the work-group.
__kernel void matvec_warp_per_row(__global const float *m, uint width, uint height,
                                  __global const float *v, __global float *w,
                                  __local float *pieces)
{
    uint lane = get_sub_group_local_id(), lanes = get_sub_group_size();
    uint team = get_sub_group_id(), teams = get_num_sub_groups();
    uint parts = block_row_parts(width, teams);
    uint rows_per_group = teams / parts, part = team % parts;
    uint team_count = get_num_groups(0) * rows_per_group;
    if (parts == 1) {
        for (uint y = get_group_id(0) * rows_per_group + team; y < height; y += team_count) {
            float total = sub_group_reduce_add(warp_row_partial(m, width, y, v, lane, lanes, 0, 1));
            if (lane == 0)
                w[y] = total;
        }
        return;
    }
    for (uint first_row = get_group_id(0) * rows_per_group; first_row < height; first_row += team_count) {
        uint y = first_row + team / parts;
        float sum = 0.0f;
        if (y < height)
            sum = sub_group_reduce_add(warp_row_partial(m, width, y, v, lane, lanes, part, parts));
        if (lane == 0)
            pieces[team] = sum;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane == 0 && part == 0 && y < height) {
            float total = pieces[team];
            for (uint p = 1; p < parts; p++)
                total += pieces[team + p];
            w[y] = total;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#else

// Beyond the whitepaper, without sub-groups: each 32-work-item segment
// handles one row (block_row_parts segments per wide row, each a piece), as a
// warp does in the Rust kernel, and reduces it in __local memory with
// work-group barriers (so rows advance in step across the work-group: the loop
// runs over the work-group's groups of rows, the same count for every
// work-item, and a segment past the last row adds zeros); the row's first
// segment then adds the segments' totals in piece order. Needs
// `local_size * 4` bytes of __local memory.
__kernel void matvec_warp_per_row(__global const float *m, uint width, uint height,
                                  __global const float *v, __global float *w,
                                  __local float *scratch)
{
    uint tid = get_local_id(0), lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
    uint parts = block_row_parts(width, get_local_size(0) / WARP_SIZE);
    uint rows_per_group = get_local_size(0) / WARP_SIZE / parts, part = warp % parts;
    uint team_count = get_num_groups(0) * rows_per_group;
    for (uint first_row = get_group_id(0) * rows_per_group; first_row < height; first_row += team_count) {
        uint y = first_row + warp / parts;
        float sum = y < height ? warp_row_partial(m, width, y, v, lane, WARP_SIZE, part, parts) : 0.0f;
        segment_sum(scratch, tid, sum);
        if (lane == 0 && part == 0 && y < height) {
            float total = scratch[tid];
            for (uint p = 1; p < parts; p++)
                total += scratch[tid + p * WARP_SIZE];
            w[y] = total;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#endif

#undef ROW_DOT_CHUNK
#undef WARP_SIZE
