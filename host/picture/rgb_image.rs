/// An 8-bit RGB image, rows from the top, 3 bytes per pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl RgbImage {
    /// A black image.
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            pixels: vec![0; width as usize * height as usize * 3],
        }
    }

    /// An image over `pixels` (3 bytes per pixel, rows from the top); `None` if the length is wrong.
    pub fn from_pixels(width: u32, height: u32, pixels: Vec<u8>) -> Option<Self> {
        (pixels.len() == width as usize * height as usize * 3).then_some(Self { width, height, pixels })
    }

    /// An image from RGBA rows listed bottom-up, as `glReadPixels` returns them (alpha dropped).
    pub fn from_gl_rgba(width: u32, height: u32, rgba_bottom_up: &[u8]) -> Option<Self> {
        let row = width as usize * 4;
        if rgba_bottom_up.len() != row * height as usize {
            return None;
        }
        let pixels = rgba_bottom_up
            .chunks_exact(row)
            .rev()
            .flat_map(|r| r.as_chunks::<4>().0.iter().flat_map(|p| [p[0], p[1], p[2]]))
            .collect();
        Some(Self { width, height, pixels })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The bytes, 3 per pixel, rows from the top.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// Pixel `(x, y)`, `y` counted from the top.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let at = 3 * (y as usize * self.width as usize + x as usize);
        [self.pixels[at], self.pixels[at + 1], self.pixels[at + 2]]
    }

    pub fn set_pixel(&mut self, x: u32, y: u32, rgb: [u8; 3]) {
        let at = 3 * (y as usize * self.width as usize + x as usize);
        self.pixels[at..at + 3].copy_from_slice(&rgb);
    }
}

/// Frames of equal size tiled left to right, `columns` per row, in one
/// image (a film strip of an animation, for viewers that show no APNG);
/// `None` if there are no frames or their sizes differ.
pub fn frame_strip(frames: &[RgbImage], columns: u32) -> Option<RgbImage> {
    let first = frames.first()?;
    let (w, h) = (first.width, first.height);
    if columns == 0 || frames.iter().any(|f| (f.width, f.height) != (w, h)) {
        return None;
    }
    let columns = columns.min(frames.len() as u32);
    let rows = (frames.len() as u32).div_ceil(columns);
    let mut strip = RgbImage::new(w * columns, h * rows);
    for (k, frame) in frames.iter().enumerate() {
        let (left, top) = ((k as u32 % columns) * w, (k as u32 / columns) * h);
        for y in 0..h {
            let from = 3 * (y * w) as usize;
            let to = 3 * ((top + y) * strip.width + left) as usize;
            strip.pixels[to..to + 3 * w as usize].copy_from_slice(&frame.pixels[from..from + 3 * w as usize]);
        }
    }
    Some(strip)
}
