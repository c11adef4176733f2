// CUDA C twins of ptxsuite's square-root, minimum and conversion throughput
// kernels (kernels-gpu/src/instruction_throughput/sqrt_compare_convert.rs), the
// OpenCL Programming Guide §3.1.1.1's rates. Appended to instruction_throughput.cu
// (its CHAIN_KERNEL, EACH_CHAIN and F32_SEED).

CHAIN_KERNEL(sqrt_throughput, float, F32_SEED, EACH_CHAIN(sqrtf(x) + b))
CHAIN_KERNEL(fmin_throughput, float, F32_SEED, EACH_CHAIN(fminf(-x, a)))
CHAIN_KERNEL(convert_throughput, float, F32_SEED, EACH_CHAIN((float)(int)(-x)))
