#!/usr/bin/env bash
# Issue 28's new rows, checked in one call: selftest, then the four helper
# checks (notes2: particle-tuning; hostclaims: the host and concurrency
# experiments; memclaims28: bank-conflict cases, permuted, allocation;
# mathclaims: math-functions, opencl-arithmetic, accuracy; cldiv: divergence
# with its OpenCL C twins), each printing its
# series, failed points and rows. Run from the repository root with
# .gpu/ptxsuite; everything lands in $OUT/rows28.tar.gz (the device tool
# returns at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
keep=${OUT:-}
collected=/tmp/rows28
rm -rf "$collected"; mkdir -p "$collected"
start=$(date +%s)
./.gpu/ptxsuite selftest >"$collected/selftest.log" 2>&1
echo "selftest: exit $? in $(( $(date +%s) - start )) s"
grep -E "FAILED|failed|waived|selftest:" "$collected/selftest.log" | head -20
for check in notes2 hostclaims memclaims28 mathclaims cldiv; do
    start=$(date +%s)
    echo "=================== $check"
    OUT="$collected" bash "gpu-checks/$check.sh" 2>&1 | tee "$collected/$check.out" | head -c 6000
    echo "=================== $check: $(( $(date +%s) - start )) s"
done
[ -n "$keep" ] && tar -czf "$keep/rows28.tar.gz" -C /tmp rows28
exit 0
