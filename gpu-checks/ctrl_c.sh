#!/usr/bin/env bash
# Does Ctrl-C (SIGINT) end `ptxsuite run` with a partial report? Runs a short
# selection under `timeout -s INT`, samples the process's signal masks from
# /proc while it runs (SigIgn / SigCgt: is SIGINT, bit 2, ignored or caught?),
# and prints the exit status, the log and what the output folder holds.
# Expected: exit 124 from timeout, "Ctrl-C: finishing the current point" in the
# log, and a report.json with "partial": true.
# Run from the repository root with .gpu/ptxsuite (BIN= names another build).
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=${BIN:-./.gpu/ptxsuite}
limit=${LIMIT:-20}
sigint_bit() { # prints "ignored", "caught" or "default" for SIGINT in a /proc status mask pair
    local ign=$((16#$1)) cgt=$((16#$2))
    if (( ign & 2 )); then echo ignored; elif (( cgt & 2 )); then echo caught; else echo default; fi
}
echo "shell: SIGINT in this shell is $(sigint_bit "$(awk '/^SigIgn/{print $2}' /proc/$$/status)" "$(awk '/^SigCgt/{print $2}' /proc/$$/status)")"
for mode in plain setsid; do
    dir=/tmp/ctrl-c-$mode; rm -rf "$dir" "$dir.log"
    launcher=(); [ "$mode" = setsid ] && launcher=(setsid -w)
    start=$(date +%s)
    "${launcher[@]}" timeout -s INT "$limit" "$bin" run --only "${ONLY:-offset,stride,shift,instructions}" --out "$dir" >"$dir.log" 2>&1 &
    job=$!
    traced=
    for t in 1 3 6 10 15; do
        sleep $(( t == 1 ? 1 : 2 ))
        # the newest process named as the binary (not `timeout`, whose command line also names it)
        pid=$(pgrep -n -x "$(basename "$bin")") || continue
        echo "$mode t~${t}s pid $pid ($(cat /proc/$pid/comm), session $(awk '{print $6}' /proc/$pid/stat), tty $(awk '{print $7}' /proc/$pid/stat)): SIGINT $(sigint_bit "$(awk '/^SigIgn/{print $2}' /proc/$pid/status)" "$(awk '/^SigCgt/{print $2}' /proc/$pid/status)")"
        if [ -n "${STRACE:-}" ] && [ -z "$traced" ] && command -v strace >/dev/null; then
            strace -f -tt -e trace=%signal,exit_group,write -s 120 -p "$pid" -o "$dir.strace" 2>/dev/null &
            traced=1
        fi
    done
    wait "$job"; rc=$?
    echo "$mode: exit $rc after $(( $(date +%s) - start )) s; log:"
    sed 's/^/    /' "$dir.log" | tail -n 8
    if [ -f "$dir.strace" ]; then
        sleep 1
        echo "$mode: strace (signals, exit, last writes):"
        grep -E 'SIG|exit|killed|write\(2' "$dir.strace" | tail -n 25 | sed 's/^/    /'
        [ -n "${OUT:-}" ] && cp "$dir.strace" "$OUT/ctrl-c-$mode.strace"
    fi
    echo "$mode: output folder: $(ls "$dir" 2>&1 | paste -sd' ')"
    [ -f "$dir/report.json" ] && python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('    partial:', r.get('partial'), [(e['name'], e['status']['state']) for e in r['experiments']])" "$dir/report.json"
done
