//! OpenGL through EGL without a window, on Mesa's software renderer (no
//! GPU needed): a core context with no config and no surface, a vertex
//! buffer in the notes' layout filled with known points, drawn additively
//! into a framebuffer object, and the pixels read back.
//!
//! Without EGL or Mesa each test prints `SKIPPED <test>: why` (past the
//! harness's capture) and passes.

use std::io::Write;
use std::rc::Rc;

use ptxsuite::Error;
use ptxsuite::gl::{EglDeviceChoice, GlContext, PointRenderer};

/// A software GL context, or `None` after saying why the test is skipped.
fn software_context_or_skip(test: &str) -> Option<Rc<GlContext>> {
    match GlContext::open(EglDeviceChoice::Software) {
        Ok(context) => Some(Rc::new(context)),
        Err(Error::Waived(why)) => {
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
            None
        }
        Err(e) => panic!("creating a software GL context failed: {e}"),
    }
}

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, //
    0.0, 1.0, 0.0, 0.0, //
    0.0, 0.0, 1.0, 0.0, //
    0.0, 0.0, 0.0, 1.0,
];

/// Normalized device coordinates of the centre of pixel `(x, y)`, `y` from the top.
fn pixel_centre(x: u32, y: u32, width: u32, height: u32) -> [f32; 2] {
    [
        2.0 * (x as f32 + 0.5) / width as f32 - 1.0,
        1.0 - 2.0 * (y as f32 + 0.5) / height as f32,
    ]
}

/// Byte `k` as a colour component that converts back to `k` exactly.
fn unit(k: u8) -> f32 {
    k as f32 / 255.0
}

#[test]
fn software_context_is_a_desktop_core_context_without_surface() {
    let Some(context) = software_context_or_skip("software_context_is_a_desktop_core_context_without_surface") else {
        return;
    };
    let (major, minor) = context.version();
    assert!((major, minor) >= (3, 3), "{major}.{minor}");
    assert!(
        context.version_string().starts_with(&format!("{major}.{minor}")),
        "{}",
        context.version_string()
    );
    assert!(!context.renderer().is_empty());
    let _ = writeln!(
        std::io::stderr(),
        "GL {major}.{minor} core on {} ({}): {}",
        context.display().description(),
        context.display().vendor(),
        context.renderer()
    );
}

#[test]
fn known_points_land_on_their_pixels_with_their_colours() {
    let Some(context) = software_context_or_skip("known_points_land_on_their_pixels_with_their_colours") else {
        return;
    };
    let (width, height) = (16, 8);
    // (pixel, colour): two points share pixel (5, 2) and add up; one is off-screen; one is transparent.
    let points: [([f32; 2], [f32; 4]); 6] = [
        (pixel_centre(0, 0, width, height), [unit(255), unit(0), unit(0), 1.0]),
        (pixel_centre(15, 7, width, height), [unit(0), unit(255), unit(0), 1.0]),
        (pixel_centre(5, 2, width, height), [unit(51), unit(17), unit(3), 1.0]),
        (pixel_centre(5, 2, width, height), [unit(51), unit(17), unit(3), 1.0]),
        ([3.0, 0.0], [1.0, 1.0, 1.0, 1.0]),
        (pixel_centre(9, 6, width, height), [1.0, 1.0, 1.0, 0.0]),
    ];
    let n = points.len();
    let mut vertices: Vec<f32> = points.iter().flat_map(|(p, _)| [p[0], p[1], 0.0, 1.0]).collect();
    vertices.extend(points.iter().flat_map(|(_, c)| *c));
    let renderer = PointRenderer::new(context.clone(), n, width, height).unwrap();
    renderer.upload_vertices(&vertices).unwrap();
    assert_eq!(
        renderer.read_vertices().unwrap(),
        vertices,
        "the buffer reads back as written"
    );
    let times = renderer.draw(&IDENTITY, 1.0).unwrap();
    assert!(times.gpu_ms >= 0.0 && times.host_ms >= 0.0, "{times:?}");
    let image = renderer.read_pixels().unwrap();
    let mut expected = vec![[0u8; 3]; (width * height) as usize];
    expected[0] = [255, 0, 0];
    expected[(7 * width + 15) as usize] = [0, 255, 0];
    expected[(2 * width + 5) as usize] = [102, 34, 6];
    for y in 0..height {
        for x in 0..width {
            let want = expected[(y * width + x) as usize];
            let got = image.pixel(x, y);
            let close = got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1);
            assert!(close, "pixel ({x}, {y}): {got:?}, expected {want:?}");
        }
    }
}

