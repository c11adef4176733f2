// Launch bounds for kernels whose register use needs them. CUDA C writes
// `__launch_bounds__(threads, blocks)`; Rust has no way to say it, so the
// host crate's build.rs (which `include!`s this file) adds the PTX directives
// `.maxntid threads, 1, 1` and `.minnctapersm blocks` to these entries, and
// the CUDA C twins carry the same `__launch_bounds__`.

/// `(entry, maximum threads per block, minimum resident blocks per SM)`.
pub const LAUNCH_BOUNDS: &[(&str, u32, u32)] = &[
    // 256 threads, two blocks per SM: ptxas fits the 8 × 8 register tile in
    // 128 registers without spilling (157 unbounded, one block per SM).
    ("sgemm_register_blocked", 256, 2),
    ("hgemm_f16_storage", 256, 2),
];
