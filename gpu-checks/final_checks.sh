#!/usr/bin/env bash
# One short GPU call for what a session changed: the self-test (every
# kernel against the CPU reference, the counters row when CUPTI is there),
# then `run --counters` of the experiments given in ONLY (default: the
# throughput table, accuracy, matvec and sgemm) at SAMPLES samples. Each
# step is bounded (SIGINT: the report so far is written). Everything lands in
# $OUT/final.tar.gz for analysis off the GPU machine.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
work=/tmp/final
rm -rf "$work"; mkdir -p "$work"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
start=$(date +%s)
timeout -s INT "${SELFTEST_LIMIT:-60}" ./.gpu/ptxsuite selftest >"$work/selftest.log" 2>&1
echo "selftest: exit $? in $(( $(date +%s) - start )) s"
grep -iE "counter|fail|error|sgemm" "$work/selftest.log" | head -n 12
only=${ONLY:-instructions,accuracy,matvec,sgemm}
start=$(date +%s)
timeout -s INT "${RUN_LIMIT:-170}" ./.gpu/ptxsuite run --counters --samples "${SAMPLES:-5}" --only "$only" --out "$work/run" >"$work/run.log" 2>&1
echo "run --counters --only $only: exit $? in $(( $(date +%s) - start )) s"
tail -n 4 "$work/run.log"
[ -n "${OUT:-}" ] && tar -czf "$OUT/final.tar.gz" -C /tmp final
exit 0
