// CUDA C twins of ptxsuite's particle kernels (kernels-gpu/src/particles/):
// the lecture notes' fountain and swarm, one thread per particle, a 2-D grid
// of 2-D blocks with guarded edges. Same arithmetic as the Rust kernels,
// rounded the same way: every product that NVRTC (-fmad=true) or ptxas could
// fuse with an add is written with __fmul_rn / __fadd_rn / __fmaf_rn, whose
// results are never contracted, so the two builds agree bit for bit.

// The "lowbias32" xorshift-multiply mixer.
__device__ __forceinline__ unsigned particle_mix32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// Uniform in [0, 1) on a 2^-24 grid for (particle, frame, stream); 4 streams per frame.
__device__ __forceinline__ float particle_uniform(unsigned particle, unsigned frame, unsigned stream)
{
    unsigned key = particle_mix32(frame * 4u + stream);
    unsigned bits = particle_mix32(particle ^ key);
    return __fmul_rn((float)(bits >> 8), 1.0f / 16777216.0f);
}

// (1, 1 - c/2, 1 - c, 1) for c = age / max_age.
__device__ __forceinline__ float4 particle_age_colour(float age, float max_age)
{
    float c = age / max_age;
    return make_float4(1.0f, __fmaf_rn(-0.5f, c, 1.0f), 1.0f - c, 1.0f);
}

// One step of the notes' fountain (their float4 version).
extern "C" __global__ void particle_fountain(float4 *vertices, float4 *state, unsigned width, unsigned height,
                                             float max_age, float emitter_angle, unsigned frame)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned i = y * width + x;
    unsigned colour_index = width * height + i;
    float4 s = state[i];
    float4 p = vertices[i];
    if (s.x >= max_age) {
        s.x = 0.0f;
        s.y = __fmul_rn(0.02f, (float)x / (float)width - 0.5f);
        s.z = __fmaf_rn(0.01f, particle_uniform(i, frame, 0), 0.015f);
        s.w = __fmul_rn(0.02f, (float)y / (float)height - 0.5f);
        p.x = __fmul_rn(0.2f, __sinf(emitter_angle));
        p.y = 0.0f;
        p.z = __fmul_rn(0.2f, __cosf(emitter_angle));
    }
    float4 moved = make_float4(p.x + s.y, p.y + s.z, p.z + s.w, 1.0f);
    s.x += 1.0f;
    s.z -= 0.0001f;
    if (moved.y <= 0.0f && __fmaf_rn(p.x, p.x, __fmul_rn(p.z, p.z)) < 25.0f)
        s.z = __fmul_rn(s.z, -0.2f);
    state[i] = s;
    vertices[colour_index] = particle_age_colour(s.x, max_age);
    vertices[i] = moved;
}

// One step of the notes' swarm: steer towards (target_x, target_y, target_z).
extern "C" __global__ void particle_swarm(float4 *vertices, float4 *state, unsigned width, unsigned height,
                                          float max_age, float target_x, float target_y, float target_z,
                                          unsigned frame)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned i = y * width + x;
    unsigned colour_index = width * height + i;
    float4 s = state[i];
    float4 p = vertices[i];
    if (s.x >= max_age) {
        float rx = particle_uniform(i, frame, 0) - 0.5f;
        float ry = particle_uniform(i, frame, 1) - 0.5f;
        float rz = particle_uniform(i, frame, 2) - 0.5f;
        float cx = __fmul_rn(__fmul_rn(rx, rx), rx);
        float cy = __fmul_rn(__fmul_rn(ry, ry), ry);
        float cz = __fmul_rn(__fmul_rn(rz, rz), rz);
        s = make_float4(0.0f, __fmul_rn(0.001f, cx), __fmul_rn(0.001f, cy), __fmul_rn(0.001f, cz));
        p.x = __fadd_rn(target_x, __fmul_rn(2.0f, cx));
        p.y = __fadd_rn(target_y, __fmul_rn(2.0f, cy));
        p.z = __fadd_rn(target_z, __fmul_rn(2.0f, cz));
    }
    s.x += 1.0f;
    float dx = target_x - p.x, dy = target_y - p.y, dz = target_z - p.z;
    float distance = sqrtf(__fmaf_rn(dz, dz, __fmaf_rn(dy, dy, __fmul_rn(dx, dx))));
    if (distance > 0.0f) {
        s.y += __fmul_rn(0.000005f, dx) / distance;
        s.z += __fmul_rn(0.000005f, dy) / distance;
        s.w += __fmul_rn(0.000005f, dz) / distance;
    }
    state[i] = s;
    vertices[colour_index] = particle_age_colour(s.x, max_age);
    vertices[i] = make_float4(p.x + s.y, p.y + s.z, p.z + s.w, 1.0f);
}

