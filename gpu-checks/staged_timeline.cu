// Issue #29 goal 2: where does the staged copy-and-execute pipeline (Best
// Practices Guide §3.1.2, Listing 3.3b) lose time against the guide's model
// (transfer alone + kernel alone / nStreams) as streams are added? The suite's
// pipeline (host/launchers/streams/staged_pipeline.rs), timed as runs queued
// back to back, rose about 40 µs a chunk above the model on an H100; its
// OpenCL twin, each run timed alone, about 7. This program
// rebuilds it in CUDA C with the suite's sizes (256 MiB of f32 from pinned
// memory, fma_chain with 1182 iterations, at most one full wave of 256-thread
// blocks) and measures, per stream count:
//   copies      the n chunk uploads alone, back to back on one stream;
//   depth       the suite's order: per stream, its upload then its kernel;
//   breadth     every upload issued first, then every kernel;
//   one-copy    every upload on one stream, each kernel on its own stream
//               after an event of its upload;
// each sample five runs queued back to back; then the depth order with one
// run a sample, samples back to back (depth-1) and each from an idle GPU, its
// start held behind a 1 ms sleep (idle-1); five depth runs at 16 streams
// queued at once, each run's length; and, for the depth order at 16 streams,
// each upload's and kernel's start and end from timing events beside them
// (µs from the run's start).
// Build and run on one GPU:
//   nvcc -O2 -arch=sm_90 -o /tmp/staged gpu-checks/staged_timeline.cu && /tmp/staged
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

__global__ void fma_chain(float *data, unsigned n, unsigned iterations) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float x = data[i];
        for (unsigned j = 0; j < iterations; ++j) x = fmaf(x, 0.9999f, 0.001f);
        data[i] = x;
    }
}

__global__ void sleeper(unsigned long long ns) {
    unsigned long long t0 = clock64();
    (void)t0;
    for (unsigned long long slept = 0; slept < ns; slept += 100000) __nanosleep(100000);
}

static const size_t N = 64u << 20;  // floats: 256 MiB
static const unsigned ITERATIONS = 1182, THREADS = 256, MAX_STREAMS = 16;
static unsigned wave_blocks;
static float *host, *dev;
static cudaStream_t main_stream, streams[MAX_STREAMS];
static cudaEvent_t start_ev, stop_ev, fence[MAX_STREAMS], uploaded[MAX_STREAMS];

struct Chunk {
    size_t first, len;
};
static std::vector<Chunk> chunks(unsigned n) {  // 256-element aligned chunks, the last takes the rest
    std::vector<Chunk> out;
    const size_t per = (N / n) / 256 * 256;
    for (unsigned i = 0; i < n; ++i) out.push_back({i * per, i + 1 == n ? N - i * per : per});
    return out;
}
static void upload(const Chunk &c, cudaStream_t s) {
    CHECK(cudaMemcpyAsync(dev + c.first, host + c.first, c.len * 4, cudaMemcpyHostToDevice, s));
}
static void kernel(const Chunk &c, cudaStream_t s) {
    const unsigned blocks = std::min<size_t>((c.len + THREADS - 1) / THREADS, wave_blocks);
    fma_chain<<<blocks, THREADS, 0, s>>>(dev + c.first, (unsigned)c.len, ITERATIONS);
}

enum Order { COPIES, DEPTH, BREADTH, ONE_COPY, KERNEL_ALONE };

// One fenced run: every stream waits for the start, the main stream for every stream.
static void enqueue(Order order, unsigned n) {
    auto cs = chunks(n);
    CHECK(cudaEventRecord(start_ev, main_stream));
    for (unsigned i = 0; i < (order == ONE_COPY ? MAX_STREAMS : n); ++i)
        CHECK(cudaStreamWaitEvent(streams[i], start_ev, 0));
    switch (order) {
    case COPIES:
        for (auto &c : cs) upload(c, streams[0]);
        break;
    case KERNEL_ALONE:
        for (auto &c : cs) kernel(c, streams[0]);
        break;
    case DEPTH:
        for (unsigned i = 0; i < n; ++i) upload(cs[i], streams[i]), kernel(cs[i], streams[i]);
        break;
    case BREADTH:
        for (unsigned i = 0; i < n; ++i) upload(cs[i], streams[i]);
        for (unsigned i = 0; i < n; ++i) kernel(cs[i], streams[i]);
        break;
    case ONE_COPY:
        for (unsigned i = 0; i < n; ++i) {
            upload(cs[i], streams[0]);
            CHECK(cudaEventRecord(uploaded[i], streams[0]));
        }
        for (unsigned i = 0; i < n; ++i) {  // kernels on streams 1.., never behind the uploads' stream
            cudaStream_t s = streams[1 + i % (MAX_STREAMS - 1)];
            CHECK(cudaStreamWaitEvent(s, uploaded[i], 0));
            kernel(cs[i], s);
        }
        break;
    }
    const unsigned used = order == ONE_COPY ? MAX_STREAMS : n;
    for (unsigned i = 0; i < used; ++i) {
        CHECK(cudaEventRecord(fence[i], streams[i]));
        CHECK(cudaStreamWaitEvent(main_stream, fence[i], 0));
    }
}

