#!/usr/bin/env bash
# Topology fixtures: tests/fixtures/*.xml are exactly what make_topology_fixtures.py writes, and
# hwloc's own lstopo reads each of them without a complaint.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/fixtures/make_topology_fixtures.py "$tmp"
for generated in "$tmp"/*.xml; do
  name=$(basename "$generated")
  if ! diff -u "tests/fixtures/$name" "$generated"; then
    echo "tests/fixtures/$name is out of date: run python3 tests/fixtures/make_topology_fixtures.py" >&2
    exit 1
  fi
done
if ! command -v lstopo-no-graphics >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends hwloc >/dev/null || true
fi
if ! command -v lstopo-no-graphics >/dev/null 2>&1; then
  echo "topology fixtures: lstopo-no-graphics not available (package hwloc); skipped hwloc's own check"
  exit 0
fi
for fixture in tests/fixtures/*.xml; do
  if ! lstopo-no-graphics --if xml -i "$fixture" --whole-io --of console >/dev/null 2>"$tmp/stderr" ||
    [ -s "$tmp/stderr" ]; then
    echo "lstopo cannot read $fixture cleanly:" >&2
    cat "$tmp/stderr" >&2
    exit 1
  fi
done
echo "topology fixtures: up to date and readable by hwloc $(lstopo-no-graphics --version | awk '{print $2}')"
