//! build.rs's choice of PTX architectures: below sm_75 or unknown to the toolchain is refused with the list.

#[path = "../build/ptx_arch.rs"]
mod ptx_arch;

fn known() -> Vec<String> {
    ["sm_70", "sm_72", "sm_75", "sm_80", "sm_90", "sm_90a", "sm_100"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn old_and_unknown_architectures_are_refused_with_the_good_ones_listed() {
    assert_eq!(ptx_arch::check("sm_90a", &known()), Ok(()));
    assert_eq!(ptx_arch::check("sm_75", &known()), Ok(()));
    let old = ptx_arch::check("sm_1", &known()).unwrap_err();
    assert!(old.contains("older than sm_75"), "{old}");
    assert!(old.ends_with("sm_75, sm_80, sm_90, sm_90a, sm_100"), "{old}");
    let old = ptx_arch::check("sm_72", &known()).unwrap_err();
    assert!(old.contains("older"), "{old}");
    let unknown = ptx_arch::check("sm_99", &known()).unwrap_err();
    assert!(
        unknown.contains("not an architecture the pinned toolchain"),
        "{unknown}"
    );
    // Without the toolchain's list, only the age is checked.
    assert_eq!(ptx_arch::check("sm_99", &[]), Ok(()));
}
