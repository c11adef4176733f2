//! Which PTX architectures (`sm_XY`) the builder accepts.

use std::process::Command;

use crate::error::BuildError;

/// The oldest architecture accepted: the oldest that CUDA 13 still supports,
/// and the oldest `ptx-device` is written for (warp shuffles with a mask,
/// `%globaltimer`, the f16x2 FMA).
pub const OLDEST_ARCH: u32 = 75;

/// `sm_90a` → 90; `None` for anything not shaped like an architecture.
pub fn arch_number(arch: &str) -> Option<u32> {
    arch.strip_prefix("sm_")?.trim_end_matches(['a', 'f']).parse().ok()
}

/// Whether `arch` is shaped like an architecture: `sm_` then digits and at
/// most one `a` or `f` suffix (`sm_75`, `sm_90a`, `sm_100f`).
pub fn is_well_formed(arch: &str) -> bool {
    let Some(rest) = arch.strip_prefix("sm_") else {
        return false;
    };
    let digits = rest.trim_end_matches(['a', 'f']);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && rest.len() - digits.len() <= 1
}

/// `Ok` for a well-formed architecture of at least [`OLDEST_ARCH`] that
/// `known` (the toolchain's list; empty when it cannot be read) holds; else
/// the error, naming `arch` as `named` (e.g. `PTXSUITE_PTX_ARCH=sm_72`) and
/// listing the architectures to choose from.
pub fn check(arch: &str, named: &str, known: &[String]) -> Result<(), BuildError> {
    if !is_well_formed(arch) {
        return Err(BuildError::MalformedArch {
            named: named.to_string(),
        });
    }
    let mut good: Vec<&String> = known
        .iter()
        .filter(|a| arch_number(a).is_some_and(|n| n >= OLDEST_ARCH))
        .collect();
    good.sort_by_key(|a| (arch_number(a), a.len(), a.to_string()));
    let choices: Vec<String> = good.into_iter().cloned().collect();
    if arch_number(arch).is_some_and(|n| n < OLDEST_ARCH) {
        return Err(BuildError::ArchTooOld {
            named: named.to_string(),
            choices,
        });
    }
    if !known.is_empty() && !known.iter().any(|a| a == arch) {
        return Err(BuildError::ArchUnknownToToolchain {
            named: named.to_string(),
            choices,
        });
    }
    Ok(())
}

/// The architectures the toolchain's nvptx back end knows, from
/// `rustc --print target-cpus` (empty if rustc cannot tell).
pub fn toolchain_archs(rustc: &str) -> Vec<String> {
    let Ok(output) = Command::new(rustc)
        .args(["--print", "target-cpus", "--target", crate::NVPTX_TARGET])
        .output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|word| word.starts_with("sm_"))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<String> {
        ["sm_70", "sm_72", "sm_75", "sm_80", "sm_90", "sm_90a", "sm_100"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn old_and_unknown_architectures_are_refused_with_the_good_ones_listed() {
        assert_eq!(check("sm_90a", "sm_90a", &known()), Ok(()));
        assert_eq!(check("sm_75", "sm_75", &known()), Ok(()));
        let old = check("sm_1", "ARCH=sm_1", &known()).unwrap_err().to_string();
        assert!(old.starts_with("ARCH=sm_1 is older than sm_75"), "{old}");
        assert!(old.ends_with("sm_75, sm_80, sm_90, sm_90a, sm_100"), "{old}");
        let old = check("sm_72", "sm_72", &known()).unwrap_err().to_string();
        assert!(old.contains("older"), "{old}");
        let unknown = check("sm_99", "sm_99", &known()).unwrap_err().to_string();
        assert!(
            unknown.contains("not an architecture the toolchain's nvptx back end knows"),
            "{unknown}"
        );
        assert!(unknown.ends_with("sm_75, sm_80, sm_90, sm_90a, sm_100"), "{unknown}");
        // Without the toolchain's list, only the age is checked.
        assert_eq!(check("sm_99", "sm_99", &[]), Ok(()));
    }

    #[test]
    fn only_sm_numbers_with_one_optional_suffix_are_well_formed() {
        for good in ["sm_75", "sm_90a", "sm_100f", "sm_120"] {
            assert!(is_well_formed(good), "{good}");
        }
        for bad in ["sm75", "compute_75", "sm_", "sm_a", "sm_90af", "sm_9x", "SM_75", ""] {
            assert!(!is_well_formed(bad), "{bad}");
            assert!(matches!(
                check(bad, bad, &known()),
                Err(BuildError::MalformedArch { .. })
            ));
        }
    }

    #[test]
    fn arch_numbers_drop_the_suffix() {
        assert_eq!(arch_number("sm_90a"), Some(90));
        assert_eq!(arch_number("sm_100f"), Some(100));
        assert_eq!(arch_number("compute_90"), None);
    }
}
