#!/usr/bin/env bash
# GPU checks of the `harden` branch (issue 25): a short real run of the
# experiments whose plots changed most (offset, stride, matvec, sgemm,
# transfers, streams; peer when there are two GPUs), its report.md and plots
# (left in $OUT/harden for a reader to look at), `render` of the real report
# again, and the output rules on real files: a link where report.md goes and
# a report named report.md in its own folder are refused and left intact.
#
# Run on the GPU machine from the repository root, with in .gpu/:
#   * ptxsuite  (cargo build --release; copy target/release/ptxsuite)
# About 2 minutes on an H100 (5 samples per point; transfers' pageable copies
# take the longest). Exit status: 0 when the run and every check passed.
set -uo pipefail
cd "$(dirname "$0")/.."

out_dir=${OUT:-.}/harden
[ -n "${OUT:-}" ] || out_dir=./harden-report
status=0
fail() {
    echo "harden: FAILED: $*"
    status=1
}

if [ ! -x .gpu/ptxsuite ]; then
    echo "harden: no .gpu/ptxsuite (see the header of $0)"
    exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
experiments=offset,stride,matvec,sgemm,transfers,streams
device=0
if [ "${gpus:-1}" -ge 2 ]; then
    experiments=$experiments,peer
    device=all
fi

run_dir=$out_dir/run
mkdir -p "$run_dir"
start=$(date +%s)
./.gpu/ptxsuite run --only "$experiments" --device "$device" --samples 5 --out "$run_dir" >"$out_dir/run.log" 2>&1
run_status=$?
echo "harden: ptxsuite run --only $experiments --device $device --samples 5: exit $run_status in $(( $(date +%s) - start )) s"
[ $run_status -eq 0 ] || fail "the run exited $run_status (see $out_dir/run.log)"
ls "$run_dir"

# report.md's order: contents, headline findings, ledger, the run, the experiments, the kernels.
md=$run_dir/report.md
if [ -f "$md" ]; then
    last=0
    for heading in '^\*\*Contents\*\*' '^## Headline findings' "^## The run: GPUs" '^## Kernels: registers'; do
        line=$(grep -n -m1 -E "$heading" "$md" | cut -d: -f1)
        if [ -z "$line" ] || [ "$line" -le "$last" ]; then
            fail "report.md: $heading missing or out of order"
        else
            last=$line
        fi
    done
    echo "harden: headline findings:"
    sed -n '/^## Headline findings/,/^## /p' "$md" | grep '^- \|^\*\*The' | sed 's/^/  /'
    grep -q 'NaN\|inf%\|infx' "$md" && fail "report.md shows NaN or infinity"
fi
for svg in "$run_dir"/*.svg; do
    [ -f "$svg" ] || continue
    tr -d '\n\t\r' <"$svg" | grep -q '[[:cntrl:]]' && fail "$svg holds a control character"
done
[ -f "$run_dir/transfers.svg" ] || fail "no transfers.svg"
grep -q '>host → device<' "$run_dir/transfers.svg" 2>/dev/null || fail "transfers.svg has no host → device panel"

# render of the real report, into a fresh folder: the same files but report.json.
render_dir=$out_dir/render
./.gpu/ptxsuite render "$run_dir/report.json" --out "$render_dir" || fail "render of the real report"
diff <(cd "$run_dir" && ls | grep -v 'report.json\|peer-matrices.json\|\.png$') <(ls "$render_dir") >/dev/null \
    || fail "render wrote other files than the run: $(ls "$render_dir")"

# The output rules on real files.
rules=$out_dir/rules
mkdir -p "$rules/out"
echo keep >"$rules/precious.txt"
ln -s "$PWD/$rules/precious.txt" "$rules/out/report.md"
./.gpu/ptxsuite render "$run_dir/report.json" --out "$rules/out" 2>"$rules/link.err"
code=$?
[ $code -eq 1 ] && grep -q 'symbolic link' "$rules/link.err" && [ "$(cat "$rules/precious.txt")" = keep ] \
    || fail "a link where report.md goes: exit $code, $(cat "$rules/link.err")"
cp "$run_dir/report.json" "$rules/report.md"
./.gpu/ptxsuite render "$rules/report.md" 2>"$rules/input.err"
code=$?
[ $code -eq 2 ] && cmp -s "$rules/report.md" "$run_dir/report.json" \
    || fail "a report named report.md rendered into its own folder: exit $code, $(cat "$rules/input.err")"

echo "harden: plots to look at: $(ls "$run_dir"/*.svg | xargs -n1 basename | tr '\n' ' ')"
if [ $status -eq 0 ]; then
    echo "harden: every check passed"
fi
exit $status
