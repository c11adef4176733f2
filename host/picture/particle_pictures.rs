//! The pictures of the two particle systems: stills after the systems have
//! settled, animations, and film strips of them.

use std::path::{Path, PathBuf};

use super::{Camera, PointRasterizer, RgbImage, TableTop, frame_strip, write_apng, write_png};
use crate::error::{Error, Result};
use crate::particle_scene::{NOTES_GRID, NOTES_MAX_AGE, ParticleGrid, ParticleState, ParticleSystem, initial_state};
use crate::reference::run_particle_steps;

/// What to simulate and how large to draw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PictureSettings {
    /// Size of the still.
    pub width: u32,
    pub height: u32,
    /// Size of the animation's frames (smaller: a frame of points compresses poorly).
    pub animation_width: u32,
    pub animation_height: u32,
    pub grid: ParticleGrid,
    pub max_age: u32,
    /// Steps simulated before the still (and the animation's first frame):
    /// past `max_age`, every particle has been born at least once.
    pub warm_up_steps: u32,
    pub animation_frames: u32,
    /// Simulation steps between two frames of the animation.
    pub steps_per_frame: u32,
    /// How long each frame of the animation shows.
    pub frame_ms: u16,
    /// Frames in the film strip (taken evenly from the animation's), drawn at half the still's size.
    pub strip_frames: u32,
}

impl PictureSettings {
    /// The notes' 256 × 256 particles living 600 steps: a 640 × 480 still
    /// and a 400 × 300 animation of 60 frames, 8 steps apart, at 25 frames
    /// per second (a few MB); a strip of 8 of its frames at 320 × 240.
    pub const NOTES: Self = Self {
        width: 640,
        height: 480,
        animation_width: 400,
        animation_height: 300,
        grid: NOTES_GRID,
        max_age: NOTES_MAX_AGE,
        warm_up_steps: 1000,
        animation_frames: 60,
        steps_per_frame: 8,
        frame_ms: 40,
        strip_frames: 8,
    };
}

/// The fountain from a little above the table, far enough back to see the
/// whole table and the particles falling past its edge.
pub fn fountain_camera(aspect: f32) -> Camera {
    Camera::look_at([0.0, 2.2, 11.0], [0.0, 1.1, 0.0], 45.0, aspect)
}

/// The swarm seen from outside the loop its target follows.
pub fn swarm_camera(aspect: f32) -> Camera {
    Camera::look_at([0.0, 2.2, 4.6], [0.0, 0.9, 0.0], 50.0, aspect)
}

/// One frame of `state`: the fountain over its table top, the swarm on black.
pub fn render_particles(system: ParticleSystem, state: &ParticleState, width: u32, height: u32) -> RgbImage {
    let aspect = width as f32 / height as f32;
    let particles = state.grid.particles();
    let mut rasterizer = PointRasterizer::new(width, height);
    let weight = PointRasterizer::default_weight(width, height, particles);
    match system {
        ParticleSystem::Fountain => {
            let camera = fountain_camera(aspect);
            rasterizer.draw_table_top(&camera, TableTop::NOTES);
            rasterizer.add_points(&state.vertices, particles, &camera, weight, Some(TableTop::NOTES));
        }
        ParticleSystem::Swarm => {
            rasterizer.add_points(&state.vertices, particles, &swarm_camera(aspect), weight, None);
        }
    }
    rasterizer.finish()
}

/// Simulates `system` on the CPU and writes into `dir`:
/// `particles-<system>.png` (the still after the warm-up),
/// `particles-<system>-animation.png` (an animated PNG) and
/// `particles-<system>-strip.png` (some of its frames side by side).
/// Returns the paths written.
pub fn write_particle_pictures(dir: &Path, system: ParticleSystem, settings: &PictureSettings) -> Result<Vec<PathBuf>> {
    let sizes = [
        settings.width,
        settings.height,
        settings.animation_width,
        settings.animation_height,
    ];
    if settings.animation_frames == 0 || sizes.contains(&0) {
        return Err(Error::InvalidInput(
            "pictures need a size and at least one frame".into(),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let (w, h) = (settings.width, settings.height);
    let mut state = initial_state(system, settings.grid, settings.max_age)?;
    state = run_particle_steps(system, state, settings.max_age, 0, settings.warm_up_steps);
    let mut frame = settings.warm_up_steps;
    let still = render_particles(system, &state, w, h);

    let strip_every = (settings.animation_frames / settings.strip_frames.max(1)).max(1);
    let mut frames = Vec::with_capacity(settings.animation_frames as usize);
    let mut strip = Vec::new();
    for k in 0..settings.animation_frames {
        frames.push(render_particles(
            system,
            &state,
            settings.animation_width,
            settings.animation_height,
        ));
        if k % strip_every == 0 && (strip.len() as u32) < settings.strip_frames {
            strip.push(render_particles(system, &state, w / 2, h / 2));
        }
        state = run_particle_steps(system, state, settings.max_age, frame, settings.steps_per_frame);
        frame += settings.steps_per_frame;
    }

    let name = system.label();
    let still_path = dir.join(format!("particles-{name}.png"));
    write_png(&still_path, &still)?;
    let animation = dir.join(format!("particles-{name}-animation.png"));
    write_apng(&animation, &frames, settings.frame_ms)?;
    let strip_path = dir.join(format!("particles-{name}-strip.png"));
    let columns = (strip.len() as u32).div_ceil(2).max(1);
    write_png(&strip_path, &frame_strip(&strip, columns).expect("frames of one size"))?;
    Ok(vec![still_path, animation, strip_path])
}
