//! PNG and animated-PNG (APNG) files, through the `png` crate (pure Rust;
//! it writes APNG's `acTL`/`fcTL`/`fdAT` chunks itself).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use super::RgbImage;
use crate::error::{Error, Result};

fn failed(what: &str, error: impl std::error::Error + Send + Sync + 'static) -> Error {
    Error::io(what.to_string(), std::io::Error::other(error))
}

fn create(path: &Path) -> Result<BufWriter<File>> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| Error::io(format!("creating {}", path.display()), e))
}

fn encoder<'a, W: Write>(out: W, width: u32, height: u32) -> png::Encoder<'a, W> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
}

/// Writes `image` into `out` as an 8-bit RGB PNG; `what` names the destination in errors.
fn encode_png_into<W: Write>(out: W, image: &RgbImage, what: &str) -> Result<()> {
    let encoder = encoder(out, image.width(), image.height());
    let mut writer = encoder.write_header().map_err(|e| failed(what, e))?;
    writer.write_image_data(image.pixels()).map_err(|e| failed(what, e))?;
    writer.finish().map_err(|e| failed(what, e))
}

/// Writes `frames` into `out` as a looping animated PNG (see [`write_apng`]).
fn encode_apng_into<W: Write>(out: W, frames: &[RgbImage], frame_ms: u16, what: &str) -> Result<()> {
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
    let mut encoder = encoder(out, first.width(), first.height());
    encoder
        .set_animated(frames.len() as u32, 0)
        .map_err(|e| failed(what, e))?;
    encoder.set_frame_delay(frame_ms, 1000).map_err(|e| failed(what, e))?;
    let mut writer = encoder.write_header().map_err(|e| failed(what, e))?;
    for frame in frames {
        writer.write_image_data(frame.pixels()).map_err(|e| failed(what, e))?;
    }
    writer.finish().map_err(|e| failed(what, e))
}

/// `image` as the bytes of an 8-bit RGB PNG file.
pub fn encode_png(image: &RgbImage) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    encode_png_into(&mut bytes, image, "encoding a PNG")?;
    Ok(bytes)
}

/// `frames` as the bytes of an animated PNG file (see [`write_apng`]).
pub fn encode_apng(frames: &[RgbImage], frame_ms: u16) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    encode_apng_into(&mut bytes, frames, frame_ms, "encoding an animated PNG")?;
    Ok(bytes)
}

/// Writes `image` to `path` as an 8-bit RGB PNG.
pub fn write_png(path: &Path, image: &RgbImage) -> Result<()> {
    encode_png_into(create(path)?, image, &format!("writing {}", path.display()))
}

/// Writes `frames` (all of one size) to `path` as an animated PNG that
/// loops forever, `frame_ms` milliseconds per frame. Viewers without APNG
/// support show the first frame.
pub fn write_apng(path: &Path, frames: &[RgbImage], frame_ms: u16) -> Result<()> {
    encode_apng_into(create(path)?, frames, frame_ms, &format!("writing {}", path.display()))
}

/// Reads an 8-bit RGB PNG (the first frame of an APNG) and, for an APNG, its number of frames.
pub fn read_png(path: &Path) -> Result<(RgbImage, Option<u32>)> {
    let file = File::open(path).map_err(|e| Error::io(format!("opening {}", path.display()), e))?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .map_err(|e| failed(&format!("reading {}", path.display()), e))?;
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
    let info = reader
        .next_frame(&mut buffer)
        .map_err(|e| failed(&format!("reading {}", path.display()), e))?;
    buffer.truncate(info.buffer_size());
    let image = RgbImage::from_pixels(info.width, info.height, buffer)
        .ok_or_else(|| Error::InvalidInput(format!("{} has an unexpected row layout", path.display())))?;
    Ok((image, frames))
}
