#!/usr/bin/env bash
# GPU check of the nodebodies branch (issue #26 item 4 for the node
# experiments, issue #31's latency matrix). The run() bodies of `peer`,
# `host-links` and `link-latency` were split into named steps with no change
# of behaviour: this runs the three with the branch's binary (.gpu/ptxsuite)
# and main's (.gpu/ptxsuite-main) on every GPU of the machine and compares the
# reports' shape (experiment_bodies.sh: statuses, series keys and labels,
# points, extras, setup and notes with numbers masked); it must print "SAME".
# Then it prints the branch's link-latency tables from report.md: each GPU's
# own and host memory as a list, the peer reads as src × dst matrices.
# On one GPU `peer` is waived and the peer parts of the others too: use a
# machine of 2 or more GPUs. About 2 minutes on 2 H100s.
#
# Build on the dev machine, from this branch and from main:
#   cargo build --release && cp target/release/ptxsuite .gpu/ptxsuite
#   (in a main checkout) cargo build --release && cp target/release/ptxsuite <this tree>/.gpu/ptxsuite-main
# Run from the repository root: gpu-checks/node_bodies.sh   (writes under $OUT)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/node-bodies-check}
mkdir -p "$out"
echo "== $(nvidia-smi -L 2>/dev/null | grep -c '^GPU ') GPUs"
OUT="$out" ONLY=peer,host-links,link-latency \
    RUN_ARGS="${RUN_ARGS:---device all --samples 3 --reps 3 --size-mib 64}" \
    bash gpu-checks/experiment_bodies.sh
status=$?
grep -q '^SAME$' "$out/compare.txt" || status=1
echo "== link-latency tables (branch report.md)"
awk '/^## .*[Ll]atency over the links/{on=1} on&&/^## /&&!/[Ll]atency over the links/{on=0} on' \
    "$out/bodies-branch/report.md" | grep -E '^\||^\*\*|^Cells' | head -60
exit $status
