//! Pictures of the particle systems without a GPU: the camera, the point
//! rasterizer, PNG and APNG files, and the pictures of both systems.
//!
//! `cargo test --release --test particle_pictures -- --ignored` writes the
//! full-size pictures into `$PTXSUITE_PICTURES_DIR` (default `target/particle-pictures`).

use std::path::PathBuf;

use ptxsuite::particle_scene::{ParticleGrid, ParticleSystem};
use ptxsuite::picture::{
    Camera, PictureSettings, PointRasterizer, RgbImage, TableTop, frame_strip, read_png, render_frame,
    render_particles, write_apng, write_particle_pictures, write_png,
};
use ptxsuite::reference::simulate_particles;

fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxsuite-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A vertex buffer of `points` (position, colour) in the notes' layout.
fn vertex_buffer(points: &[([f32; 3], [f32; 4])]) -> Vec<f32> {
    let mut floats: Vec<f32> = points.iter().flat_map(|(p, _)| [p[0], p[1], p[2], 1.0]).collect();
    floats.extend(points.iter().flat_map(|(_, c)| *c));
    floats
}

fn lit_pixels(image: &RgbImage) -> Vec<(u32, u32)> {
    let mut lit = Vec::new();
    for y in 0..image.height() {
        for x in 0..image.width() {
            if image.pixel(x, y) != [0, 0, 0] {
                lit.push((x, y));
            }
        }
    }
    lit
}

#[test]
fn camera_projects_its_target_to_the_centre_and_rejects_points_behind_it() {
    let camera = Camera::look_at([0.0, 3.0, 10.0], [0.0, 1.0, 0.0], 45.0, 4.0 / 3.0);
    let centre = camera.project([0.0, 1.0, 0.0]).unwrap();
    assert!(centre[0].abs() < 1e-6 && centre[1].abs() < 1e-6, "{centre:?}");
    assert!(camera.project([0.0, 3.0, 11.0]).is_none(), "behind the eye");
    assert!(camera.project([100.0, 1.0, 0.0]).is_none(), "far off to the side");
    // Up in the world is up in the picture; right is right.
    assert!(camera.project([0.0, 2.0, 0.0]).unwrap()[1] > 0.0);
    assert!(camera.project([1.0, 1.0, 0.0]).unwrap()[0] > 0.0);
    // A point half the vertical field of view above the axis lands on the top edge.
    let (_, up, forward) = camera.basis();
    let tan = (22.5f32).to_radians().tan();
    let d = 5.0;
    let edge: [f32; 3] = std::array::from_fn(|i| camera.eye[i] + d * forward[i] + d * tan * up[i]);
    assert!((camera.project(edge).unwrap()[1] - 1.0).abs() < 1e-4);
    // The GL upload is the same matrix, column by column.
    let m = camera.view_projection();
    let columns = camera.column_major();
    assert_eq!(columns[1], m[1][0]);
    assert_eq!(columns[4], m[0][1]);
}

#[test]
fn one_point_lights_the_pixel_it_projects_to() {
    // A square image, looking down -z: the target projects to the centre of the image,
    // the corner between pixels (3,3), (4,3), (3,4), (4,4): the four share its light.
    let camera = Camera::look_at([0.0, 0.0, 5.0], [0.0, 0.0, 0.0], 60.0, 1.0);
    let buffer = vertex_buffer(&[([0.0, 0.0, 0.0], [1.0, 0.5, 0.0, 1.0])]);
    let image = render_frame(&buffer, 1, &camera, 8, 8);
    assert_eq!(lit_pixels(&image), vec![(3, 3), (4, 3), (3, 4), (4, 4)]);
    let [r, g, b] = image.pixel(3, 3);
    assert!(r > g && g > 0 && b == 0, "{:?}", [r, g, b]);
    // Two points add their light; a transparent one adds none.
    let two = vertex_buffer(&[
        ([0.0, 0.0, 0.0], [1.0, 0.5, 0.0, 1.0]),
        ([0.0, 0.0, 0.0], [1.0, 0.5, 0.0, 1.0]),
        ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0]),
    ]);
    let brighter = render_frame(&two, 3, &camera, 8, 8);
    assert!(brighter.pixel(3, 3)[0] > r);
    assert_eq!(brighter.pixel(3, 3)[2], 0);
}

#[test]
fn points_out_of_view_or_not_finite_are_skipped() {
    let camera = Camera::look_at([0.0, 0.0, 5.0], [0.0, 0.0, 0.0], 60.0, 1.0);
    let buffer = vertex_buffer(&[
        ([0.0, 0.0, 10.0], [1.0; 4]),               // behind the camera
        ([-10000.0, -10000.0, -10000.0], [1.0; 4]), // the fountain's parked particles
        ([f32::NAN, 0.0, 0.0], [1.0; 4]),
        ([0.0, 0.0, 0.0], [1.0; 4]),
    ]);
    let mut rasterizer = PointRasterizer::new(16, 16);
    assert_eq!(rasterizer.add_points(&buffer, 4, &camera, 0.5, None), 1);
}

