// OpenCL C twins of ptxsuite's bank-conflict kernels (kernels-gpu/src/shared_memory_banks/):
// the Best Practices Guide §3.2.2.1 and the OpenCL guide §3.1.2.5 make their bank claims for
// CUDA's shared memory, which OpenCL C calls __local memory. Same table, lane pattern, rounds
// and checksums as the Rust kernels (bit for bit with reference::shared_memory_banks), the
// same entry names, work-groups of 256 and one full wave of work-groups.
//
// The table is the kernel's last argument, a __local buffer the host sizes
// (BankKernel::shared_bytes: the CUDA launch's dynamic shared memory). A "lane" is
// get_local_id(0) % 32: NVIDIA's warp is 32 consecutive work-items of a work-group (OpenCL
// C 1.2 cannot ask for the SIMD width; the work-group size is a multiple of 32).
//
// Unlike the Rust and CUDA C kernels these take no block spans: OpenCL C has neither
// clock64 nor %globaltimer, so the twins are timed by the queue's profiling events alone
// (GB/s and slow-downs; no SM clocks per request).
//
// On modern GPUs (H100, the Rust kernels): 32 banks of 4 bytes, a warp request served in
// the passes reference::conflict_degree predicts (stride 32: 32 passes, about 32x slower;
// a broadcast costs nothing), where the guides' cc 1.x had 16 banks served a half-warp at a
// time.

#ifdef DIVERGENCE_PRAGMA_UNROLL
// The host defines DIVERGENCE_PRAGMA_UNROLL where the compiler honours #pragma unroll
// (cl_nv_pragma_unroll): a round's accesses are then unrolled as in the Rust and CUDA C kernels.
#define BANK_UNROLL _Pragma("unroll")
#else
#define BANK_UNROLL
#endif

#define BANK_TABLE_ELEMENTS 2048u
#define BANK_ROUND_ACCESSES 32u
#define BANK_NARROW_TABLE_BYTES (4u * BANK_TABLE_ELEMENTS)
#define BANK_STRUCT_ROUND_ACCESSES 16u
#define BANK_SPLIT_HALF_WORDS (BANK_TABLE_ELEMENTS / 2u)
#define BANK_PERMUTATION_MASK 21u

// Word `word` of element `element` after write round `round`: element in bits 0-11,
// round in 12-23, word in 24-25 (round 0: as the table is filled).
inline uint bank_word(uint element, uint word, uint round)
{
    return element | (round & 0xfffu) << 12 | word << 24;
}

// The 4-, 8- and 16-byte elements (one 32-, 64- or 128-bit __local load or store an access):
// their pattern, first word (the link to the next round's base) and the sum of their words.
inline uint bank_pattern_b32(uint element, uint round) { return bank_word(element, 0, round); }
inline ulong bank_pattern_b64(uint element, uint round)
{
    return (ulong)bank_word(element, 0, round) | (ulong)bank_word(element, 1, round) << 32;
}
inline uint4 bank_pattern_b128(uint element, uint round)
{
    return (uint4)(bank_word(element, 0, round), bank_word(element, 1, round), bank_word(element, 2, round),
                   bank_word(element, 3, round));
}
inline uint bank_first_b32(uint v) { return v; }
inline uint bank_first_b64(ulong v) { return (uint)v; }
inline uint bank_first_b128(uint4 v) { return v.x; }
inline uint bank_sum_b32(uint v) { return v; }
inline uint bank_sum_b64(ulong v) { return (uint)v + (uint)(v >> 32); }
inline uint bank_sum_b128(uint4 v) { return v.x + v.y + v.z + v.w; }

// Fills the table with the round-0 pattern and the salt element past it with zeros, then
// waits for the work-group.
#define BANK_FILL(TABLE, E, ZERO)                                                                      \
    for (uint element = (uint)get_local_id(0); element < BANK_TABLE_ELEMENTS;                         \
         element += (uint)get_local_size(0))                                                          \
        TABLE[element] = bank_pattern_##E(element, 0);                                                \
    if (get_local_id(0) == 0)                                                                         \
        TABLE[BANK_TABLE_ELEMENTS] = ZERO;                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);

