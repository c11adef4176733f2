//! Host logic of the memory-claims experiments that needs no GPU: the
//! kernel table's nominal shapes for their kernels, and their registry
//! entries.

use kernels_gpu::shared_memory_banks::bank_shared_bytes;
use ptxsuite::experiments;
use ptxsuite::launchers::{
    BANK_BLOCK_THREADS, CONSTANT_CHASE_BLOCK_THREADS, CONSTANT_CHASE_TABLE_WORDS, LOCAL_ARRAY_BLOCK_THREADS,
    OCCUPANCY_BLOCK_THREADS, SHARED_CHASE_BLOCK_THREADS, nominal_shape,
};

fn shape(kernel: &str) -> (u64, u32) {
    let s = nominal_shape(kernel);
    (s.block.count(), s.shared_bytes)
}

#[test]
fn nominal_shapes_are_the_memory_experiments_blocks() {
    let bank = BANK_BLOCK_THREADS as u64;
    assert_eq!(shape("bank_read_b32"), (bank, bank_shared_bytes(4) as u32));
    assert_eq!(shape("bank_write_b64"), (bank, bank_shared_bytes(8) as u32));
    assert_eq!(shape("bank_read_b128"), (bank, bank_shared_bytes(16) as u32));
    assert_eq!(shape("bank_tile_column_read"), (bank, bank_shared_bytes(4) as u32));
    let constant = CONSTANT_CHASE_BLOCK_THREADS as u64;
    assert_eq!(shape("constant_chase"), (constant, 0));
    assert_eq!(shape("constant_chase_global_nc"), (constant, 0));
    assert_eq!(
        shape("constant_chase_shared"),
        (constant, (CONSTANT_CHASE_TABLE_WORDS * 4) as u32)
    );
    for local in ["local_array_registers", "local_array_dynamic", "local_array_spilled"] {
        assert_eq!(shape(local), (LOCAL_ARRAY_BLOCK_THREADS as u64, 0), "{local}");
    }
    assert_eq!(shape("pointer_chase"), (1, 0));
    assert_eq!(shape("fma_latency"), (1, 0));
    assert_eq!(
        shape("shared_pointer_chase"),
        (SHARED_CHASE_BLOCK_THREADS as u64, 32 << 10)
    );
    assert_eq!(shape("occupancy_copy"), (OCCUPANCY_BLOCK_THREADS as u64, 0));
    assert_eq!(shape("occupancy_chase"), (OCCUPANCY_BLOCK_THREADS as u64, 0));
}

#[test]
fn the_memory_experiments_are_registered_with_sources() {
    for name in [
        "bank-conflicts",
        "constant-memory",
        "local-memory",
        "latency",
        "occupancy",
    ] {
        let experiment = experiments::find(name).unwrap_or_else(|| panic!("{name} is not registered"));
        assert!(experiment.source().contains("Best Practices Guide"), "{name}");
        assert!(experiment.points() > 0, "{name}");
        assert!(experiments::hooks(name).is_some(), "{name}");
    }
    let chosen = experiments::select(Some("latency,occupancy")).unwrap();
    assert_eq!(
        chosen.iter().map(|e| e.name()).collect::<Vec<_>>(),
        ["latency", "occupancy"]
    );
}
