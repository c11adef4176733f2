//! The twins' figures beside a ledger row's: the rows grade the Rust
//! kernels, and show what the CUDA C and OpenCL C twins measured alongside.

use crate::testbed::Implementation;

/// "; the twins, {what}: CUDA C: 31.90x, OpenCL C: 30.20x": each twin's
/// `ratio` where it ran, empty where none did.
pub fn twin_ratios(what: &str, ratio: impl Fn(Implementation) -> Option<f64>) -> String {
    let ratios: Vec<String> = [Implementation::CudaC, Implementation::OpenClC]
        .into_iter()
        .filter_map(|i| Some(format!("{}: {:.2}x", i.label(), ratio(i)?)))
        .collect();
    if ratios.is_empty() {
        return String::new();
    }
    format!("; the twins, {what}: {}", ratios.join(", "))
}

#[cfg(test)]
mod tests {
    use super::twin_ratios;
    use crate::testbed::Implementation;

    #[test]
    fn each_twin_that_ran_is_named_and_none_leaves_the_row_alone() {
        let both = twin_ratios("stride 32 over 1", |i| {
            Some(if i == Implementation::CudaC { 31.9 } else { 30.2 })
        });
        assert_eq!(both, "; the twins, stride 32 over 1: CUDA C: 31.90x, OpenCL C: 30.20x");
        let opencl = twin_ratios("x", |i| (i == Implementation::OpenClC).then_some(2.0));
        assert_eq!(opencl, "; the twins, x: OpenCL C: 2.00x");
        assert_eq!(twin_ratios("x", |_| None), "");
    }
}
