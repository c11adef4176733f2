#!/usr/bin/env bash
# GPU check of the node-copies family behind its runner (issue #26 item 2:
# peer, peer-copy-limits and host-links ask host/launchers/node_copies/'s
# NodeCopyRunner). A refactor that must change no behaviour. Run on the GPU
# machine from the repository root with, in .gpu/:
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   the build before the change, built the same way
#   gpu_node_copies-*, gpu_node-*   optional: this build's test binaries
#                   (`cargo test --release --no-run --test gpu_node_copies --test gpu_node`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# On one GPU (nvidia-h100-x1) peer and peer-copy-limits are waived on both
# sides and host-links runs without its all-at-once series: the comparison
# still covers host-links and the waivers, and the runner's one-GPU tests run.
# The peer paths need two GPUs or more (nvidia-h100-x2): there every pair,
# both ways at once, the hubs, the fabric and peer-copy-limits' split copies
# are compared, and the runner's two-GPU test runs. About 2 minutes on 2 H100s.
# Checks:
#   1. experiment_bodies.sh on the three experiments, --device all, quick
#      settings (--size-mib 64; `peer` sweeps 1–64 MiB).
#   2. again with --impl rust (no CUDA C twins in `peer`, no waiver).
#   3. gpu_node_copies and gpu_node: the runner and the three experiments'
#      own checks on the GPUs.
# Writes $OUT/node-copies/; prints "NODE COPIES GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/node-copies-check}/node-copies
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
only=peer,peer-copy-limits,host-links
echo "== $(nvidia-smi -L 2>/dev/null | grep -c '^GPU ') GPUs"

echo "== 1. this build against main, quick settings, every GPU"
OUT="$out/quick" ONLY=$only RUN_ARGS="--device all --samples 3 --reps 3 --size-mib 64" \
    bash gpu-checks/experiment_bodies.sh | tail -n 8
tail -n 1 "$out/quick/compare.txt" | grep -qx SAME || fail "the quick run differs from main"

echo "== 2. --impl rust"
OUT="$out/rust" ONLY=$only RUN_ARGS="--device all --samples 3 --reps 3 --size-mib 16 --impl rust" \
    bash gpu-checks/experiment_bodies.sh | tail -n 8
tail -n 1 "$out/rust/compare.txt" | grep -qx SAME || fail "the --impl rust run differs from main"

echo "== 3. the runner and the node experiments' own tests on the GPUs"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for name in gpu_node_copies gpu_node; do
    tests=(.gpu/"$name"-*)
    if [ ${#tests[@]} -eq 0 ]; then
        echo "(no .gpu/$name-* binary: skipped)"
        continue
    fi
    "${tests[0]}" --test-threads 1 >"$out/$name.log" 2>&1 || fail "$name failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/$name.log"
    grep -q '^SKIPPED .*no NVIDIA driver' "$out/$name.log" && fail "$name was skipped (no GPU?)"
done

if [ $status -eq 0 ]; then echo "NODE COPIES GPU CHECKS: PASS"; else echo "NODE COPIES GPU CHECKS: FAIL"; fi
exit $status
