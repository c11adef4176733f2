#!/usr/bin/env bash
# Does Ctrl-C (SIGINT) end `ptxsuite run` with a partial report? Runs a short
# selection under `timeout -s INT` in each of MODES (plain: as a background
# job; setsid: in a session of its own; strace: under `strace -f`, with
# .gpu/strace/strace and its libraries where the machine has none), and
# samples the process once a second while it runs: its SIGINT disposition
# (SigIgn / SigCgt, bit 2), its threads' names, states and kernel wait
# channels, its children, and whether the output folder exists yet. Prints
# the exit status, the log and what the output folder holds.
# timeout --preserve-status passes on how the run ended: 130 is ptxsuite's own
# interrupted exit, 128 + n death by signal n (SIGINT 2, SIGHUP 1).
# Expected in every mode: exit 130, "Ctrl-C: finishing the
# current point" in the log, and a report.json with "partial": true.
# Run from the repository root with .gpu/ptxsuite (BIN= names another build);
# OUT= keeps the strace logs.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=${BIN:-./.gpu/ptxsuite}
limit=${LIMIT:-20}
name=$(basename "$bin")
strace_bin=$(command -v strace || echo ./.gpu/strace/strace)
sigint() { # "ignored", "caught" or "default": SIGINT in /proc/$1/status
    local ign cgt
    ign=$((16#$(awk '/^SigIgn/{print $2}' "/proc/$1/status" 2>/dev/null || echo 0)))
    cgt=$((16#$(awk '/^SigCgt/{print $2}' "/proc/$1/status" 2>/dev/null || echo 0)))
    if (( ign & 2 )); then echo ignored; elif (( cgt & 2 )); then echo caught; else echo default; fi
}
threads() { # name:state:wchan of each thread of $1
    local t
    for t in /proc/"$1"/task/*; do
        printf '%s:%s:%s ' "$(cat "$t/comm" 2>/dev/null)" "$(awk '{print $3}' "$t/stat" 2>/dev/null)" \
            "$(cat "$t/wchan" 2>/dev/null)"
    done
}
echo "shell: SIGINT here is $(sigint $$); strace: $strace_bin"
for mode in ${MODES:-plain setsid strace}; do
    dir=/tmp/ctrl-c-$mode; rm -rf "$dir" "$dir.log" "$dir.strace"
    launcher=()
    case $mode in
        setsid) launcher=(setsid -w) ;;
        strace | setsid-strace)
            if ! LD_LIBRARY_PATH=./.gpu/strace "$strace_bin" -V >/dev/null 2>&1; then
                echo "strace: cannot run $strace_bin here, mode skipped"; continue
            fi ;;
    esac
    start=$(date +%s)
    if [ "$mode" = strace ] || [ "$mode" = setsid-strace ]; then
        [ "$mode" = setsid-strace ] && launcher=(setsid -w)
        # strace blocks fatal signals for itself (-o FILE PROG); timeout's SIGINT to its
        # process group reaches the traced ptxsuite, as it does in the other modes.
        LD_LIBRARY_PATH=./.gpu/strace:$LD_LIBRARY_PATH "${launcher[@]}" timeout --preserve-status -s INT "$limit" "$strace_bin" -f -tt \
            -e trace=%signal,%process,write,dup2,dup3,close -s 160 -o "$dir.strace" \
            "$bin" run --only "${ONLY:-offset,stride,shift,instructions}" --out "$dir" >"$dir.log" 2>&1 &
    else
        "${launcher[@]}" timeout --preserve-status -s INT "$limit" "$bin" run --only "${ONLY:-offset,stride,shift,instructions}" \
            --out "$dir" >"$dir.log" 2>&1 &
    fi
    job=$!
    for ((t = 1; t < limit + 2; t++)); do
        sleep 1
        pid=$(pgrep -n -x "$name") || { echo "$mode t=${t}s: no $name process"; continue; }
        kids=$(pgrep -P "$pid" -a | tr '\n' ';')
        echo "$mode t=${t}s pid $pid SIGINT $(sigint "$pid"), out dir $([ -d "$dir" ] && echo yes || echo no), children [${kids}]: $(threads "$pid")"
    done
    wait "$job"; rc=$?
    echo "$mode: exit $rc after $(( $(date +%s) - start )) s; log:"
    sed 's/^/    /' "$dir.log" | tail -n 8
    if [ -f "$dir.strace" ]; then
        echo "$mode: strace, signals, exits and the last writes:"
        grep -E 'SIG|exit|killed|write\((1|2),|dup' "$dir.strace" | tail -n 30 | sed 's/^/    /'
        [ -n "${OUT:-}" ] && cp "$dir.strace" "$OUT/ctrl-c-$mode.strace"
    fi
    echo "$mode: output folder: $(ls "$dir" 2>&1 | paste -sd' ')"
    [ -f "$dir/report.json" ] && python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('    partial:', r.get('partial'), [(e['name'], e['status']['state']) for e in r['experiments']])" "$dir/report.json"
done
