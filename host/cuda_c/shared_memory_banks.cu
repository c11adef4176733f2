// CUDA C twins of ptxsuite's bank-conflict kernels (kernels-gpu/src/shared_memory_banks/):
// the same table, lane pattern, rounds and outputs.

#define BANK_TABLE_ELEMENTS 2048u
#define BANK_ROUND_ACCESSES 32u

// Word `word` of element `element` after write round `round`: element in bits 0-11,
// round in 12-23, word in 24-25 (round 0: as the table is filled).
__device__ __forceinline__ unsigned int bank_word(unsigned int element, unsigned int word, unsigned int round)
{
    return element | (round & 0xfffu) << 12 | word << 24;
}

// The 4-, 8- and 16-byte elements: one ld/st.shared (.b32, .b64, .v4) per access.
__device__ __forceinline__ unsigned int bank_pattern(unsigned int element, unsigned int round, unsigned int *)
{
    return bank_word(element, 0, round);
}
__device__ __forceinline__ unsigned long long bank_pattern(unsigned int element, unsigned int round, unsigned long long *)
{
    return bank_word(element, 0, round) | (unsigned long long)bank_word(element, 1, round) << 32;
}
__device__ __forceinline__ uint4 bank_pattern(unsigned int element, unsigned int round, uint4 *)
{
    return make_uint4(bank_word(element, 0, round), bank_word(element, 1, round), bank_word(element, 2, round),
                      bank_word(element, 3, round));
}
__device__ __forceinline__ unsigned int bank_first_word(unsigned int v) { return v; }
__device__ __forceinline__ unsigned int bank_first_word(unsigned long long v) { return (unsigned int)v; }
__device__ __forceinline__ unsigned int bank_first_word(uint4 v) { return v.x; }
__device__ __forceinline__ unsigned int bank_word_sum(unsigned int v) { return v; }
__device__ __forceinline__ unsigned int bank_word_sum(unsigned long long v) { return (unsigned int)v + (unsigned int)(v >> 32); }
__device__ __forceinline__ unsigned int bank_word_sum(uint4 v) { return v.x + v.y + v.z + v.w; }

// Fills the table with the round-0 pattern and the salt element past it with zeros.
template <typename T> __device__ __forceinline__ T *fill_bank_table()
{
    extern __shared__ __align__(16) unsigned char bank_shared[];
    T *table = reinterpret_cast<T *>(bank_shared);
    for (unsigned int element = threadIdx.x; element < BANK_TABLE_ELEMENTS; element += blockDim.x)
        table[element] = bank_pattern(element, 0, (T *)0);
    if (threadIdx.x == 0)
        table[BANK_TABLE_ELEMENTS] = T();
    __syncthreads();
    return table;
}

