//! PNG and animated-PNG (APNG) files, through the `png` crate (pure Rust;
//! it writes APNG's `acTL`/`fcTL`/`fdAT` chunks itself).

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use super::RgbImage;
use crate::error::{Error, Result};

fn failed(path: &Path, what: &str, error: impl std::error::Error + Send + Sync + 'static) -> Error {
    Error::io(format!("{what} {}", path.display()), std::io::Error::other(error))
}

fn create(path: &Path) -> Result<BufWriter<File>> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| Error::io(format!("creating {}", path.display()), e))
}

fn encoder<'a>(file: BufWriter<File>, width: u32, height: u32) -> png::Encoder<'a, BufWriter<File>> {
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
}

/// Writes `image` to `path` as an 8-bit RGB PNG.
pub fn write_png(path: &Path, image: &RgbImage) -> Result<()> {
    let encoder = encoder(create(path)?, image.width(), image.height());
    let mut writer = encoder.write_header().map_err(|e| failed(path, "writing", e))?;
    writer
        .write_image_data(image.pixels())
        .map_err(|e| failed(path, "writing", e))?;
    writer.finish().map_err(|e| failed(path, "writing", e))
}

/// Writes `frames` (all of one size) to `path` as an animated PNG that
/// loops forever, `frame_ms` milliseconds per frame. Viewers without APNG
/// support show the first frame.
pub fn write_apng(path: &Path, frames: &[RgbImage], frame_ms: u16) -> Result<()> {
    let first = frames
        .first()
        .ok_or_else(|| Error::InvalidInput("an animation needs at least one frame".into()))?;
    if frames
        .iter()
        .any(|f| (f.width(), f.height()) != (first.width(), first.height()))
    {
        return Err(Error::InvalidInput(
            "the frames of an animation must have one size".into(),
        ));
    }
    let mut encoder = encoder(create(path)?, first.width(), first.height());
    encoder
        .set_animated(frames.len() as u32, 0)
        .map_err(|e| failed(path, "writing", e))?;
    encoder
        .set_frame_delay(frame_ms, 1000)
        .map_err(|e| failed(path, "writing", e))?;
    let mut writer = encoder.write_header().map_err(|e| failed(path, "writing", e))?;
    for frame in frames {
        writer
            .write_image_data(frame.pixels())
            .map_err(|e| failed(path, "writing", e))?;
    }
    writer.finish().map_err(|e| failed(path, "writing", e))
}

/// Reads an 8-bit RGB PNG (the first frame of an APNG) and, for an APNG, its number of frames.
pub fn read_png(path: &Path) -> Result<(RgbImage, Option<u32>)> {
    let file = File::open(path).map_err(|e| Error::io(format!("opening {}", path.display()), e))?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .map_err(|e| failed(path, "reading", e))?;
    let frames = reader.info().animation_control().map(|a| a.num_frames);
    let (color, depth) = reader.output_color_type();
    if (color, depth) != (png::ColorType::Rgb, png::BitDepth::Eight) {
        return Err(Error::InvalidInput(format!(
            "{} is {color:?} {depth:?}, not 8-bit RGB",
            path.display()
        )));
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Error::InvalidInput(format!("{} is too large", path.display())))?;
    let mut buffer = vec![0; size];
    let info = reader.next_frame(&mut buffer).map_err(|e| failed(path, "reading", e))?;
    buffer.truncate(info.buffer_size());
    let image = RgbImage::from_pixels(info.width, info.height, buffer)
        .ok_or_else(|| Error::InvalidInput(format!("{} has an unexpected row layout", path.display())))?;
    Ok((image, frames))
}
