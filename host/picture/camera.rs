/// A perspective camera: where it is, what it looks at, and its lens.
///
/// [`view_projection`](Self::view_projection) is the OpenGL convention
/// (right-handed view space, clip-space `z` in `[-w, w]`), so the software
/// rasterizer and the GL vertex shader place every point on the same pixel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub eye: [f32; 3],
    pub target: [f32; 3],
    pub up: [f32; 3],
    /// Vertical field of view.
    pub vertical_fov_degrees: f32,
    /// Width over height of the image.
    pub aspect: f32,
    pub near: f32,
    pub far: f32,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: [f32; 3]) -> [f32; 3] {
    let length = dot(a, a).sqrt();
    [a[0] / length, a[1] / length, a[2] / length]
}

impl Camera {
    /// A camera at `eye` looking at `target`, `y` up, near 0.1, far 1000.
    pub fn look_at(eye: [f32; 3], target: [f32; 3], vertical_fov_degrees: f32, aspect: f32) -> Self {
        Self {
            eye,
            target,
            up: [0.0, 1.0, 0.0],
            vertical_fov_degrees,
            aspect,
            near: 0.1,
            far: 1000.0,
        }
    }

    /// The camera's orthonormal basis: (right, up, forward).
    pub fn basis(&self) -> ([f32; 3], [f32; 3], [f32; 3]) {
        let forward = normalize(sub(self.target, self.eye));
        let right = normalize(cross(forward, self.up));
        let up = cross(right, forward);
        (right, up, forward)
    }

    /// `tan(fov/2)`: the half-height of the image plane at distance 1.
    fn half_height(&self) -> f32 {
        (self.vertical_fov_degrees.to_radians() / 2.0).tan()
    }

    /// The view-projection matrix, row-major: `clip = M · (x, y, z, 1)`.
    pub fn view_projection(&self) -> [[f32; 4]; 4] {
        let (s, u, f) = self.basis();
        let e = self.eye;
        let view = [
            [s[0], s[1], s[2], -dot(s, e)],
            [u[0], u[1], u[2], -dot(u, e)],
            [-f[0], -f[1], -f[2], dot(f, e)],
            [0.0, 0.0, 0.0, 1.0],
        ];
        let focal = 1.0 / self.half_height();
        let (n, far) = (self.near, self.far);
        let projection = [
            [focal / self.aspect, 0.0, 0.0, 0.0],
            [0.0, focal, 0.0, 0.0],
            [0.0, 0.0, (far + n) / (n - far), 2.0 * far * n / (n - far)],
            [0.0, 0.0, -1.0, 0.0],
        ];
        let mut m = [[0.0f32; 4]; 4];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, value) in row.iter_mut().enumerate() {
                *value = (0..4).map(|k| projection[r][k] * view[k][c]).sum();
            }
        }
        m
    }

    /// The same matrix column by column, as `glUniformMatrix4fv` takes it untransposed.
    pub fn column_major(&self) -> [f32; 16] {
        let m = self.view_projection();
        std::array::from_fn(|i| m[i % 4][i / 4])
    }

    /// Normalized device coordinates `(x, y, z)` of `point`, each in
    /// `[-1, 1]` when visible; `None` for a point outside the view volume
    /// (behind the camera, nearer than `near`, past `far`, or off to a side).
    pub fn project(&self, point: [f32; 3]) -> Option<[f32; 3]> {
        let m = self.view_projection();
        let clip: [f32; 4] =
            std::array::from_fn(|r| m[r][0] * point[0] + m[r][1] * point[1] + m[r][2] * point[2] + m[r][3]);
        let w = clip[3];
        if w.is_nan() || w <= 0.0 || clip[..3].iter().any(|c| c.is_nan() || c.abs() > w) {
            return None;
        }
        Some([clip[0] / w, clip[1] / w, clip[2] / w])
    }

    /// The direction (not normalized) of the ray through the image point
    /// at normalized device coordinates `(x, y)`.
    pub fn ray_direction(&self, ndc_x: f32, ndc_y: f32) -> [f32; 3] {
        let (s, u, f) = self.basis();
        let h = self.half_height();
        let (a, b) = (ndc_x * h * self.aspect, ndc_y * h);
        [
            f[0] + a * s[0] + b * u[0],
            f[1] + a * s[1] + b * u[1],
            f[2] + a * s[2] + b * u[2],
        ]
    }
}
