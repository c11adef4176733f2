#!/usr/bin/env bash
# One lease, several checks: counters (issue 27), SASS (issue 24 item 4), cuda_std (issue 30), the
# reworked bank-conflict and constant-memory accounting, and the memory GPU tests. Everything
# lands in one tarball in $OUT (the run tool brings back at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/.."
work=/tmp/batch2; rm -rf "$work"; mkdir -p "$work"
trap 'tar czf "$OUT/batch2.tgz" -C /tmp batch2 2>/dev/null' EXIT TERM INT
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
step() { echo; echo "######## $1 ($(date +%T))"; }
step quick; ONLY=bank-conflicts,constant-memory TAG=quick OUT=$work gpu-checks/ledger_quick.sh 2>&1 | tail -40
step counters; RUN_SECONDS=${RUN_SECONDS:-90} OUT=$work/counters gpu-checks/counters.sh > $work/counters.out 2>&1; echo "exit $?"; tail -n 80 $work/counters.out
step sass; OUT=$work/sass gpu-checks/sass.sh > $work/sass.out 2>&1; echo "exit $?"; tail -n 60 $work/sass.out
step cudastd; OUT=$work/cudastd gpu-checks/cudastd.sh > $work/cudastd.out 2>&1; echo "exit $?"; tail -n 30 $work/cudastd.out
step memtests; for t in gpu_memory_claims gpu_memory_experiments; do ./.gpu/$t --test-threads=1 > $work/$t.out 2>&1; echo "$t exit $?"; grep -E "test result|FAILED|panicked" $work/$t.out | head; done
