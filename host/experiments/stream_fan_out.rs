//! The check of one-block `fma_chain` kernels fanned out over streams
//! ([`FanOutRunner`](crate::launchers::FanOutRunner)), shared by
//! `concurrent-kernels` and `default-stream`.

use kernels_gpu::streams::{FMA_CHAIN_A, FMA_CHAIN_B};

use crate::launchers::{FAN_BLOCK, FAN_ITERATIONS};

/// Where `fma_chain` leaves an element that started at 0 after one launch:
/// [`FAN_ITERATIONS`] steps of `x ← fma(x, A, B)`, which by then has reached
/// the map's fixed point (B / (1 − A) = 10 in exact arithmetic; rounding
/// stalls f32 at 9.9936), so further
/// launches leave it there.
pub fn fan_reference() -> f32 {
    (0..FAN_ITERATIONS).fold(0.0f32, |x, _| x.mul_add(FMA_CHAIN_A, FMA_CHAIN_B))
}

/// Why `data` (filled with 0 before) is not what `kernels` kernels leave:
/// their blocks at the fixed point, every element after them still 0.
pub fn fan_mismatch(data: &[f32], kernels: usize) -> Option<String> {
    let reference = fan_reference();
    let touched = (kernels * FAN_BLOCK).min(data.len());
    if let Some(i) = data[..touched]
        .iter()
        .position(|&x| (x - reference).abs() > 1e-5 * reference.abs())
    {
        return Some(format!("element {i} is {}, expected {reference}", data[i]));
    }
    data[touched..].iter().position(|&x| x != 0.0).map(|i| {
        format!(
            "element {} beyond the {kernels} kernels' blocks was written",
            touched + i
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{FAN_BLOCK, fan_mismatch, fan_reference};

    #[test]
    fn the_reference_is_the_maps_fixed_point() {
        let r = fan_reference();
        // f32 rounding stalls the map a little short of 10 (at 9.9936): the stall is its fixed point.
        assert!((r - 10.0).abs() < 1e-2, "{r}");
        // One more launch's worth of steps leaves it in place.
        let again = (0..1000).fold(r, |x, _| x.mul_add(super::FMA_CHAIN_A, super::FMA_CHAIN_B));
        assert!((again - r).abs() <= 1e-5 * r, "{again} vs {r}");
    }

    #[test]
    fn a_wrong_block_or_a_write_past_the_kernels_is_found() {
        let r = fan_reference();
        let mut data = vec![r; 2 * FAN_BLOCK];
        data.extend(vec![0.0; FAN_BLOCK]);
        assert_eq!(fan_mismatch(&data, 2), None);
        assert!(fan_mismatch(&data, 3).is_some(), "the third block was never run");
        data[5] = 0.0;
        assert!(fan_mismatch(&data, 2).unwrap().contains("element 5"));
        data[5] = r;
        data[2 * FAN_BLOCK + 1] = 1.0;
        assert!(fan_mismatch(&data, 2).unwrap().contains("beyond"));
    }
}
