#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME each (default 60s).
# FUZZ=regexp limits the targets by name; PKG=./runtime/meta limits packages.
# FUZZMINTIME (default 200x) bounds the minimization of each new input: go
# test minimizes every input that finds new coverage, for 60s by default,
# which for targets seeded with whole files (FuzzReadSplit: 100 KB) left
# the fuzzer at 0 execs/s; with 200 runs it does about 1,000 execs/s.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-60s}
fuzzmintime=${FUZZMINTIME:-200x}
pkgs=${PKG:-./...}
status=0
for pkg in $(go list -f '{{.Dir}}' $pkgs); do
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$pkg"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    if [ -n "${FUZZ:-}" ] && ! [[ $t =~ $FUZZ ]]; then continue; fi
    echo "=== fuzz $t in ${pkg#$PWD/} for $fuzztime"
    if ! go test -run='^$' -fuzz="^${t}\$" -fuzztime="$fuzztime" -fuzzminimizetime="$fuzzmintime" "$pkg"; then
      echo "!!! $t found a failure: see testdata/fuzz/$t in ${pkg#$PWD/}"
      status=1
    fi
  done
done
exit $status
