#!/usr/bin/env bash
# The node at full size (#31), one call on a machine of 4 or 8 GPUs:
#  1. the topology (nvidia-smi topo -m) and NVLink status of GPU 0;
#  2. `peer-copy-limits` on GPUs 0 → 1 (blocks in flight, push / pull, both GPUs' SMs, both CEs);
#  3. gpu-checks/node8.sh: `peer` on every GPU (matrices, hubs, bisection, all-to-all) and tests/gpu_node.rs;
#  4. `host-links` and `link-latency` on every GPU;
#  5. the merge of two reports from the node's halves (CUDA_VISIBLE_DEVICES, so each half's GPUs are
#     0 and 1, as on two hosts), with a background copy load (gpu-checks/background_load.cu, built by
#     nvcc there) on the second half's first GPU,
#     which `merge` must name slow (exit 3).
# Everything lands under $OUT (default /tmp/ptxsuite-node-full); the reports are tarred for the trip back.
#
# Run from the repository root on the GPU machine, with .gpu/ptxsuite (and optionally .gpu/gpu_node).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/ptxsuite-node-full}
mkdir -p "$out"
bin=./.gpu/ptxsuite
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
results=()
step() { echo; echo "== $* ($(date +%T))"; }
# STEPS picks the steps (default all): limits node8 links halves; ONLY_LINKS the experiments of `links`.
want() { [[ " ${STEPS:-limits node8 links halves} " == *" $1 "* ]]; }
export PATH=$PATH:/usr/local/cuda/bin

step "topology, $gpus GPUs"
nvidia-smi topo -m 2>/dev/null | head -n $((gpus + 2))
nvidia-smi nvlink --status -i 0 2>/dev/null | head -n 4
nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.sm,clocks.max.sm,power.draw --format=csv 2>/dev/null

if want limits; then
step "peer-copy-limits"
timeout 150 $bin run --device all --only peer-copy-limits --out "$out/limits" >"$out/limits.log" 2>&1
rc=$?
awk '/^## .*peer-copy-limits|What limits a copy/{on=1} on' "$out/limits/report.md" 2>/dev/null | head -n 60
results+=("peer-copy-limits: exit $rc, $(grep -c '^\*\*FAILED' "$out/limits/report.md" 2>/dev/null) failed")
fi

if want node8; then
step "node8.sh (peer on all GPUs, gpu_node tests)"
OUT="$out/node8" timeout 330 bash gpu-checks/node8.sh
results+=("node8.sh: exit $?")
fi

if want links; then
step "${ONLY_LINKS:=host-links,link-latency} on all GPUs"
timeout 200 $bin run --device all --only "$ONLY_LINKS" --out "$out/links" >"$out/links.log" 2>&1
rc=$?
tail -n 3 "$out/links.log"
awk '/host-links/{on=1} on' "$out/links/report.md" 2>/dev/null | grep -E "^\|" | head -n 40
results+=("$ONLY_LINKS: exit $rc, $(grep -c '^\*\*FAILED' "$out/links/report.md" 2>/dev/null) failed")
fi

if want halves && [ "$gpus" -ge 4 ]; then
    step "two halves as two hosts; a copy load on the second half's first GPU"
    half=$((gpus / 2))
    first=$(seq -s, 0 $((half - 1)))
    second=$(seq -s, "$half" $((gpus - 1)))
    touch "$out/hog.on"
    nvcc -O2 -o /tmp/background_load gpu-checks/background_load.cu || echo "nvcc failed: no background load"
    CUDA_VISIBLE_DEVICES=$half /tmp/background_load "$out/hog.on" 200 >"$out/background_load.log" 2>&1 &
    hog=$!
    sleep 5
    CUDA_VISIBLE_DEVICES=$first timeout 150 $bin run --device all --only ceiling,stride,offset \
        --out "$out/half-a" >"$out/half-a.log" 2>&1 &
    half_a=$!
    CUDA_VISIBLE_DEVICES=$second timeout 150 $bin run --device all --only ceiling,stride,offset \
        --out "$out/half-b" >"$out/half-b.log" 2>&1
    wait "$half_a"
    rm -f "$out/hog.on"
    $bin merge --out "$out/merged" "$out/half-a/report.json" "$out/half-b/report.json" 2>&1 | tail -n 12
    rc=${PIPESTATUS[0]}
    wait "$hog"
    results+=("merge of halves (load on GPU $half: $(cat "$out/background_load.log")): exit $rc (3 = a slow node named)")
fi

step "summary"
printf '  %s\n' "${results[@]}"
tar czf "$out/node-full.tar.gz" -C "$out" --exclude='*.tar.gz' . 2>/dev/null
ls -la "$out/node-full.tar.gz"
