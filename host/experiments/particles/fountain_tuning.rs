//! The notes' tuning of the fountain, measured: every version from their
//! first kernel to the shared-memory tile at 16 × 16 (the shape of their
//! 730 → 1530 fps), and their second block-shape table (naive against
//! optimised) at every shape, on their 256 × 256 particles, graph-timed and
//! checked bit for bit.

use kernels_gpu::device::Dim3;

use super::graph_point::graph_point;
use super::population::{EmitterPaths, Population, population_variant};
use crate::error::Result;
use crate::experiments::RunContext;
use crate::launchers::ParticleRunner;
use crate::particle_scene::{FountainVersion, NOTES_GRID, ParticleSystem, TableTop, fountain_emitter_angle};
use crate::report::{ExperimentResult, PointKey, Series};
use crate::testbed::Implementation;

/// The shapes of the notes' second table (naive against optimised), in its order.
pub const TUNING_SHAPES: [(u32, u32); 10] = [
    (1, 1),
    (2, 2),
    (8, 8),
    (12, 12),
    (16, 16),
    (20, 20),
    (16, 1),
    (1, 16),
    (256, 1),
    (1, 256),
];

/// The shape of the notes' tuning steps (their 730 and 1530 fps).
pub const TUNING_BLOCK: (u32, u32) = (16, 16);

/// The point key of the second table's row `index` (0-based): 1 to 10.
pub fn tuning_key(index: usize) -> PointKey {
    PointKey::Value(index as i64 + 1)
}

/// The point key of `shape` in the second table.
pub fn tuning_key_of(shape: (u32, u32)) -> Option<PointKey> {
    TUNING_SHAPES.iter().position(|&s| s == shape).map(tuning_key)
}

/// The versions measured at `shape`: the naive and optimised ones at every
/// shape of the table, the steps between and after them at [`TUNING_BLOCK`].
pub fn versions_at(shape: (u32, u32)) -> Vec<FountainVersion> {
    if shape == TUNING_BLOCK {
        FountainVersion::ALL.to_vec()
    } else {
        vec![FountainVersion::Naive, FountainVersion::Registers]
    }
}

/// Points the fountain tuning measures (each for every implementation).
pub fn tuning_points() -> usize {
    TUNING_SHAPES.iter().map(|&s| versions_at(s).len()).sum()
}

/// Measures every version at every shape it runs at on `runner`, adding one
/// series per version and implementation. Returns `false` when stopped
/// before the end.
pub fn measure_tuning(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    runner: &dyn ParticleRunner,
    emitters: &EmitterPaths,
    (done, planned): (&mut usize, usize),
) -> Result<bool> {
    let max_age = crate::particle_scene::NOTES_MAX_AGE;
    let rows = NOTES_GRID.height;
    let fountain = ParticleSystem::Fountain;
    let mut disc = Population::on(runner, fountain, TableTop::Disc, NOTES_GRID, max_age, rows)?;
    let mut square = Population::on(runner, fountain, TableTop::Square, NOTES_GRID, max_age, rows)?;
    let variant = population_variant(NOTES_GRID);
    let mut series: Vec<(FountainVersion, Implementation, Series)> = Vec::new();
    let mut timer = runner.clock()?;
    for (row, shape) in TUNING_SHAPES.into_iter().enumerate() {
        for version in versions_at(shape) {
            if ctx.stop_before(*done, planned) {
                return Ok(false);
            }
            ctx.progress
                .set_message(format!("particle-tuning: {} {}x{}", version.label(), shape.0, shape.1));
            let population = match version.table_top() {
                TableTop::Disc => &mut disc,
                TableTop::Square => &mut square,
            };
            for &implementation in runner.implementations() {
                let block = Dim3::xy(shape.0, shape.1);
                let mut step = |p: &mut Population, frame: u32| {
                    let inputs = (fountain_emitter_angle(frame), frame);
                    p.buffers.step_version(implementation, version, block, max_age, inputs)
                };
                let emitter = emitters.of(implementation);
                let point = graph_point(
                    (runner, timer.as_mut()),
                    ctx.settings,
                    tuning_key(row),
                    population,
                    emitter,
                    &mut step,
                )?;
                let k = match series
                    .iter()
                    .position(|(v, i, _)| (*v, *i) == (version, implementation))
                {
                    Some(k) => k,
                    None => {
                        let key = ctx.key(version.kernel(), implementation, "f32x4").variant(&variant);
                        let title = format!("{} · {}, {}", version.label(), implementation.label(), variant);
                        series.push((version, implementation, Series::new(key, title)));
                        series.len() - 1
                    }
                };
                series[k].2.points.extend(point);
            }
            *done += 1;
            ctx.progress.inc(1);
        }
    }
    result.series.extend(series.into_iter().map(|(_, _, s)| s));
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::{TUNING_BLOCK, TUNING_SHAPES, tuning_key_of, tuning_points, versions_at};
    use crate::particle_scene::FountainVersion;
    use crate::report::PointKey;

    #[test]
    fn every_version_runs_at_the_notes_shape_and_two_at_every_shape() {
        assert_eq!(versions_at(TUNING_BLOCK).len(), FountainVersion::ALL.len());
        assert_eq!(
            versions_at((1, 256)),
            [FountainVersion::Naive, FountainVersion::Registers]
        );
        assert_eq!(tuning_points(), 2 * TUNING_SHAPES.len() + 3);
        assert_eq!(tuning_key_of((1, 1)), Some(PointKey::Value(1)));
        assert_eq!(tuning_key_of((1, 256)), Some(PointKey::Value(10)));
        assert_eq!(tuning_key_of((4, 4)), None);
        assert!(TUNING_SHAPES.iter().all(|&(x, y)| x * y <= 1024));
    }
}