// Median of 9 samples, each `runs` fenced runs between two timing events on the main stream, in ms per
// run. With `from_idle`, each sample starts from an idle GPU (a host synchronize), its start event held
// behind a 1 ms sleep on the main stream so that the whole sample is queued before it fires.
static double time_ms(Order order, unsigned n, int runs = 5, bool from_idle = false) {
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    enqueue(order, n);
    std::vector<double> ms;
    for (int s = 0; s < 9; ++s) {
        if (from_idle) {
            CHECK(cudaDeviceSynchronize());
            sleeper<<<1, 1, 0, main_stream>>>(1000000ull);
        }
        CHECK(cudaEventRecord(a, main_stream));
        for (int r = 0; r < runs; ++r) enqueue(order, n);
        CHECK(cudaEventRecord(b, main_stream));
        CHECK(cudaEventSynchronize(b));
        float t;
        CHECK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t / runs);
    }
    std::sort(ms.begin(), ms.end());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return ms[ms.size() / 2];
}

int main() {
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int per_sm;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fma_chain, THREADS, 0));
    wave_blocks = sms * per_sm;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs, full wave %u blocks; %zu MiB, %u iterations\n", prop.name, sms, wave_blocks, N * 4 >> 20,
           ITERATIONS);
    CHECK(cudaMallocHost(&host, N * 4));
    for (size_t i = 0; i < N; ++i) host[i] = (float)(i % 1000) * 1e-3f;
    CHECK(cudaMalloc(&dev, N * 4));
    CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
    for (unsigned i = 0; i < MAX_STREAMS; ++i) {
        CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
        CHECK(cudaEventCreateWithFlags(&fence[i], cudaEventDisableTiming));
        CHECK(cudaEventCreateWithFlags(&uploaded[i], cudaEventDisableTiming));
    }
    CHECK(cudaEventCreateWithFlags(&start_ev, cudaEventDisableTiming));
    CHECK(cudaEventCreate(&stop_ev));

    const double copy1 = time_ms(COPIES, 1), kernel1 = time_ms(KERNEL_ALONE, 1);
    printf("upload alone %.3f ms (%.1f GB/s), kernel alone %.3f ms\n", copy1, N * 4 / copy1 / 1e6, kernel1);
    printf("%3s %9s %9s %9s %9s %9s %9s %9s %9s   (ms; ratios to the model)\n", "n", "model", "copies", "kernels",
           "depth", "breadth", "one-copy", "depth-1", "idle-1");
    for (unsigned n : {1u, 2u, 4u, 8u, 12u, 16u}) {
        const double model = std::max(copy1, kernel1) + std::min(copy1, kernel1) / n;
        const double c = time_ms(COPIES, n), k = time_ms(KERNEL_ALONE, n), d = time_ms(DEPTH, n),
                     b = time_ms(BREADTH, n), o = time_ms(ONE_COPY, n);
        // depth-1: one run per sample, samples back to back; idle-1: one run per sample, from idle, held.
        const double d1 = time_ms(DEPTH, n, 1), i1 = time_ms(DEPTH, n, 1, true);
        printf("%3u %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f   %.3f %.3f %.3f %.3f %.3f\n", n, model, c, k, d, b,
               o, d1, i1, d / model, b / model, o / model, d1 / model, i1 / model);
    }

    // Five depth-order runs at 16 streams queued back to back from idle, an event on the main stream after
    // each run's fence: the length of each run in the queue.
    {
        cudaEvent_t marks[6];
        for (auto &e : marks) CHECK(cudaEventCreate(&e));
        for (int rep = 0; rep < 2; ++rep) {
            CHECK(cudaDeviceSynchronize());
            sleeper<<<1, 1, 0, main_stream>>>(1000000ull);
            CHECK(cudaEventRecord(marks[0], main_stream));
            for (int r = 0; r < 5; ++r) {
                enqueue(DEPTH, 16);
                CHECK(cudaEventRecord(marks[r + 1], main_stream));
            }
            CHECK(cudaEventSynchronize(marks[5]));
            printf("five queued runs (16 streams), ms each:");
            for (int r = 0; r < 5; ++r) {
                float t;
                CHECK(cudaEventElapsedTime(&t, marks[r], marks[r + 1]));
                printf(" %.3f", t);
            }
            printf("\n");
        }
    }

    // The upload rate while one long kernel runs on another stream: full wave of fma_chain, one block
    // per SM, and a kernel whose threads sleep (resident, not issuing); 16 chunk uploads timed on their stream.
    {
        auto cs16 = chunks(16);
        auto uploads_during = [&](int what) {
            cudaEvent_t a, b;
            CHECK(cudaEventCreate(&a));
            CHECK(cudaEventCreate(&b));
            std::vector<double> rates;
            for (int s = 0; s < 5; ++s) {
                CHECK(cudaDeviceSynchronize());
                if (what == 1) fma_chain<<<wave_blocks, THREADS, 0, streams[1]>>>(dev, (unsigned)N, ITERATIONS * 4);
                if (what == 2) fma_chain<<<sms, THREADS, 0, streams[1]>>>(dev, (unsigned)(N / 8), ITERATIONS * 4);
                if (what == 3) sleeper<<<wave_blocks, THREADS, 0, streams[1]>>>(20000000ull);
                CHECK(cudaEventRecord(a, streams[0]));
                for (auto &c : cs16) upload(c, streams[0]);
                CHECK(cudaEventRecord(b, streams[0]));
                CHECK(cudaEventSynchronize(b));
                float ms;
                CHECK(cudaEventElapsedTime(&ms, a, b));
                rates.push_back(N * 4 / (ms * 1e-3) / 1e9);
            }
            CHECK(cudaDeviceSynchronize());
            std::sort(rates.begin(), rates.end());
            return rates[2];
        };
        printf("16 chunk uploads, GB/s: alone %.1f; during fma_chain full wave %.1f; during fma_chain one block/SM %.1f; "
               "during a sleeping full wave %.1f\n",
               uploads_during(0), uploads_during(1), uploads_during(2), uploads_during(3));
    }

    // Timeline of the depth order at 16 streams: timing events before and after every operation.
    const unsigned n = 16;
    auto cs = chunks(n);
    std::vector<cudaEvent_t> ev(4 * n);
    for (auto &e : ev) CHECK(cudaEventCreate(&e));
    cudaEvent_t t0;
    CHECK(cudaEventCreate(&t0));
    for (int rep = 0; rep < 2; ++rep) {  // the second run is printed
        CHECK(cudaEventRecord(t0, main_stream));
        for (unsigned i = 0; i < n; ++i) CHECK(cudaStreamWaitEvent(streams[i], t0, 0));
        for (unsigned i = 0; i < n; ++i) {
            CHECK(cudaEventRecord(ev[4 * i], streams[i]));
            upload(cs[i], streams[i]);
            CHECK(cudaEventRecord(ev[4 * i + 1], streams[i]));
            kernel(cs[i], streams[i]);
            CHECK(cudaEventRecord(ev[4 * i + 2], streams[i]));
        }
        CHECK(cudaDeviceSynchronize());
    }
    printf("depth order, 16 streams: µs from the start: upload start-end (length), kernel end (length from its upload's end)\n");
    for (unsigned i = 0; i < n; ++i) {
        float a, b, c;
        CHECK(cudaEventElapsedTime(&a, t0, ev[4 * i]));
        CHECK(cudaEventElapsedTime(&b, t0, ev[4 * i + 1]));
        CHECK(cudaEventElapsedTime(&c, t0, ev[4 * i + 2]));
        printf("  chunk %2u: upload %8.1f - %8.1f (%6.1f)  kernel end %8.1f (%6.1f)\n", i, a * 1e3, b * 1e3,
               (b - a) * 1e3, c * 1e3, (c - b) * 1e3);
    }
    return 0;
}
