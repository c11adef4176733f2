// The array sum's twins (kernels-gpu/src/reduction/): one partial sum per work-group, the host
// adds them. OpenCL C 1.2 has no shuffles, so both finish with a tree in __local memory
// (sequential addressing); the work-group size is a power of two.

static float reduction_local_tree(__local float *sums, float value)
{
    uint tid = get_local_id(0);
    sums[tid] = value;
    for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid < stride)
            sums[tid] = sums[tid] + sums[tid + stride];
    }
    return sums[0];
}

__kernel void reduce_block_tree(__global const float *x, uint n, __global float *partials, __local float *sums)
{
    uint tid = get_local_id(0), block = get_local_size(0);
    uint first = get_group_id(0) * 2 * block + tid;
    float sum = first < n ? x[first] : 0.0f;
    if (first + block < n)
        sum += x[first + block];
    float total = reduction_local_tree(sums, sum);
    if (tid == 0)
        partials[get_group_id(0)] = total;
}

__kernel void reduce_grid_stride_shuffle(__global const float *x, uint n, __global float *partials,
                                         __local float *sums)
{
    ulong step = (ulong)get_num_groups(0) * get_local_size(0);
    ulong first = (ulong)get_group_id(0) * get_local_size(0) + get_local_id(0), vectors = n / 4;
    float sum = 0.0f;
    for (ulong v = first; v < vectors; v += step) {
        float4 e = vload4(v, x);
        sum += (e.x + e.y) + (e.z + e.w);
    }
    if (first < n % 4)
        sum += x[4 * vectors + first];
    float total = reduction_local_tree(sums, sum);
    if (get_local_id(0) == 0)
        partials[get_group_id(0)] = total;
}
