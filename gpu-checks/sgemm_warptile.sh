#!/usr/bin/env bash
# GPU check of the warp-tiled SGEMM (sgemm_warp_tiled, issue #29 goal 1): the
# self-test (every SGEMM entry, both warp-tiled ones included, against the CPU
# reference), then `run --only sgemm`, printing per size the warp-tiled
# kernel's and the register-blocked kernel's GFLOP/s and their ratios to cuBLAS
# and to their CUDA C twins (and warp-tiled / register-blocked, Rust), and the
# registers and local memory of every register-blocked and warp-tiled entry as
# the driver's JIT compiled them. gpu-checks/sgemm_tiles.sh does the work; with
# NCU=1 it also profiles the register-blocked kernel at 1024³ and 4096³.
# Run from the repository root with .gpu/ptxsuite (a stripped release build);
# about 2-3 minutes on an H100.
set -uo pipefail
cd "$(dirname "$0")/.."
KERNELS="sgemm_register_blocked sgemm_warp_tiled" exec ./gpu-checks/sgemm_tiles.sh "$@"