// The lane reads elements base + STEP * j (j < 32) a round, base starting at START; the next
// round's base is the first element's word 0 (each element links to itself). Leaves the
// lane's checksum in `sum`.
#define BANK_READ_ROUNDS(T, E, TABLE, START, STEP)                                                     \
    uint base = (START);                                                                               \
    uint sum = 0;                                                                                      \
    for (uint round = 0; round < rounds; round++) {                                                    \
        __local const T *lane = TABLE + base;                                                          \
        T first = lane[0];                                                                             \
        sum += bank_sum_##E(first);                                                                    \
        BANK_UNROLL for (uint access = 1; access < BANK_ROUND_ACCESSES; access++)                      \
            sum += bank_sum_##E(lane[(STEP) * access]);                                                \
        base = bank_first_##E(first);                                                                  \
    }

// The lane writes elements base + 32 j a round, one value a round; the base moves by a salt
// read from the table (zero). Then each work-item sums its share of the table (elements
// local id + k * work-group size): a work-group's shares add up to the table's sum.
#define BANK_WRITE_ROUNDS(T, E, TABLE)                                                                 \
    uint base = (uint)get_local_id(0) % 32u * stride;                                                  \
    for (uint round = 0; round < rounds; round++) {                                                    \
        T value = bank_pattern_##E(BANK_TABLE_ELEMENTS, round);                                        \
        __local T *lane = TABLE + base;                                                                \
        BANK_UNROLL for (uint access = 0; access < BANK_ROUND_ACCESSES; access++)                      \
            lane[BANK_ROUND_ACCESSES * access] = value;                                                \
        base += bank_first_##E(TABLE[BANK_TABLE_ELEMENTS]);                                            \
    }                                                                                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                      \
    uint sum = 0;                                                                                      \
    for (uint element = (uint)get_local_id(0); element < BANK_TABLE_ELEMENTS;                         \
         element += (uint)get_local_size(0))                                                          \
        sum += bank_sum_##E(TABLE[element]);

// The strided reads and writes of 4-, 8- and 16-byte elements: lane l reads (writes)
// elements l * stride + 32 j, so a request's lanes fall on the banks the stride gives
// (stride 0: every lane one element, the broadcast). Launch: work-groups of a multiple of
// 32 work-items, 1-D; `table` holds BANK_TABLE_ELEMENTS + 1 elements; stride <= 33.
// Expected: the passes reference::conflict_degree gives, one a clock per SM.
#define BANK_KERNELS(READ, WRITE, T, E, ZERO)                                                          \
    __kernel void READ(uint stride, uint rounds, __global uint *checksums, __local T *table)          \
    {                                                                                                  \
        BANK_FILL(table, E, ZERO)                                                                      \
        BANK_READ_ROUNDS(T, E, table, (uint)get_local_id(0) % 32u * stride, BANK_ROUND_ACCESSES)       \
        checksums[get_global_id(0)] = sum;                                                             \
    }                                                                                                  \
    __kernel void WRITE(uint stride, uint rounds, __global uint *checksums, __local T *table)         \
    {                                                                                                  \
        BANK_FILL(table, E, ZERO)                                                                      \
        BANK_WRITE_ROUNDS(T, E, table)                                                                 \
        checksums[get_global_id(0)] = sum;                                                             \
    }

BANK_KERNELS(bank_read_b32, bank_write_b32, uint, b32, 0u)
BANK_KERNELS(bank_read_b64, bank_write_b64, ulong, b64, 0ul)
BANK_KERNELS(bank_read_b128, bank_write_b128, uint4, b128, (uint4)(0u))

// The Best Practices Guide's §3.2.2.3 transposed-tile read: lane l reads column words
// tile[l][0..32] of a [32][pitch] tile of words (pitch 32: every lane in one bank, 32-way;
// the padded 33: conflict-free). Launch as the strided kernels; pitch <= 64.
__kernel void bank_tile_column_read(uint pitch, uint rounds, __global uint *checksums, __local uint *table)
{
    BANK_FILL(table, b32, 0u)
    BANK_READ_ROUNDS(uint, b32, table, (uint)get_local_id(0) % 32u * pitch, 1u)
    checksums[get_global_id(0)] = sum;
}

