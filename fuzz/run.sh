#!/usr/bin/env bash
# Builds the `report` fuzz target with libFuzzer's coverage instrumentation (what cargo-fuzz does,
# without needing cargo-fuzz installed) and runs it for SECONDS (default 60) from the seed reports.
# A crash leaves its input in fuzz/artifacts/ and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
target=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
cargo build --release --target "$target" --bin report
mkdir -p corpus/report artifacts/report
cp -n seeds/*.json corpus/report/ 2>/dev/null || true
cp -n ../tests/fixtures/*.json corpus/report/ 2>/dev/null || true
"target/$target/release/report" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix=artifacts/report/ corpus/report
