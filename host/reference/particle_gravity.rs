//! What one step of the notes' all-pairs swarm (`particle_gravity`, naive
//! or tiled) does: every particle sums `1/d` per axis over every particle's
//! scaled offset `d = 1000·(p_j − p_i)` with `|d| > 0.1`, in the order
//! `j = 0, 1, …`, adds it to its velocity and moves by `10⁻⁷` of it.
//! Written from the notes' description, each operation rounded in `f32` as
//! the kernels round it (the move one fused multiply-add).

use crate::particle_scene::ParticleState;

/// One step of `state` (positions, colours and velocities), all particles
/// reading the positions before the step.
pub fn gravity_step(state: &mut ParticleState) {
    let n = state.grid.particles();
    let before: Vec<[f32; 3]> = (0..n)
        .map(|i| {
            [
                state.vertices[4 * i],
                state.vertices[4 * i + 1],
                state.vertices[4 * i + 2],
            ]
        })
        .collect();
    for (i, me) in before.iter().enumerate() {
        let mut pull = [0.0f32; 3];
        for other in &before {
            for k in 0..3 {
                let d = 1000.0 * (other[k] - me[k]);
                if d.abs() > 0.1 {
                    pull[k] += 1.0 / d;
                }
            }
        }
        let v = [0, 1, 2].map(|k| pull[k] + state.state[4 * i + 1 + k]);
        let tint = |c: f32| if c > 0.0 { 1.0 } else { 0.4 };
        state.state[4 * i..4 * i + 4].copy_from_slice(&[0.0, v[0], v[1], v[2]]);
        state.vertices[4 * (n + i)..4 * (n + i) + 4].copy_from_slice(&[tint(v[0]), tint(v[1]), tint(v[2]), 1.0]);
        let moved = [0, 1, 2].map(|k| 0.000_000_1f32.mul_add(v[k], me[k]));
        state.vertices[4 * i..4 * i + 4].copy_from_slice(&[moved[0], moved[1], moved[2], 1.0]);
    }
}
