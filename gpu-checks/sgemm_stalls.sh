#!/usr/bin/env bash
# Where the register-blocked SGEMM's cycles go: ncu (clocks unlocked, as the timed runs) reads the warp
# stall reasons per issued instruction, issue-slot use and IPC of the Rust kernel at 1024³ (the 128 × 64
# whole-tile entry, the first launch of that entry) and at 4096³ (the 128 × 128 whole-tile entry's 5th
# launch: 2048³ runs it 4 times before with --reps 1 --samples 1; see gpu-checks/sgemm_tiles.sh), each
# in its own `run --only sgemm --impl rust,cublas`. Needs .gpu/ptxsuite; writes $OUT/sgemm-stalls.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
report=${OUT:-/tmp}/sgemm-stalls.txt
: > "$report"
for case in "1024 sgemm_register_blocked_128x64_whole_tiles 0" "4096 sgemm_register_blocked_whole_tiles 4"; do
    set -- $case
    size=$1 kernel=$2 skip=$3
    start=$(date +%s)
    timeout 150 "$ncu" --clock-control none --section LaunchStats --section SchedulerStats --section WarpStateStats \
        --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__inst_executed_pipe_fma.sum,smsp__inst_executed.sum" \
        -k "regex:^${kernel}\$" -s "$skip" -c 1 \
        ./.gpu/ptxsuite run --only sgemm --impl rust,cublas --reps 1 --samples 1 --out "/tmp/ncu_run_$size" \
        > "/tmp/ncu_$size.txt" 2>&1
    echo "== ncu $kernel at ${size}³ (exit $?, $(( $(date +%s) - start )) s)" | tee -a "$report"
    grep -E "==ERROR==|==WARNING==" "/tmp/ncu_$size.txt" | head -n 3 | tee -a "$report"
    # From ncu's header line of the profiled launch ("  <kernel> (grid)x(block), Context ..."), not from the
    # run's own lines, which also start with the kernel's name.
    sed -n "/^  ${kernel} (/,\$p" "/tmp/ncu_$size.txt" | grep -vE "^\s*-+$|OPT|INF|^\s*$" >> "$report"
done
