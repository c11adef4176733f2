use crate::device::{F32x4, fma};

/// The colour of a particle of `age` steps that lives `max_age` steps, as in
/// the notes: white when born, through yellow to red as it ages,
/// `(1, 1 − age/(2·max_age), 1 − age/max_age, 1)`.
///
/// `c = age / max_age` is a correctly rounded division on the GPU and the
/// CPU alike, and `1 − c/2` one explicit FMA, so the colour is bit-exact.
#[inline(always)]
pub fn age_colour(age: f32, max_age: f32) -> F32x4 {
    let c = age / max_age;
    F32x4::from_array([1.0, fma(-0.5, c, 1.0), 1.0 - c, 1.0])
}
