// The CUDA C reference for `transfers`' pageable figures: cudaMemcpy from and to
// ordinary (malloc'ed, written before timing) host memory, timed by the host clock
// around each blocking copy, as the suite times its pageable copies. Built on the
// GPU machine with nvcc by gpu-checks/transfers_streams.sh.
//   pageable_reference [MiB] [samples]  → "pageable-reference H2D median min max  D2H median min max" (GB/s)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], nullptr, 10) : 256;
    int samples = argc > 2 ? atoi(argv[2]) : 33;
    size_t bytes = mib << 20;
    char *host = (char *)malloc(bytes);
    memset(host, 1, bytes);
    void *device = nullptr;
    if (cudaMalloc(&device, bytes) != cudaSuccess) { fprintf(stderr, "cudaMalloc failed\n"); return 1; }
    std::vector<double> up, down;
    for (int s = -1; s < samples; ++s) {  // s = -1: warm-up
        auto t0 = std::chrono::steady_clock::now();
        cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice);
        auto t1 = std::chrono::steady_clock::now();
        cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost);
        auto t2 = std::chrono::steady_clock::now();
        if (s >= 0) {
            up.push_back(bytes / 1e9 / std::chrono::duration<double>(t1 - t0).count());
            down.push_back(bytes / 1e9 / std::chrono::duration<double>(t2 - t1).count());
        }
    }
    printf("pageable-reference %zu MiB H2D %.2f (%.2f-%.2f) D2H %.2f (%.2f-%.2f) GB/s\n", mib, median(up),
           *std::min_element(up.begin(), up.end()), *std::max_element(up.begin(), up.end()), median(down),
           *std::min_element(down.begin(), down.end()), *std::max_element(down.begin(), down.end()));
    return 0;
}
