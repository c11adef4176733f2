//! Warp-level operations (Rust-CUDA's `cuda_std::warp`): the warp barrier,
//! lane identity, shuffles, votes, matches and reductions, each one PTX
//! `.sync` instruction (or a few) on the GPU.
//!
//! `mask` names the lanes taking part, usually `u32::MAX`. On the GPU every
//! lane in `mask` must execute the same call (undefined otherwise). In the
//! emulator every lane of the warp must take part (a mask that leaves out a
//! lane of the warp is reported as a fault there); lanes past the end of a
//! partial last warp may be in the mask.

mod lanes;
mod matching;
mod reduce;
mod shuffle;
mod vote;

pub use lanes::{activemask, lane_id, sync_warp};
pub use matching::{WarpMatchValue, warp_match_all, warp_match_any};
pub use reduce::{WarpReduceValue, WarpReductionOp, warp_reduce};
pub use shuffle::{
    WarpShuffleMode, WarpShuffleValue, warp_shuffle_down, warp_shuffle_idx, warp_shuffle_up, warp_shuffle_xor,
};
pub use vote::{warp_vote_all, warp_vote_any, warp_vote_ballot};
