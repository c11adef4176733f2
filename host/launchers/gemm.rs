use crate::error::{Error, Result};

/// Checks that `A` (`m × k`), `B` (`k × n`) and `C` (`m × n`) fit their
/// buffers (lengths in elements) and that every index fits the kernels'
/// 32-bit arithmetic (and cuBLAS's `int` dimensions); `what` names the caller.
pub fn check_gemm_buffers(
    what: &'static str,
    (m, n, k): (u32, u32, u32),
    (a_len, b_len, c_len): (usize, usize, usize),
) -> Result<()> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel: what, reason };
    if m == 0 || n == 0 || k == 0 {
        return Err(invalid(format!("C = A·B with m = {m}, n = {n}, k = {k} is empty")));
    }
    let (a_needed, b_needed, c_needed) = (m as u64 * k as u64, k as u64 * n as u64, m as u64 * n as u64);
    let largest = a_needed.max(b_needed).max(c_needed);
    if largest > i32::MAX as u64 {
        return Err(invalid(format!(
            "a {m} x {n} x {k} product has a matrix of {largest} elements, beyond 2^31 - 1 (32-bit indices)"
        )));
    }
    if (a_len as u64) < a_needed || (b_len as u64) < b_needed || (c_len as u64) < c_needed {
        return Err(invalid(format!(
            "a {m} x {n} x {k} product needs A >= {a_needed}, B >= {b_needed}, C >= {c_needed} elements; \
             got {a_len}, {b_len}, {c_len}"
        )));
    }
    Ok(())
}
