// A background load for the slow-node check (gpu-checks/node_full.sh): keeps
// one GPU busy copying 1 GiB back and forth until the file named by argv[1]
// is gone or argv[2] seconds have passed, so a `ptxsuite run` on that GPU at
// the same time shares it (the two contexts take turns) and measures slow.
// Build on the GPU machine: nvcc -O2 -o /tmp/background_load gpu-checks/background_load.cu
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sys/stat.h>

__global__ void copy4(float4 *out, const float4 *in, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: background_load FLAG_FILE SECONDS\n");
        return 2;
    }
    const size_t n = (1u << 30) / sizeof(float4);
    float4 *a, *b;
    if (cudaMalloc(&a, n * sizeof(float4)) != cudaSuccess || cudaMalloc(&b, n * sizeof(float4)) != cudaSuccess) {
        fprintf(stderr, "background_load: cudaMalloc failed\n");
        return 1;
    }
    const time_t end = time(nullptr) + atoi(argv[2]);
    struct stat st;
    long launches = 0;
    while (time(nullptr) < end && stat(argv[1], &st) == 0) {
        for (int k = 0; k < 50; k++) {
            copy4<<<132 * 8, 256>>>(b, a, n);
            copy4<<<132 * 8, 256>>>(a, b, n);
            launches += 2;
        }
        cudaDeviceSynchronize();
    }
    printf("background_load: %ld copies of 1 GiB\n", launches);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
