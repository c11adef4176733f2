#!/usr/bin/env bash
# GPU checks of the node8 branch (#31): `peer` on every GPU of the machine
# (2, 4 or 8), with the new fabric tests (bisection GPU i ↔ GPU i + N/2, each
# half into the other and both ways at once; all to all), then the GPU test of
# the node experiments (tests/gpu_node.rs) where its binary is in .gpu/.
# Prints the src × dst matrices, all-to-one / one-to-all, the fabric table and
# the bisection copy by copy from report.md, the fabric figures of
# peer-matrices.json, and any point that failed (a copy's check or the links'
# theoretical figure). Exits non-zero if a check fails.
#
# Run from the repository root on the GPU machine, with the binaries in .gpu/:
#   cargo build --release && cp target/release/ptxsuite .gpu/
#   cargo test --release --no-run --test gpu_node     (note the binary path it prints)
#   cp <that path> .gpu/gpu_node                      (optional)
# About 1 minute on 2 H100s at 256 MiB; 8 GPUs run at 64 MiB (56 pairs) to stay under 3 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."

out=${OUT:-/tmp/ptxsuite-node8-check}
mkdir -p "$out"
status=0
results=()

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
echo "== $gpus GPUs"
nvidia-smi topo -m 2>/dev/null | head -n $((gpus + 1)) | sed 's/^/  /'
size=${SIZE_MIB:-256}
if [ "$gpus" -gt 2 ]; then size=${SIZE_MIB:-64}; fi

echo "== ./.gpu/ptxsuite run --device all --only peer --size-mib $size --out $out/peer"
start=$(date +%s)
timeout 170 ./.gpu/ptxsuite run --device all --only peer --size-mib "$size" --out "$out/peer" >"$out/peer.log" 2>&1
run_status=$?
echo "  exit $run_status after $(( $(date +%s) - start )) s"
tail -n 4 "$out/peer.log" | sed 's/^/  log: /'
md="$out/peer/report.md"
if [ -f "$md" ]; then
    # The peer section's tables: links, matrices, hubs, fabric, bisection copy by copy, all-to-all matrices.
    awk '/^\*\*Links\*\*/{on=1} /^\*\*Against size\*\*/{on=0} on' "$md" | sed 's/^/  /'
    grep -E "^\*\*FAILED\*\*" "$md" | sed 's/^/  /'
    grep -E "bisection|GB/s between GPUs" "$md" | grep -vE "^\|" | head -n 4 | sed 's/^/  /'
fi
json=$(find "$out/peer" -name peer-matrices.json | head -n 1)
if [ -n "$json" ] && command -v python3 >/dev/null; then
    python3 - "$json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
print(f"  peer-matrices.json: {doc['gpus']} GPUs, {doc['size_bytes'] >> 20} MiB")
for name, test in doc.get("fabric", {}).items():
    copies = [c["gbps"] for c in test["copies"] if c["gbps"] is not None]
    each = f"{min(copies):.0f}-{max(copies):.0f}" if copies else "-"
    total = test["total"]
    theory = test["theoretical"]
    print(f"  {name:34s} total {total if total is None else round(total)} GB/s of "
          f"{theory if theory is None else round(theory)}; {len(test['copies'])} copies, each {each}")
EOF
fi
failed=$(grep -c "^\*\*FAILED\*\*" "$md" 2>/dev/null)
failed=${failed:-0}
if [ $run_status -eq 0 ] && grep -q "The fabric at once" "$md" 2>/dev/null && grep -q "bisect_write_ce" "$md" \
    && [ "$failed" -eq 0 ]; then
    results+=("run --only peer: matrices, hubs, bisection and all-to-all, no failed point")
else
    results+=("run --only peer: FAILED (exit $run_status, $failed failed points, or no fabric table)")
    status=1
fi

if [ -x .gpu/gpu_node ]; then
    echo "== .gpu/gpu_node peer (tests/gpu_node.rs)"
    timeout 120 ./.gpu/gpu_node --nocapture --test-threads 1 peer >"$out/gpu_node.log" 2>&1
    test_status=$?
    grep -E "^(peer |test |SKIPPED|test result)|panicked" "$out/gpu_node.log" | sed 's/^/  /'
    if [ $test_status -eq 0 ]; then
        results+=("gpu_node peer tests: passed")
    else
        results+=("gpu_node peer tests: FAILED (exit $test_status)")
        status=1
    fi
else
    results+=("gpu_node: not run (no .gpu/gpu_node)")
fi

echo "== summary"
printf '  %s\n' "${results[@]}"
exit $status