// The OpenCL guide's narrow elements (§3.1.2.5's char and short arrays): 1- and 2-byte
// elements, element e holding e truncated; lane l reads l * stride + j * 128 / size, so at
// stride 1 four (two) lanes share a bank's word, which today's GPUs serve in one pass (the
// guide's cc 1.x: four (two) passes). `table` holds BANK_NARROW_TABLE_BYTES; stride <= 8.
#define BANK_NARROW_KERNEL(NAME, T)                                                                    \
    __kernel void NAME(uint stride, uint rounds, __global uint *checksums, __local T *table)          \
    {                                                                                                  \
        const uint step = 128u / (uint)sizeof(T);                                                      \
        for (uint element = (uint)get_local_id(0); element < BANK_NARROW_TABLE_BYTES / (uint)sizeof(T); \
             element += (uint)get_local_size(0))                                                      \
            table[element] = (T)element;                                                               \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
        uint base = (uint)get_local_id(0) % 32u * stride;                                              \
        uint sum = 0;                                                                                  \
        for (uint round = 0; round < rounds; round++) {                                                \
            __local const T *lane = table + base;                                                      \
            uint first = lane[0];                                                                      \
            sum += first;                                                                              \
            BANK_UNROLL for (uint access = 1; access < BANK_ROUND_ACCESSES; access++)                  \
                sum += lane[step * access];                                                            \
            base = first;                                                                              \
        }                                                                                              \
        checksums[get_global_id(0)] = sum;                                                             \
    }

BANK_NARROW_KERNEL(bank_read_b8, uchar)
BANK_NARROW_KERNEL(bank_read_b16, ushort)

// The guide's structs of MEMBERS words read one 32-bit load a member: lane l reads struct
// l * stride * MEMBERS + 32 MEMBERS j (j < 16), every member. Three words: conflict-free;
// two: 2-way. Stride 1 only (the table's room).
#define BANK_STRUCT_KERNEL(NAME, MEMBERS)                                                              \
    __kernel void NAME(uint stride, uint rounds, __global uint *checksums, __local uint *table)       \
    {                                                                                                  \
        BANK_FILL(table, b32, 0u)                                                                      \
        uint base = (uint)get_local_id(0) % 32u * stride * (MEMBERS);                                  \
        uint sum = 0;                                                                                  \
        for (uint round = 0; round < rounds; round++) {                                                \
            __local const uint *lane = table + base;                                                   \
            uint first = lane[0];                                                                      \
            sum += first;                                                                              \
            BANK_UNROLL for (uint member = 1; member < (MEMBERS); member++)                            \
                sum += lane[member];                                                                   \
            BANK_UNROLL for (uint access = 1; access < BANK_STRUCT_ROUND_ACCESSES; access++)           \
                BANK_UNROLL for (uint member = 0; member < (MEMBERS); member++)                        \
                    sum += lane[32u * (MEMBERS) * access + member];                                    \
            base = first;                                                                              \
        }                                                                                              \
        checksums[get_global_id(0)] = sum;                                                             \
    }

BANK_STRUCT_KERNEL(bank_read_struct2, 2u)
BANK_STRUCT_KERNEL(bank_read_struct3, 3u)

// The guide's split doubles: a 64-bit value as two arrays of 32-bit halves (lo = words
// 0..1024, hi = the next 1024), two conflict-free loads a value instead of one 64-bit load.
// Stride 1 only.
__kernel void bank_read_split_b64(uint stride, uint rounds, __global uint *checksums, __local uint *table)
{
    BANK_FILL(table, b32, 0u)
    uint base = (uint)get_local_id(0) % 32u * stride;
    uint sum = 0;
    for (uint round = 0; round < rounds; round++) {
        __local const uint *lo = table + base;
        __local const uint *hi = lo + BANK_SPLIT_HALF_WORDS;
        uint first = lo[0];
        sum += first + hi[0];
        BANK_UNROLL for (uint access = 1; access < BANK_ROUND_ACCESSES; access++)
            sum += lo[32u * access] + hi[32u * access];
        base = first;
    }
    checksums[get_global_id(0)] = sum;
}

// The guide's Figure 3-5 permutation: lane l reads word ((l * multiplier) mod 32) ^ 21 of
// each 32-word row, a scrambled permutation for odd multipliers: conflict-free.
__kernel void bank_read_permuted(uint multiplier, uint rounds, __global uint *checksums, __local uint *table)
{
    BANK_FILL(table, b32, 0u)
    BANK_READ_ROUNDS(uint, b32, table, ((uint)get_local_id(0) % 32u * multiplier) % 32u ^ BANK_PERMUTATION_MASK,
                     BANK_ROUND_ACCESSES)
    checksums[get_global_id(0)] = sum;
}