#[test]
fn the_table_hides_what_is_below_it_and_shows_its_top() {
    let eye = [0.0, 4.0, 10.0];
    let table = TableTop::NOTES;
    assert!(table.hides(eye, [0.0, -1.0, 0.0]));
    assert!(!table.hides(eye, [0.0, 1.0, 0.0]));
    assert!(!table.hides(eye, [8.0, -1.0, 0.0]), "past the edge");
    let camera = Camera::look_at(eye, [0.0, 0.0, 0.0], 45.0, 1.0);
    let mut rasterizer = PointRasterizer::new(32, 32);
    rasterizer.draw_table_top(&camera, table);
    let image = rasterizer.finish();
    assert_ne!(image.pixel(16, 16), [0, 0, 0], "the table's centre is in view");
    assert_eq!(image.pixel(16, 0), [0, 0, 0], "the sky above it is black");
}

#[test]
fn png_and_apng_files_read_back() {
    let dir = scratch_dir("png");
    let mut image = RgbImage::new(5, 3);
    image.set_pixel(4, 2, [250, 20, 3]);
    let path = dir.join("still.png");
    write_png(&path, &image).unwrap();
    assert_eq!(read_png(&path).unwrap(), (image.clone(), None));
    let mut second = image.clone();
    second.set_pixel(0, 0, [1, 2, 3]);
    let animation = dir.join("animation.png");
    write_apng(&animation, &[image.clone(), second.clone(), image.clone()], 40).unwrap();
    assert_eq!(read_png(&animation).unwrap(), (image.clone(), Some(3)));
    assert!(write_apng(&animation, &[], 40).is_err());
    assert!(write_apng(&animation, &[image.clone(), RgbImage::new(2, 2)], 40).is_err());
    let strip = frame_strip(&[image.clone(), second, image], 2).unwrap();
    assert_eq!((strip.width(), strip.height()), (10, 6));
    assert_eq!(strip.pixel(5, 0), [1, 2, 3]);
    assert_eq!(strip.pixel(9, 5), [0, 0, 0], "the empty slot stays black");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn fountain_picture_shows_particles_above_a_table() {
    let grid = ParticleGrid::new(64, 64);
    let state = simulate_particles(ParticleSystem::Fountain, grid, 600, 900).unwrap();
    let image = render_particles(ParticleSystem::Fountain, &state, 160, 120);
    let (w, h) = (image.width(), image.height());
    // The table top is grey (r ≈ g ≈ b, not black) in the lower middle of the picture...
    let table = image.pixel(w / 2 - 30, h * 3 / 4);
    assert!(table.iter().all(|&c| (10..120).contains(&c)), "{table:?}");
    // ...and above it, particles: warm colours (red >= green >= blue).
    let warm = (0..h / 2)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| image.pixel(x, y))
        .filter(|p| p[0] > 60 && p[0] >= p[1] && p[1] >= p[2])
        .count();
    assert!(warm > 100, "{warm} warm pixels in the upper half");
}

#[test]
fn pictures_are_written_for_both_systems() {
    let dir = scratch_dir("pictures");
    let settings = PictureSettings {
        width: 64,
        height: 48,
        animation_width: 64,
        animation_height: 48,
        grid: ParticleGrid::new(16, 16),
        max_age: 50,
        warm_up_steps: 60,
        animation_frames: 5,
        steps_per_frame: 3,
        frame_ms: 40,
        strip_frames: 4,
    };
    for system in ParticleSystem::ALL {
        let paths = write_particle_pictures(&dir, system, &settings).unwrap();
        let names: Vec<String> = paths
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into())
            .collect();
        let label = system.label();
        assert_eq!(
            names,
            [
                format!("particles-{label}.png"),
                format!("particles-{label}-animation.png"),
                format!("particles-{label}-strip.png")
            ]
        );
        let (still, _) = read_png(&paths[0]).unwrap();
        let (first, frames) = read_png(&paths[1]).unwrap();
        assert_eq!((still.width(), still.height()), (64, 48));
        assert_eq!(first, still, "the animation starts with the still");
        assert_eq!(frames, Some(5));
        let (strip, _) = read_png(&paths[2]).unwrap();
        assert_eq!((strip.width(), strip.height()), (2 * 32, 2 * 24));
        assert!(!lit_pixels(&still).is_empty());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
#[ignore = "writes the full-size pictures (slow in a debug build)"]
fn write_full_size_pictures() {
    let dir = std::env::var_os("PTXSUITE_PICTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/particle-pictures"));
    for system in ParticleSystem::ALL {
        for path in write_particle_pictures(&dir, system, &PictureSettings::NOTES).unwrap() {
            println!("wrote {}", path.display());
        }
    }
}
