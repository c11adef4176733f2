//! Which PTX architectures the build accepts (shared by build.rs and its test).

/// The oldest architecture the kernels are written for (warp shuffles, `%globaltimer`, f16x2 FMA).
pub const OLDEST_ARCH: u32 = 75;

/// `sm_90a` → 90.
pub fn arch_number(arch: &str) -> Option<u32> {
    arch.strip_prefix("sm_")?.trim_end_matches(['a', 'f']).parse().ok()
}

/// `Ok` for an architecture of at least sm_75 that `known` (the toolchain's list, possibly empty
/// when it cannot be read) holds; else the one-line reason with the architectures to choose from.
pub fn check(arch: &str, known: &[String]) -> Result<(), String> {
    let mut good: Vec<&String> = known
        .iter()
        .filter(|a| arch_number(a).is_some_and(|n| n >= OLDEST_ARCH))
        .collect();
    good.sort_by_key(|a| (arch_number(a), a.len(), a.to_string()));
    let list = good.iter().map(|a| a.as_str()).collect::<Vec<_>>().join(", ");
    if arch_number(arch).is_some_and(|n| n < OLDEST_ARCH) {
        return Err(format!(
            "PTXSUITE_PTX_ARCH={arch} is older than sm_{OLDEST_ARCH}, which the kernels need; choose one of: {list}"
        ));
    }
    if !known.is_empty() && !known.iter().any(|a| a == arch) {
        return Err(format!(
            "PTXSUITE_PTX_ARCH={arch} is not an architecture the pinned toolchain's nvptx backend knows; \
             choose one of: {list}"
        ));
    }
    Ok(())
}
