#!/usr/bin/env bash
# Issue 24's proof in one go: three runs of the ledger's experiments back to
# back (gpu-checks/ledger_runs.sh, TAG=runA, runB, runC), started once in a
# process session of its own so that it outlives one call's 10 minutes.
# Call it again at once after each call returns (the machine stays warm for
# 30 s): each call starts the chain if it is not running, waits up to WAIT
# seconds (default 570; UNTIL=file stops waiting once that file exists) and
# copies each finished run's tarball to $OUT. FULL=1 makes each run a full `run` (every experiment).
# Run from the repository root with .gpu/ptxsuite.
set -uo pipefail
cd "$(dirname "$0")/.."
proof=/tmp/proof
mkdir -p "$proof"
# The runs this machine makes (TAGS="runC" on a second machine when one machine's 30 minutes hold two).
export TAGS=${TAGS:-runA runB runC}
if [ ! -e "$proof/started" ]; then
    date +%s >"$proof/started"
    setsid nohup bash -c '
        for tag in $TAGS; do
            TAG=$tag LIMIT=${LIMIT:-900} FULL=${FULL:-} OUT= bash gpu-checks/ledger_runs.sh >"'"$proof"'/$tag.out" 2>&1
        done
        touch "'"$proof"'/done"' >/dev/null 2>&1 &
    echo "proof chain started"
fi
deadline=$(( $(date +%s) + ${WAIT:-570} ))
until_file=${UNTIL:-$proof/done}
while [ ! -e "$proof/done" ] && [ ! -e "$until_file" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 5; done
echo "elapsed since start: $(( $(date +%s) - $(cat "$proof/started") )) s"
for tag in $TAGS; do
    [ -e "$proof/$tag.out" ] && { echo "== $tag"; grep -E "ledger run:|FAILED|: (failed|waived)" "$proof/$tag.out" | head -20; }
done
# A run is finished once the next one has begun (or the chain is done): its
# tarball comes back at once, so a machine given back mid-chain loses one run only.
next_of() { local found=""; for t in $TAGS; do [ -n "$found" ] && { echo "$t"; return; }; [ "$t" = "$1" ] && found=1; done; echo none; }
for tag in $TAGS; do
    if [ -e "$proof/done" ] || [ -e "$proof/$(next_of $tag).out" ]; then
        [ -d "/tmp/$tag" ] && tar -czf "$OUT/$tag.tar.gz" -C /tmp "$tag"
        cp "$proof/$tag.out" "$OUT/$tag.out" 2>/dev/null
    fi
done
if [ -e "$proof/done" ]; then
    echo "proof chain done"
else
    echo "proof chain still running: call again"
fi
exit 0
