//! `__all_sync`, `__any_sync`, `__ballot_sync`: a predicate voted over the warp.

/// One `vote.sync` of `predicate` over `mask`; `$op` is `all`, `any` or `ballot`.
#[cfg(target_arch = "nvptx64")]
macro_rules! vote_predicate {
    ($op:literal, $mask:expr, $predicate:expr) => {{
        let out: u32;
        // SAFETY: a vote within the warp; the lanes in `mask` taking part is the caller's contract.
        unsafe {
            core::arch::asm!(
                concat!(
                    "{{ .reg .pred %vote, %result; setp.ne.u32 %vote, {predicate}, 0; vote.sync.", $op,
                    ".pred %result, %vote, {mask}; selp.u32 {out}, 1, 0, %result; }}"
                ),
                predicate = in(reg32) $predicate as u32,
                mask = in(reg32) $mask,
                out = out(reg32) out,
                options(nomem, nostack),
            )
        };
        out != 0
    }};
}

/// `__all_sync(mask, predicate)`: whether `predicate` is true in every lane of `mask`.
///
/// # Safety
/// Every lane in `mask` must make the same call, and the calling lane must
/// be in `mask` (on the GPU; the emulator wants the whole warp).
#[inline(always)]
#[track_caller]
pub unsafe fn warp_vote_all(mask: u32, predicate: bool) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        vote_predicate!("all", mask, predicate)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let ballot = crate::emulator::exchange::warp(predicate as u64, mask, "warp_vote_all").ballot();
        ballot & mask == crate::emulator::exchange::position().present_lanes() & mask
    }
}

/// `__any_sync(mask, predicate)`: whether `predicate` is true in any lane of `mask`.
///
/// # Safety
/// As [`warp_vote_all`].
#[inline(always)]
#[track_caller]
pub unsafe fn warp_vote_any(mask: u32, predicate: bool) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        vote_predicate!("any", mask, predicate)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::exchange::warp(predicate as u64, mask, "warp_vote_any").ballot() & mask != 0
    }
}

/// `__ballot_sync(mask, predicate)`: bit `n` set where lane `n` of `mask` has
/// a true `predicate` (lanes outside `mask` read as 0).
///
/// # Safety
/// As [`warp_vote_all`].
#[inline(always)]
#[track_caller]
pub unsafe fn warp_vote_ballot(mask: u32, predicate: bool) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let ballot: u32;
        // SAFETY: a vote within the warp; the caller's contract.
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred %vote; setp.ne.u32 %vote, {predicate}, 0; vote.sync.ballot.b32 {ballot}, %vote, {mask}; }}",
                predicate = in(reg32) predicate as u32,
                mask = in(reg32) mask,
                ballot = out(reg32) ballot,
                options(nomem, nostack),
            )
        };
        ballot
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::exchange::warp(predicate as u64, mask, "warp_vote_ballot").ballot() & mask
    }
}
