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