// Lane l reads elements base + STEP * j (base = l * stride), j < 32, per round; the next
// round's base is the first element's word 0 (each element links to itself).
template <typename T, unsigned int STEP>
__device__ __forceinline__ void timed_read_rounds_from(unsigned int start_element, unsigned int rounds,
                                                       unsigned long long *spans, unsigned int *checksums)
{
    T *table = fill_bank_table<T>();
    unsigned int base = start_element;
    unsigned int sum = 0;
    ptxsuite_span_start start = ptxsuite_span_begin();
    for (unsigned int round = 0; round < rounds; ++round) {
        const T *lane = table + base;
        T first = lane[0];
        sum += bank_word_sum(first);
#pragma unroll
        for (unsigned int access = 1; access < BANK_ROUND_ACCESSES; ++access)
            sum += bank_word_sum(lane[STEP * access]);
        base = bank_first_word(first);
    }
    __syncthreads();
    ptxsuite_record_block_span(spans, start);
    checksums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <typename T, unsigned int STEP>
__device__ __forceinline__ void timed_read_rounds(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                                  unsigned int *checksums)
{
    timed_read_rounds_from<T, STEP>(threadIdx.x % 32 * stride, rounds, spans, checksums);
}

// Lane l writes elements base + 32 j per round, one value a round; the base moves by a
// salt read from shared memory (zero). Then each thread sums its share of the table
// (elements threadIdx.x + k * blockDim.x): a block's shares add up to the table's sum.
template <typename T>
__device__ __forceinline__ void timed_write_rounds(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                                   unsigned int *checksums)
{
    T *table = fill_bank_table<T>();
    unsigned int base = threadIdx.x % 32 * stride;
    ptxsuite_span_start start = ptxsuite_span_begin();
    for (unsigned int round = 0; round < rounds; ++round) {
        T value = bank_pattern(BANK_TABLE_ELEMENTS, round, (T *)0);
        T *lane = table + base;
#pragma unroll
        for (unsigned int access = 0; access < BANK_ROUND_ACCESSES; ++access)
            lane[BANK_ROUND_ACCESSES * access] = value;
        base += bank_first_word(table[BANK_TABLE_ELEMENTS]);
    }
    __syncthreads();
    ptxsuite_record_block_span(spans, start);
    unsigned int sum = 0;
    for (unsigned int element = threadIdx.x; element < BANK_TABLE_ELEMENTS; element += blockDim.x)
        sum += bank_word_sum(table[element]);
    checksums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

#define BANK_KERNELS(READ, WRITE, T)                                                                          \
    extern "C" __global__ void READ(unsigned int stride, unsigned int rounds, unsigned long long *spans,     \
                                    unsigned int *checksums)                                                  \
    {                                                                                                         \
        timed_read_rounds<T, BANK_ROUND_ACCESSES>(stride, rounds, spans, checksums);                         \
    }                                                                                                         \
    extern "C" __global__ void WRITE(unsigned int stride, unsigned int rounds, unsigned long long *spans,    \
                                     unsigned int *checksums)                                                 \
    {                                                                                                         \
        timed_write_rounds<T>(stride, rounds, spans, checksums);                                             \
    }

BANK_KERNELS(bank_read_b32, bank_write_b32, unsigned int)
BANK_KERNELS(bank_read_b64, bank_write_b64, unsigned long long)
BANK_KERNELS(bank_read_b128, bank_write_b128, uint4)

// Columns 0..32 of a [32][pitch] tile, row = lane (the guide's transposed-tile read).
extern "C" __global__ void bank_tile_column_read(unsigned int pitch, unsigned int rounds, unsigned long long *spans,
                                                 unsigned int *checksums)
{
    timed_read_rounds<unsigned int, 1>(pitch, rounds, spans, checksums);
}

// The OpenCL guide's other cases (section 3.1.2.5); outputs as above.
#define BANK_NARROW_TABLE_BYTES (4u * BANK_TABLE_ELEMENTS)
#define BANK_STRUCT_ROUND_ACCESSES 16u
#define BANK_SPLIT_HALF_WORDS (BANK_TABLE_ELEMENTS / 2u)
#define BANK_PERMUTATION_MASK 21u

// Reads the round's sum out and records the block's span.
__device__ __forceinline__ void finish_read_rounds(ptxsuite_span_start start, unsigned int sum,
                                                   unsigned long long *spans, unsigned int *checksums)
{
    __syncthreads();
    ptxsuite_record_block_span(spans, start);
    checksums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// 1- and 2-byte elements, element e holding e truncated; lane l reads l * stride + j * 128 / size.
template <typename T>
__device__ __forceinline__ void timed_narrow_rounds(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                                    unsigned int *checksums)
{
    extern __shared__ __align__(16) unsigned char bank_shared[];
    T *table = reinterpret_cast<T *>(bank_shared);
    const unsigned int size = sizeof(T), step = 128u / sizeof(T);
    for (unsigned int element = threadIdx.x; element < BANK_NARROW_TABLE_BYTES / size; element += blockDim.x)
        table[element] = (T)element;
    __syncthreads();
    unsigned int base = threadIdx.x % 32 * stride;
    unsigned int sum = 0;
    ptxsuite_span_start start = ptxsuite_span_begin();
    for (unsigned int round = 0; round < rounds; ++round) {
        const T *lane = table + base;
        unsigned int first = lane[0];
        sum += first;
#pragma unroll
        for (unsigned int access = 1; access < BANK_ROUND_ACCESSES; ++access)
            sum += lane[step * access];
        base = first;
    }
    finish_read_rounds(start, sum, spans, checksums);
}

extern "C" __global__ void bank_read_b8(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                        unsigned int *checksums)
{
    timed_narrow_rounds<unsigned char>(stride, rounds, spans, checksums);
}

extern "C" __global__ void bank_read_b16(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                         unsigned int *checksums)
{
    timed_narrow_rounds<unsigned short>(stride, rounds, spans, checksums);
}

// Structs of MEMBERS words, one 32-bit load per member; lane l reads struct l * stride + 32 j.
template <unsigned int MEMBERS>
__device__ __forceinline__ void timed_struct_rounds(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                                    unsigned int *checksums)
{
    unsigned int *table = fill_bank_table<unsigned int>();
    unsigned int base = threadIdx.x % 32 * stride * MEMBERS;
    unsigned int sum = 0;
    ptxsuite_span_start start = ptxsuite_span_begin();
    for (unsigned int round = 0; round < rounds; ++round) {
        const unsigned int *lane = table + base;
        unsigned int first = lane[0];
        sum += first;
#pragma unroll
        for (unsigned int member = 1; member < MEMBERS; ++member)
            sum += lane[member];
#pragma unroll
        for (unsigned int access = 1; access < BANK_STRUCT_ROUND_ACCESSES; ++access)
#pragma unroll
            for (unsigned int member = 0; member < MEMBERS; ++member)
                sum += lane[32 * MEMBERS * access + member];
        base = first;
    }
    finish_read_rounds(start, sum, spans, checksums);
}

extern "C" __global__ void bank_read_struct2(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                             unsigned int *checksums)
{
    timed_struct_rounds<2>(stride, rounds, spans, checksums);
}

extern "C" __global__ void bank_read_struct3(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                             unsigned int *checksums)
{
    timed_struct_rounds<3>(stride, rounds, spans, checksums);
}

// 64-bit values as two arrays of 32-bit halves: lo = words 0..1024, hi = the next 1024.
extern "C" __global__ void bank_read_split_b64(unsigned int stride, unsigned int rounds, unsigned long long *spans,
                                               unsigned int *checksums)
{
    unsigned int *table = fill_bank_table<unsigned int>();
    unsigned int base = threadIdx.x % 32 * stride;
    unsigned int sum = 0;
    ptxsuite_span_start start = ptxsuite_span_begin();
    for (unsigned int round = 0; round < rounds; ++round) {
        const unsigned int *lo = table + base, *hi = lo + BANK_SPLIT_HALF_WORDS;
        unsigned int first = lo[0];
        sum += first + hi[0];
#pragma unroll
        for (unsigned int access = 1; access < BANK_ROUND_ACCESSES; ++access)
            sum += lo[32 * access] + hi[32 * access];
        base = first;
    }
    finish_read_rounds(start, sum, spans, checksums);
}

// Lane l reads word ((l * multiplier) mod 32) ^ 21 of each 32-word row: a scrambled permutation for odd multipliers.
extern "C" __global__ void bank_read_permuted(unsigned int multiplier, unsigned int rounds, unsigned long long *spans,
                                              unsigned int *checksums)
{
    unsigned int start = (threadIdx.x % 32 * multiplier) % 32 ^ BANK_PERMUTATION_MASK;
    timed_read_rounds_from<unsigned int, BANK_ROUND_ACCESSES>(start, rounds, spans, checksums);
}
