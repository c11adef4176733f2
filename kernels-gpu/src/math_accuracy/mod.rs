//! Accuracy of the fast approximations and of the accurate functions: a
//! kernel that evaluates one of them over a sweep of inputs (Best Practices
//! Guide §5.1.4, §7.2). The host measures the errors in ulp.

mod function_values;
mod math_function;

pub use function_values::{math_function_values, math_function_values_params};
pub use math_function::MathFunction;

/// Threads per block for [`math_function_values`].
pub const FUNCTION_VALUES_BLOCK_THREADS: u32 = 256;
