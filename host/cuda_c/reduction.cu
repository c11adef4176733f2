// The array sum (kernels-gpu/src/reduction/): one partial sum per block, the host adds them.

// Block tree in shared memory, sequential addressing; two elements per thread while loading.
extern "C" __global__ void reduce_block_tree(const float *x, unsigned int n, float *partials)
{
    extern __shared__ float sums[];
    unsigned int tid = threadIdx.x, block = blockDim.x;
    unsigned int first = blockIdx.x * 2 * block + tid;
    float sum = first < n ? x[first] : 0.0f;
    if (first + block < n)
        sum += x[first + block];
    sums[tid] = sum;
    for (unsigned int stride = block / 2; stride > 0; stride /= 2) {
        __syncthreads();
        if (tid < stride)
            sums[tid] = sums[tid] + sums[tid + stride];
    }
    if (tid == 0)
        partials[blockIdx.x] = sums[0];
}

static __device__ __forceinline__ float reduction_warp_sum(float value)
{
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Grid-stride sum per thread, then a warp-shuffle tree and one shared-memory step.
extern "C" __global__ void reduce_grid_stride_shuffle(const float *x, unsigned int n, float *partials)
{
    extern __shared__ float warp_sums[];
    unsigned int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, warps = blockDim.x / 32;
    unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long first = (unsigned long long)blockIdx.x * blockDim.x + tid, vectors = n / 4;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    float sum = 0.0f;
    for (unsigned long long v = first; v < vectors; v += step) {
        float4 e = x4[v];
        sum += (e.x + e.y) + (e.z + e.w);
    }
    if (first < n % 4)
        sum += x[4 * vectors + first];
    sum = reduction_warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        float total = reduction_warp_sum(tid < warps ? warp_sums[tid] : 0.0f);
        if (tid == 0)
            partials[blockIdx.x] = total;
    }
}
