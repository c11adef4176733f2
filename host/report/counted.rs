//! "1 point", "2 points": a count with its noun in the right number.

/// `n` and `one` or `many`: `counted(1, "point", "points")` is "1 point".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_everything_else_plural() {
        assert_eq!(counted(1, "point", "points"), "1 point");
        assert_eq!(counted(0, "point", "points"), "0 points");
        assert_eq!(counted(12, "regression", "regressions"), "12 regressions");
    }
}
