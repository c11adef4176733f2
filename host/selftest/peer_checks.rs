//! Self-test rows for copies between GPUs: every ordered pair of the run's
//! GPUs by copy engine, and by a Rust `vector_copy` pulling and pushing where
//! peer access is possible; waived with fewer than two GPUs.

use super::SelfTest;
use super::checks::verified;
use crate::copy_element::{first_mismatch, pattern};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, PeerAccess, PeerAttributes};
use crate::launchers::vector_copy_global;
use crate::testbed::{Implementation, Testbed};

/// The checks of the peer copies, in the order `ptxsuite selftest` runs them (gathered with the
/// other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[SelfTest {
    name: "peer copies between every pair of GPUs (CE, SM pull and push)",
    run: peer_copies,
}];

const LEN: usize = 1 << 20;

pub(super) fn peer_copies(testbed: &Testbed) -> Result<()> {
    testbed.needs_gpus(2).map_err(Error::Waived)?;
    let devices = testbed.devices();
    let source = pattern::<f32>(LEN);
    for src in devices {
        for dst in devices.iter().filter(|d| d.info().ordinal != src.info().ordinal) {
            let (a, b) = (src.info().ordinal, dst.info().ordinal);
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
            // The kernel on the destination pulling, then on the source pushing, where peer access allows.
            let out_len = output.len();
            for (issuer, other, what) in [
                (dst, src, format!("pulling from GPU {a}")),
                (src, dst, format!("pushing into GPU {b}")),
            ] {
                if !PeerAttributes::query(issuer.gpu(), other.gpu())?.access_supported {
                    continue;
                }
                let _access = PeerAccess::enable(issuer.gpu(), other.gpu())?;
                output.fill(-1.0)?;
                dst.gpu().synchronize()?;
                let (out, inp) = ((output.as_global_mut(), out_len), (input.as_global(), LEN));
                vector_copy_global(issuer, Implementation::Rust, out, inp, LEN as u64)?;
                issuer.gpu().synchronize()?;
                let on = issuer.info().ordinal;
                verified(
                    format!("vector_copy on GPU {on} {what}"),
                    first_mismatch(&output.to_host()?, &source),
                )?;
            }
        }
    }
    Ok(())
}
