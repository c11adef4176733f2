//! The kernels' signatures as the host sees them (`saxpy_params`,
//! `block_sum_params`, from `kernel!`) against the `.param` lists of the PTX
//! the GPU loads: same count, same PTX type at each position. No GPU needed.

use ptx_device::KernelSignature;
use saxpy_host::KERNELS_PTX;
use saxpy_kernels::{block_sum_params, saxpy_params};

/// The PTX types of entry `name`'s parameters, in order (`.u64`, `.f32`, ...).
fn ptx_param_types(name: &str) -> Vec<String> {
    let head = format!(".entry {name}(");
    let start = KERNELS_PTX.find(&head).unwrap_or_else(|| panic!("no entry {name}")) + head.len();
    let end = start + KERNELS_PTX[start..].find(')').expect("parameter list closes");
    KERNELS_PTX[start..end]
        .split(',')
        .filter_map(|declaration| declaration.split_whitespace().nth(1).map(str::to_string))
        .collect()
}

fn check<S: KernelSignature>() {
    let expected: Vec<&str> = S::PARAMS.iter().map(|p| p.kind.ptx_type()).collect();
    assert_eq!(ptx_param_types(S::NAME), expected, "{}", S::NAME);
}

#[test]
fn the_ptx_entries_take_the_signatures_parameters() {
    check::<saxpy_params>();
    check::<block_sum_params>();
    let names: Vec<&str> = saxpy_params::PARAMS.iter().map(|p| p.name).collect();
    assert_eq!(names, ["y", "x", "a", "n"]);
}
