//! The self-test check of the array sum (`reduction`): both kernels in every
//! implementation the GPU has, on ragged lengths, through the family's runners.

use super::SelfTest;
use super::checks::{first, once, verified};
use crate::error::Result;
use crate::input_values::sparse_ones;
use crate::launchers::reduction_runners;
use crate::testbed::Testbed;

/// The check of the array sum (gathered with the other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[SelfTest {
    name: "array sum: block tree and grid-stride shuffle (sums of ones, exact)",
    run: array_sums,
}];

/// Lengths: one element, a partial vector and block, and enough for several waves.
const LENGTHS: [usize; 4] = [1, 4099, 100_003, 1 << 20];

/// Every kernel of every runner sums dense ones and sparse ones; every partial
/// is an integer below 2^24, so each sum must equal the count of ones exactly.
fn array_sums(testbed: &Testbed) -> Result<()> {
    let (mut runners, _waived) = reduction_runners(first(testbed))?;
    for n in LENGTHS {
        for x in [vec![1.0; n], sparse_ones(n)] {
            let ones: f64 = x.iter().map(|&v| v as f64).sum();
            for runner in &mut runners {
                runner.load(&x)?;
                for entry in runner.entries() {
                    runner.time(&entry, &once())?;
                    let got = runner.read_sum(&entry)?;
                    verified(
                        format!(
                            "{} · {}, {n} elements",
                            entry.kernel.kernel(),
                            entry.implementation.label()
                        ),
                        (got != ones).then(|| format!("sum {got}, where the array holds {ones} ones")),
                    )?;
                }
            }
        }
    }
    Ok(())
}
