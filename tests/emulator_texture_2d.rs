//! The 2-D tile kernels of the texture-2d experiment (Best Practices Guide
//! §3.2.4, Table 3.4) run in the CPU emulator against the CPU reference: the
//! warp-tile order of `global_2d_tile_load`, and `texture_2d_tile_sample`
//! with the texture the emulator models (point sampling, unnormalized
//! coordinates, clamp addressing), at the texel centres and shifted off the
//! image's edges.

use kernels_gpu::global_memory::{global_2d_tile_load, texture_2d_tile_sample, tile_texel};
use ptxsuite::device::Dim3;
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::gpu::Sampling;
use ptxsuite::reference::{texture_fetch_2d, tile_order};

const WIDTH: u32 = 64;
const HEIGHT: u32 = 32;
const TILES: [u32; 6] = [32, 16, 8, 4, 2, 1];

fn image() -> Vec<f32> {
    (0..WIDTH * HEIGHT)
        .map(|i| (i * 7 % 1000) as f32 * 0.25 + 1.0)
        .collect()
}

fn config() -> LaunchConfig {
    LaunchConfig::new(Dim3::x(WIDTH * HEIGHT / 256), Dim3::x(256), 0)
}

#[test]
fn the_kernels_mapping_is_the_references_tile_order() {
    for tile in TILES {
        for (gid, x, y) in tile_order(WIDTH, HEIGHT, tile) {
            assert_eq!(tile_texel(gid as u32, WIDTH, tile), (x, y), "tile {tile}, thread {gid}");
        }
    }
}

#[test]
fn global_2d_tile_load_reads_each_warps_tile() {
    let texels = image();
    let input: Vec<u32> = texels.iter().map(|t| t.to_bits()).collect();
    for tile in TILES {
        let mut output = vec![u32::MAX; input.len()];
        {
            let mut emu = Emulator::new();
            let inp = emu.global(&input);
            let out = emu.global_mut(&mut output);
            // SAFETY: the emulator checks every access; the grid covers the image once.
            emu.launch(config(), || unsafe { global_2d_tile_load(out, inp, WIDTH, tile) })
                .unwrap();
        }
        for (gid, x, y) in tile_order(WIDTH, HEIGHT, tile) {
            assert_eq!(
                output[gid as usize],
                input[(y * WIDTH + x) as usize],
                "tile {tile}, thread {gid}"
            );
        }
    }
}

#[test]
fn texture_2d_tile_sample_point_samples_centred_and_clamped_off_the_edges() {
    let texels = image();
    let size = (WIDTH as usize, HEIGHT as usize);
    for tile in TILES {
        for offset in [(0.5f32, 0.5f32), (17.8, 9.8), (-3.3, -40.7)] {
            let mut output = vec![-1.0f32; texels.len()];
            {
                let mut emu = Emulator::new();
                let texture = emu.texture_2d_f32(&texels, WIDTH as usize);
                let out = emu.global_mut(&mut output);
                emu.launch(config(), || unsafe {
                    // SAFETY: the emulator checks every access; the grid covers the image once.
                    texture_2d_tile_sample(out, texture, WIDTH, tile, offset.0, offset.1, 1.0, 1.0)
                })
                .unwrap();
            }
            for (gid, x, y) in tile_order(WIDTH, HEIGHT, tile) {
                let (u, v) = (x as f32 + offset.0, y as f32 + offset.1);
                let (expected, _) = texture_fetch_2d(&texels, size, Sampling::POINT, u as f64, v as f64);
                assert_eq!(
                    output[gid as usize].to_bits(),
                    (expected as f32).to_bits(),
                    "tile {tile}, offset {offset:?}, thread {gid} at ({x}, {y})"
                );
            }
        }
    }
}
