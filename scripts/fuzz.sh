#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME each (default 60s).
# FUZZ=regexp limits the targets by name; PKG=./runtime/meta limits packages.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-60s}
pkgs=${PKG:-./...}
status=0
for pkg in $(go list -f '{{.Dir}}' $pkgs); do
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$pkg"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    if [ -n "${FUZZ:-}" ] && ! [[ $t =~ $FUZZ ]]; then continue; fi
    echo "=== fuzz $t in ${pkg#$PWD/} for $fuzztime"
    if ! go test -run='^$' -fuzz="^${t}\$" -fuzztime="$fuzztime" "$pkg"; then
      echo "!!! $t found a failure: see testdata/fuzz/$t in ${pkg#$PWD/}"
      status=1
    fi
  done
done
exit $status
