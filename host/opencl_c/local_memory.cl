// OpenCL C twins of ptxsuite's local-memory kernels (kernels-gpu/src/local_memory/): the
// Best Practices Guide §3.2.3 and the OpenCL guide §3.1.2.2 warn that an array a thread
// indexes at run time lives in CUDA's "local memory", off-chip. In OpenCL C that array is a
// __private one (OpenCL's __local is CUDA's shared memory, not this). The same per-thread
// work over a 64-word array as the Rust kernels, the same entry names and parameters:
// work-item t (the 1-D global id) writes reference::local_array(t, shift, rounds) to out[t].
// Launch: any 1-D NDRange (the experiment: work-groups of 128, 1 to 16 per SM).
//
// local_array_spilled: the Rust kernel spills under a per-kernel launch bound
// (.maxntid/.minnctapersm), which OpenCL C cannot state. Its twin is the registers
// version in a program of its own: the host builds this file a second time with
// -D LOCAL_ARRAY_SPILLED and NVIDIA's register cap (-cl-nv-maxrregcount, the 64 registers a
// thread the launch bound leaves), which then holds that kernel alone.
//
// On modern GPUs (H100, the Rust kernels, 2048 work-items per SM): the run-time-indexed
// array about 15x slower than the registers version, its traffic some 5900 GB/s, served by
// L1 and L2 beyond the device memory's 3350 GB/s (the guides' cc 1.x: uncached device memory).

#ifdef DIVERGENCE_PRAGMA_UNROLL
// The host defines DIVERGENCE_PRAGMA_UNROLL where the compiler honours #pragma unroll
// (cl_nv_pragma_unroll): the word loops are then unrolled in full, so the registers
// version's indices are constants, as in the Rust and CUDA C kernels.
#define LOCAL_ARRAY_UNROLL _Pragma("unroll")
#else
#define LOCAL_ARRAY_UNROLL
#endif

#define LOCAL_ARRAY_WORDS 64u

// Fills the array, then `rounds` times folds each word (at index (i + shift) % 64 where
// `dynamic`, else i) into a running value with a multiply-add and writes the value back.
inline uint local_array_scramble(uint thread, uint shift, uint rounds, bool dynamic)
{
    __private uint words[LOCAL_ARRAY_WORDS];
    LOCAL_ARRAY_UNROLL for (uint i = 0; i < LOCAL_ARRAY_WORDS; i++)
        words[i] = thread * 0x9e3779b9u + i;
    uint value = thread;
    for (uint round = 0; round < rounds; round++) {
        LOCAL_ARRAY_UNROLL for (uint i = 0; i < LOCAL_ARRAY_WORDS; i++) {
            uint index = dynamic ? (i + shift % LOCAL_ARRAY_WORDS) % LOCAL_ARRAY_WORDS : i;
            value = value * 31u + words[index];
            words[index] = value ^ round;
        }
    }
    return value;
}

#ifdef LOCAL_ARRAY_SPILLED
// The registers version under the host's register cap, too few for the 64-word array and
// its loop (unbounded, ptxas gives the Rust kernel about 75): ptxas spills part of the
// array to (CUDA's local) memory (the Rust kernel: 52-68 bytes stored, 28-36 reloaded).
// Expected: slower than the registers version by the spills' traffic, far less than the
// run-time-indexed version's.
__kernel void local_array_spilled(uint rounds, __global uint *out)
{
    uint thread = (uint)get_global_id(0);
    out[thread] = local_array_scramble(thread, 0, rounds, false);
}
#else
// Indices known at compile time (after unrolling): the array lives in registers.
// Expected: the baseline, no memory traffic but the output.
__kernel void local_array_registers(uint rounds, __global uint *out)
{
    uint thread = (uint)get_global_id(0);
    out[thread] = local_array_scramble(thread, 0, rounds, false);
}

// Indices rotated by the run-time `shift`: the compiler cannot tell which word an access
// touches, so the __private array stays in (CUDA's local) memory. Expected: slower than
// the registers version by the array's traffic, cached in L1 while it fits.
__kernel void local_array_dynamic(uint shift, uint rounds, __global uint *out)
{
    uint thread = (uint)get_global_id(0);
    out[thread] = local_array_scramble(thread, shift, rounds, true);
}
#endif
