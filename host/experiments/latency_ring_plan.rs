//! How the latency experiment lays out and walks the ring of one working
//! set, so that each timed load is the kind the working set stands for.
//!
//! - **Slots**: 128 bytes (each step its own cache line), up to
//!   [`MAX_SLOTS`] of them; past that the slots grow, so a ring of any span
//!   has at most `MAX_SLOTS` links (the host builds and uploads its image,
//!   and shuffles its successors). The span still decides which pages and
//!   lines the chase touches, since the slots are visited in random order.
//! - **Rings that fit the L2** are walked warm: one untimed lap first (every
//!   line in L2), then the launches continue along the ring, lap after lap.
//!   Rings that fit L1 also take one lap at the start of every launch (a
//!   launch may run on another SM, whose L1 is cold).
//! - **Rings larger than the L2** are walked cold: the L2 is flushed, and
//!   the launches of every implementation together take fewer steps than
//!   the ring has slots, so no line is visited twice: each load a first
//!   touch of its line, from device memory, its page translated afresh as
//!   often as the span outgrows the TLBs.

/// The smallest slot: a cache line.
pub const SLOT_BYTES: u64 = 128;
/// The most slots a ring has.
pub const MAX_SLOTS: u64 = 1 << 20;
/// Rings of at most this many slots (256 KiB) are walked once at the start of every launch.
pub const L1_WARM_SLOTS: u64 = 2048;
/// Timed steps a launch takes (fewer for cold rings, so no slot is visited twice).
pub const TIMED_STEPS: u32 = 2048;
/// The fewest timed steps a launch takes.
pub const MIN_TIMED_STEPS: u32 = 64;

/// One working set's ring and walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingPlan {
    pub slot_bytes: u64,
    pub slots: u64,
    /// Untimed steps before the first launch of each implementation (a lap of a warm ring).
    pub prime_steps: u64,
    /// Untimed steps at the start of every launch.
    pub warmup: u32,
    /// Timed steps per launch.
    pub count: u32,
    /// Flush the L2 before timing and never revisit a slot.
    pub cold: bool,
}

impl RingPlan {
    /// The ring's span in bytes (the working set the point stands for).
    pub fn bytes(&self) -> u64 {
        self.slots * self.slot_bytes
    }
}

/// The plan for a working set of about `working_set` bytes on a GPU with
/// `l2_bytes` of L2, where `launches` launches (every implementation's) walk it.
pub fn ring_plan(working_set: u64, l2_bytes: u64, launches: u64) -> RingPlan {
    let slot_bytes = (working_set.div_ceil(MAX_SLOTS).div_ceil(SLOT_BYTES) * SLOT_BYTES).max(SLOT_BYTES);
    let slots = (working_set / slot_bytes).max(1);
    if slots * slot_bytes <= l2_bytes {
        RingPlan {
            slot_bytes,
            slots,
            prime_steps: slots,
            warmup: if slots <= L1_WARM_SLOTS { slots as u32 } else { 0 },
            count: TIMED_STEPS,
            cold: false,
        }
    } else {
        let per_launch = slots / (2 * launches.max(1));
        RingPlan {
            slot_bytes,
            slots,
            prime_steps: 0,
            warmup: 0,
            count: per_launch.clamp(MIN_TIMED_STEPS as u64, TIMED_STEPS as u64) as u32,
            cold: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const L2: u64 = 50 << 20;

    #[test]
    fn small_rings_are_line_slots_walked_warm() {
        let plan = ring_plan(1 << 10, L2, 442);
        assert_eq!((plan.slot_bytes, plan.slots, plan.bytes()), (128, 8, 1024));
        assert_eq!((plan.prime_steps, plan.warmup, plan.count), (8, 8, TIMED_STEPS));
        assert!(!plan.cold);
        let l2_sized = ring_plan(32 << 20, L2, 442);
        assert_eq!(l2_sized.slots, (32 << 20) / 128);
        assert_eq!(
            (l2_sized.prime_steps, l2_sized.warmup),
            (l2_sized.slots, 0),
            "too big for L1"
        );
        assert!(!l2_sized.cold);
    }

    #[test]
    fn rings_past_the_l2_are_walked_cold_without_revisits() {
        let plan = ring_plan(64 << 20, L2, 442);
        assert!(plan.cold);
        assert_eq!((plan.slot_bytes, plan.slots), (128, 1 << 19));
        assert_eq!(plan.prime_steps, 0);
        assert!(
            plan.count as u64 * 442 <= plan.slots,
            "every launch of every implementation on fresh slots"
        );
        let huge = ring_plan(4 << 30, L2, 442);
        assert_eq!((huge.slot_bytes, huge.slots, huge.bytes()), (4096, MAX_SLOTS, 4 << 30));
        assert_eq!(huge.count, TIMED_STEPS.min((MAX_SLOTS / 884) as u32));
    }

    #[test]
    fn slots_grow_in_whole_lines_and_the_span_stays_within_a_slot_of_the_ask() {
        for working_set in [(128 << 20) + 1, 181 << 20, 255 << 20, 3_000_000_000u64, 4 << 30] {
            let plan = ring_plan(working_set, L2, 100);
            assert_eq!(plan.slot_bytes % SLOT_BYTES, 0);
            assert!(plan.slots <= MAX_SLOTS, "{plan:?}");
            assert!(
                plan.bytes() <= working_set && working_set - plan.bytes() < plan.slot_bytes,
                "{plan:?}"
            );
        }
        assert_eq!(ring_plan(100, L2, 1).slots, 1, "at least one slot");
    }

    #[test]
    fn a_tiny_l2_keeps_a_floor_of_timed_steps() {
        let plan = ring_plan(8 << 20, 1 << 20, 10_000);
        assert!(plan.cold);
        assert_eq!(plan.count, MIN_TIMED_STEPS);
    }
}