// ---- The notes' tuning of the fountain (second half of the notes) ----

// The notes' first version: float * state touched one float at a time, the
// position re-read from the vertex buffer where used, a square table top
// tested with fabs. (Emitter with the fast sine, colour rounded as
// particle_age_colour: the same results as the Rust kernel.)
extern "C" __global__ void particle_fountain_naive(float4 *vertices, float *state, unsigned width, unsigned height,
                                                   float max_age, float emitter_angle, unsigned frame)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned i = y * width + x;
    unsigned a = 4u * i;
    float *pos = (float *)vertices;
    unsigned colour = 4u * (width * height + i);
    if (state[a] >= max_age) {
        state[a] = 0.0f;
        state[a + 1] = __fmul_rn(0.02f, (float)x / (float)width - 0.5f);
        state[a + 2] = __fmaf_rn(0.01f, particle_uniform(i, frame, 0), 0.015f);
        state[a + 3] = __fmul_rn(0.02f, (float)y / (float)height - 0.5f);
        pos[a] = __fmul_rn(0.2f, __sinf(emitter_angle));
        pos[a + 1] = 0.0f;
        pos[a + 2] = __fmul_rn(0.2f, __cosf(emitter_angle));
    }
    float new_x = pos[a] + state[a + 1];
    float new_y = pos[a + 1] + state[a + 2];
    float new_z = pos[a + 2] + state[a + 3];
    state[a] += 1.0f;
    state[a + 2] -= 0.0001f;
    if (new_y <= 0.0f && fabsf(pos[a]) < 5.0f && fabsf(pos[a + 2]) < 5.0f)
        state[a + 2] = __fmul_rn(-0.2f, state[a + 2]);
    pos[colour] = 1.0f;
    pos[colour + 1] = __fmaf_rn(-0.5f, state[a] / max_age, 1.0f);
    pos[colour + 2] = 1.0f - state[a] / max_age;
    pos[colour + 3] = 1.0f;
    vertices[i] = make_float4(new_x, new_y, new_z, 1.0f);
}

// The first tuning step: the state as float4, one load and one store; the rest as the naive kernel.
extern "C" __global__ void particle_fountain_float4_state(float4 *vertices, float4 *state, unsigned width,
                                                          unsigned height, float max_age, float emitter_angle,
                                                          unsigned frame)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned i = y * width + x;
    unsigned a = 4u * i;
    float *pos = (float *)vertices;
    float4 s = state[i];
    if (s.x >= max_age) {
        s.x = 0.0f;
        s.y = __fmul_rn(0.02f, (float)x / (float)width - 0.5f);
        s.z = __fmaf_rn(0.01f, particle_uniform(i, frame, 0), 0.015f);
        s.w = __fmul_rn(0.02f, (float)y / (float)height - 0.5f);
        pos[a] = __fmul_rn(0.2f, __sinf(emitter_angle));
        pos[a + 1] = 0.0f;
        pos[a + 2] = __fmul_rn(0.2f, __cosf(emitter_angle));
    }
    float4 moved = make_float4(pos[a] + s.y, pos[a + 1] + s.z, pos[a + 2] + s.w, 1.0f);
    s.x += 1.0f;
    s.z -= 0.0001f;
    if (moved.y <= 0.0f && fabsf(pos[a]) < 5.0f && fabsf(pos[a + 2]) < 5.0f)
        s.z = __fmul_rn(s.z, -0.2f);
    state[i] = s;
    vertices[width * height + i] = particle_age_colour(s.x, max_age);
    vertices[i] = moved;
}

// The tuned fountain's arithmetic on a particle in registers (particle_fountain's body).
__device__ __forceinline__ void particle_fountain_motion(unsigned x, unsigned y, unsigned i, unsigned width,
                                                         unsigned height, float max_age, float emitter_angle,
                                                         unsigned frame, float4 &s, float4 &p)
{
    if (s.x >= max_age) {
        s.x = 0.0f;
        s.y = __fmul_rn(0.02f, (float)x / (float)width - 0.5f);
        s.z = __fmaf_rn(0.01f, particle_uniform(i, frame, 0), 0.015f);
        s.w = __fmul_rn(0.02f, (float)y / (float)height - 0.5f);
        p.x = __fmul_rn(0.2f, __sinf(emitter_angle));
        p.y = 0.0f;
        p.z = __fmul_rn(0.2f, __cosf(emitter_angle));
    }
    float4 moved = make_float4(p.x + s.y, p.y + s.z, p.z + s.w, 1.0f);
    s.x += 1.0f;
    s.z -= 0.0001f;
    if (moved.y <= 0.0f && __fmaf_rn(p.x, p.x, __fmul_rn(p.z, p.z)) < 25.0f)
        s.z = __fmul_rn(s.z, -0.2f);
    p = moved;
}

