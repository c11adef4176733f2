//! Self-test rows for copies between GPUs: every ordered pair of the run's
//! GPUs by copy engine, and by a Rust `vector_copy` pulling and pushing where
//! peer access is possible; waived with fewer than two GPUs.

use super::checks::verified;
use crate::copy_element::{first_mismatch, pattern};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, PeerAccess, PeerAttributes};
use crate::launchers::vector_copy_global;
use crate::testbed::{Implementation, Testbed};

const LEN: usize = 1 << 20;

pub(super) fn peer_copies(testbed: &Testbed) -> Result<()> {
    testbed.needs_gpus(2).map_err(Error::Waived)?;
    let devices = testbed.devices();
    let source = pattern::<f32>(LEN);
    for (a, src) in devices.iter().enumerate() {
        for (b, dst) in devices.iter().enumerate().filter(|&(b, _)| b != a) {
            let input = DeviceBuffer::from_host(src.gpu(), &source)?;
            let mut output = DeviceBuffer::<f32>::uninit(dst.gpu(), LEN)?;
            output.fill(-1.0)?;
            dst.gpu().synchronize()?;
            // SAFETY: both buffers live until the stream is synchronized just below.
            unsafe { output.copy_from_peer_async(&input, LEN, src.gpu().stream())? };
            src.gpu().synchronize()?;
            verified(
                format!("cuMemcpyPeerAsync GPU {a} → GPU {b}"),
                first_mismatch(&output.to_host()?, &source),
            )?;
            let (pull, push) = (
                PeerAttributes::query(dst.gpu(), src.gpu())?.access_supported,
                PeerAttributes::query(src.gpu(), dst.gpu())?.access_supported,
            );
            let out_len = output.len();
            if pull {
                let _access = PeerAccess::enable(dst.gpu(), src.gpu())?;
                output.fill(-1.0)?;
                let (out, inp) = ((output.as_global_mut(), out_len), (input.as_global(), LEN));
                vector_copy_global(dst, Implementation::Rust, out, inp, LEN as u64)?;
                dst.gpu().synchronize()?;
                verified(
                    format!("vector_copy on GPU {b} pulling from GPU {a}"),
                    first_mismatch(&output.to_host()?, &source),
                )?;
            }
            if push {
                let _access = PeerAccess::enable(src.gpu(), dst.gpu())?;
                output.fill(-1.0)?;
                dst.gpu().synchronize()?;
                let (out, inp) = ((output.as_global_mut(), out_len), (input.as_global(), LEN));
                vector_copy_global(src, Implementation::Rust, out, inp, LEN as u64)?;
                src.gpu().synchronize()?;
                verified(
                    format!("vector_copy on GPU {a} pushing into GPU {b}"),
                    first_mismatch(&output.to_host()?, &source),
                )?;
            }
        }
    }
    Ok(())
}