#[test]
fn weight_scales_every_point_and_vertex_buffer_sizes_are_checked() {
    let Some(context) = software_context_or_skip("weight_scales_every_point_and_vertex_buffer_sizes_are_checked")
    else {
        return;
    };
    let renderer = PointRenderer::new(context.clone(), 1, 4, 4).unwrap();
    assert_eq!(renderer.vertex_bytes(), 32);
    assert!(renderer.upload_vertices(&[0.0; 7]).is_err());
    let [x, y] = pixel_centre(1, 1, 4, 4);
    renderer.upload_vertices(&[x, y, 0.0, 1.0, 1.0, 0.8, 0.4, 1.0]).unwrap();
    renderer.draw(&IDENTITY, 0.5).unwrap();
    let got = renderer.read_pixels().unwrap().pixel(1, 1);
    let want = [128u8, 102, 51];
    assert!(got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1), "{got:?}");
    assert!(PointRenderer::new(context, 0, 4, 4).is_err());
}

/// Brightness-weighted centre of an image, in pixels, and its total brightness.
fn centroid(image: &ptxsuite::picture::RgbImage) -> (f64, f64, f64) {
    let (mut sx, mut sy, mut total) = (0.0, 0.0, 0.0);
    for y in 0..image.height() {
        for x in 0..image.width() {
            let v: f64 = image.pixel(x, y).iter().map(|&c| c as f64).sum();
            sx += v * x as f64;
            sy += v * y as f64;
            total += v;
        }
    }
    (sx / total, sy / total, total)
}

#[test]
fn opengl_and_the_software_rasterizer_see_the_fountain_alike() {
    use ptxsuite::particle_scene::{ParticleGrid, ParticleSystem};
    use ptxsuite::picture::{PointRasterizer, fountain_camera, render_frame};
    use ptxsuite::reference::simulate_particles;

    let Some(context) = software_context_or_skip("opengl_and_the_software_rasterizer_see_the_fountain_alike") else {
        return;
    };
    let (width, height) = (160, 120);
    let grid = ParticleGrid::new(64, 64);
    let state = simulate_particles(ParticleSystem::Fountain, grid, 600, 800).unwrap();
    let camera = fountain_camera(width as f32 / height as f32);
    let renderer = PointRenderer::new(context, grid.particles(), width, height).unwrap();
    renderer.upload_vertices(&state.vertices).unwrap();
    let weight = PointRasterizer::default_weight(width, height, grid.particles());
    renderer.draw(&camera.column_major(), weight).unwrap();
    let gl = renderer.read_pixels().unwrap();
    let software = render_frame(&state.vertices, grid.particles(), &camera, width, height);
    let (gx, gy, g_total) = centroid(&gl);
    let (sx, sy, s_total) = centroid(&software);
    // The same matrix places the cloud on the same pixels (a transposed or flipped one would not).
    assert!(
        (gx - sx).abs() < 1.5 && (gy - sy).abs() < 1.5,
        "GL centre ({gx:.1}, {gy:.1}), software ({sx:.1}, {sy:.1})"
    );
    assert!(g_total > 0.0 && s_total > 0.0);
    // Pixels lit by GL are lit (or next to lit ones) in the software picture.
    let lit = |img: &ptxsuite::picture::RgbImage, x: u32, y: u32| img.pixel(x, y) != [0, 0, 0];
    let (mut gl_lit, mut matched) = (0, 0);
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            if lit(&gl, x, y) {
                gl_lit += 1;
                if (y - 1..=y + 1).any(|yy| (x - 1..=x + 1).any(|xx| lit(&software, xx, yy))) {
                    matched += 1;
                }
            }
        }
    }
    assert!(
        gl_lit > 200 && matched == gl_lit,
        "{matched} of {gl_lit} GL pixels near software ones"
    );
}