// The state staged in a blockDim-sized float4 tile of dynamic shared memory, with or without barriers.
template <bool BARRIERS>
__device__ __forceinline__ void particle_fountain_staged_step(float4 *vertices, float4 *state, unsigned width,
                                                              unsigned height, float max_age, float emitter_angle,
                                                              unsigned frame)
{
    extern __shared__ float4 particle_tile[];
    unsigned slot = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    bool inside = x < width && y < height;
    unsigned i = y * width + x;
    if (inside)
        particle_tile[slot] = state[i];
    if (BARRIERS)
        __syncthreads();
    if (inside) {
        float4 s = particle_tile[slot];
        float4 p = vertices[i];
        particle_fountain_motion(x, y, i, width, height, max_age, emitter_angle, frame, s, p);
        particle_tile[slot] = s;
        vertices[width * height + i] = particle_age_colour(s.x, max_age);
        vertices[i] = p;
    }
    if (BARRIERS)
        __syncthreads();
    if (inside)
        state[i] = particle_tile[slot];
}

extern "C" __global__ void particle_fountain_staged(float4 *vertices, float4 *state, unsigned width, unsigned height,
                                                    float max_age, float emitter_angle, unsigned frame)
{
    particle_fountain_staged_step<false>(vertices, state, width, height, max_age, emitter_angle, frame);
}

extern "C" __global__ void particle_fountain_staged_synced(float4 *vertices, float4 *state, unsigned width,
                                                           unsigned height, float max_age, float emitter_angle,
                                                           unsigned frame)
{
    particle_fountain_staged_step<true>(vertices, state, width, height, max_age, emitter_angle, frame);
}

// ---- The notes' all-pairs "gravity" swarm ----

__device__ __forceinline__ void particle_add_pull(float3 &pull, float4 me, float4 other)
{
    float dx = 1000.0f * (other.x - me.x);
    float dy = 1000.0f * (other.y - me.y);
    float dz = 1000.0f * (other.z - me.z);
    if (fabsf(dx) > 0.1f)
        pull.x += 1.0f / dx;
    if (fabsf(dy) > 0.1f)
        pull.y += 1.0f / dy;
    if (fabsf(dz) > 0.1f)
        pull.z += 1.0f / dz;
}

__device__ __forceinline__ void particle_gravity_finish(float4 *vertices, float4 *state, unsigned n, unsigned i,
                                                        float4 me, float3 pull)
{
    float4 s = state[i];
    float3 v = make_float3(pull.x + s.y, pull.y + s.z, pull.z + s.w);
    state[i] = make_float4(0.0f, v.x, v.y, v.z);
    vertices[n + i] = make_float4(v.x > 0.0f ? 1.0f : 0.4f, v.y > 0.0f ? 1.0f : 0.4f, v.z > 0.0f ? 1.0f : 0.4f, 1.0f);
    vertices[i] = make_float4(__fmaf_rn(0.0000001f, v.x, me.x), __fmaf_rn(0.0000001f, v.y, me.y),
                              __fmaf_rn(0.0000001f, v.z, me.z), 1.0f);
}

// Unoptimised, as the notes: every thread walks every position in global memory
// (read from the previous step's buffer: the notes' in-place update races).
extern "C" __global__ void particle_gravity(const float4 *positions, float4 *vertices, float4 *state, unsigned width,
                                            unsigned height)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    unsigned n = width * height;
    unsigned i = y * width + x;
    float3 pull = make_float3(0.0f, 0.0f, 0.0f);
    for (unsigned j = 0; j < n; j++)
        particle_add_pull(pull, positions[i], positions[j]);
    particle_gravity_finish(vertices, state, n, i, positions[i], pull);
}

// Tiled: block-sized tiles of positions through dynamic shared memory, summed in the same order.
extern "C" __global__ void particle_gravity_tiled(const float4 *positions, float4 *vertices, float4 *state,
                                                  unsigned width, unsigned height)
{
    extern __shared__ float4 gravity_tile[];
    unsigned threads = blockDim.x * blockDim.y;
    unsigned slot = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    bool inside = x < width && y < height;
    unsigned n = width * height;
    unsigned i = inside ? y * width + x : 0u;
    float4 me = positions[i];
    float3 pull = make_float3(0.0f, 0.0f, 0.0f);
    for (unsigned first = 0; first < n;) {
        unsigned count = min(threads, n - first);
        if (slot < count)
            gravity_tile[slot] = positions[first + slot];
        __syncthreads();
        for (unsigned k = 0; k < count; k++)
            particle_add_pull(pull, me, gravity_tile[k]);
        __syncthreads();
        first += count;
    }
    if (inside)
        particle_gravity_finish(vertices, state, n, i, me, pull);
}
