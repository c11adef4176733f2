use super::{Camera, RgbImage};

/// The fountain's table top: the disc `x² + z² < radius²` in the plane `y = 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableTop {
    pub radius: f32,
}

impl TableTop {
    /// The notes' table: `x² + z² < 25`.
    pub const NOTES: Self = Self { radius: 5.0 };

    /// Whether the table hides `point` from `eye`: the point is below the
    /// table's plane, the eye above it, and the line between them crosses
    /// the plane inside the disc.
    pub fn hides(&self, eye: [f32; 3], point: [f32; 3]) -> bool {
        if !(eye[1] > 0.0 && point[1] < 0.0) {
            return false;
        }
        let t = eye[1] / (eye[1] - point[1]);
        let x = eye[0] + t * (point[0] - eye[0]);
        let z = eye[2] + t * (point[2] - eye[2]);
        x * x + z * z < self.radius * self.radius
    }
}

/// Light accumulated per pixel (linear, unbounded), tone-mapped to 8 bits
/// at the end with `1 − e^(−light)`: additive colour that saturates
/// smoothly where thousands of points pile up.
pub struct PointRasterizer {
    width: u32,
    height: u32,
    light: Vec<[f32; 3]>,
}

/// Light that tone-maps to `value` (in `[0, 1)`).
fn light_for(value: f32) -> f32 {
    -(1.0 - value.min(0.999)).ln()
}

impl PointRasterizer {
    /// A black image of `width × height`.
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            light: vec![[0.0; 3]; width as usize * height as usize],
        }
    }

    /// Normalized device coordinates of pixel `(x, y)`'s centre (`y` from the top).
    fn pixel_ndc(&self, x: u32, y: u32) -> (f32, f32) {
        (
            2.0 * (x as f32 + 0.5) / self.width as f32 - 1.0,
            1.0 - 2.0 * (y as f32 + 0.5) / self.height as f32,
        )
    }

    /// Paints the table top under everything: a dark checkerboard of unit
    /// squares (so its perspective reads) with a lighter rim, shaded darker
    /// with distance from the eye.
    pub fn draw_table_top(&mut self, camera: &Camera, table: TableTop) {
        let eye = camera.eye;
        if eye[1] <= 0.0 {
            return; // seen from below: the table is a line or hidden
        }
        for y in 0..self.height {
            for x in 0..self.width {
                let (nx, ny) = self.pixel_ndc(x, y);
                let d = camera.ray_direction(nx, ny);
                if d[1] >= 0.0 {
                    continue;
                }
                let t = -eye[1] / d[1];
                let (px, pz) = (eye[0] + t * d[0], eye[2] + t * d[2]);
                let r = (px * px + pz * pz).sqrt();
                if r >= table.radius {
                    continue;
                }
                let checker = (px.floor() as i64 + pz.floor() as i64).rem_euclid(2) == 0;
                let mut shade = if checker {
                    [0.16, 0.17, 0.21]
                } else {
                    [0.11, 0.12, 0.15]
                };
                if r > table.radius - 0.08 {
                    shade = [0.30, 0.31, 0.36];
                }
                let distance = (t * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()).max(1.0);
                let fade = (12.0 / distance).min(1.0);
                let at = (y * self.width + x) as usize;
                for c in 0..3 {
                    self.light[at][c] += light_for(shade[c] * fade);
                }
            }
        }
    }

    /// Adds the points of a vertex buffer in the notes' layout
    /// (`particles` positions `x, y, z, w`, then as many colours
    /// `r, g, b, a`): each adds `weight × colour × alpha` of light, spread
    /// bilinearly over the four pixels around where it projects. Points
    /// outside the view, with a non-finite position, or hidden by `occluder`
    /// are skipped. Returns how many points were drawn.
    ///
    /// # Panics
    /// If `positions_and_colours` holds fewer than `8 × particles` floats.
    pub fn add_points(
        &mut self,
        positions_and_colours: &[f32],
        particles: usize,
        camera: &Camera,
        weight: f32,
        occluder: Option<TableTop>,
    ) -> usize {
        assert!(
            positions_and_colours.len() >= 8 * particles,
            "{particles} particles need {} floats, got {}",
            8 * particles,
            positions_and_colours.len()
        );
        let (positions, colours) = positions_and_colours.split_at(4 * particles);
        let (w, h) = (self.width as f32, self.height as f32);
        let mut drawn = 0;
        for p in 0..particles {
            let point = [positions[4 * p], positions[4 * p + 1], positions[4 * p + 2]];
            if !point.iter().all(|c| c.is_finite()) || occluder.is_some_and(|t| t.hides(camera.eye, point)) {
                continue;
            }
            let Some([nx, ny, _]) = camera.project(point) else {
                continue;
            };
            let alpha = colours[4 * p + 3];
            let light = [0, 1, 2].map(|c| weight * alpha * colours[4 * p + c]);
            // Continuous pixel coordinates with pixel centres at integers.
            let (fx, fy) = ((nx + 1.0) * 0.5 * w - 0.5, (1.0 - ny) * 0.5 * h - 0.5);
            let (x0, y0) = (fx.floor(), fy.floor());
            let (ax, ay) = (fx - x0, fy - y0);
            for (dx, dy, share) in [
                (0, 0, (1.0 - ax) * (1.0 - ay)),
                (1, 0, ax * (1.0 - ay)),
                (0, 1, (1.0 - ax) * ay),
                (1, 1, ax * ay),
            ] {
                let (x, y) = (x0 as i64 + dx, y0 as i64 + dy);
                if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
                    continue;
                }
                let at = (y as usize) * self.width as usize + x as usize;
                for c in 0..3 {
                    self.light[at][c] += share * light[c];
                }
            }
            drawn += 1;
        }
        drawn
    }

    /// The image: `255 × (1 − e^(−light))` per channel.
    pub fn finish(&self) -> RgbImage {
        let pixels = self
            .light
            .iter()
            .flat_map(|l| l.map(|v| (255.0 * (1.0 - (-v.max(0.0)).exp())).round() as u8))
            .collect();
        RgbImage::from_pixels(self.width, self.height, pixels).expect("3 bytes per pixel")
    }

    /// A point weight that keeps `particles` points about equally bright
    /// whatever their number and the image size (about 0.56 for the notes'
    /// 65 536 particles at 640 × 480).
    pub fn default_weight(width: u32, height: u32, particles: usize) -> f32 {
        (0.12 * width as f32 * height as f32 / particles.max(1) as f32).clamp(0.02, 1.0)
    }
}

/// The particles of a vertex buffer in the notes' layout (positions, then
/// colours, 4 floats each) seen by `camera`, as additive points on black,
/// `width × height` pixels.
pub fn render_frame(
    positions_and_colours: &[f32],
    particles: usize,
    camera: &Camera,
    width: u32,
    height: u32,
) -> RgbImage {
    let mut rasterizer = PointRasterizer::new(width, height);
    let weight = PointRasterizer::default_weight(width, height, particles);
    rasterizer.add_points(positions_and_colours, particles, camera, weight, None);
    rasterizer.finish()
}
