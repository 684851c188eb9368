#!/usr/bin/env bash
# ctest entry for tests/plots_test.py. Debian's python3-matplotlib belongs to /usr/bin/python3,
# while `python3` on PATH may be another interpreter (pyenv) without it: use the first Python that
# imports matplotlib. Without one the test is skipped (exit 77), except in CI, where
# scripts/install-deps installs python3-matplotlib and its absence is a failure.
set -euo pipefail
h2dbench=${1:?usage: plots_test.sh PATH/TO/h2dbench}
here=$(cd "$(dirname "$0")" && pwd)
for candidate in /usr/bin/python3 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import matplotlib" 2>/dev/null; then
    echo "plots_test: using $candidate ($("$candidate" -c 'import matplotlib; print("matplotlib", matplotlib.__version__)'))"
    exec "$candidate" "$here/plots_test.py" --h2dbench "$h2dbench"
  fi
done
if [ -n "${CI:-}" ]; then
  echo "plots_test: no python3 with matplotlib, which CI must have (apt-get install python3-matplotlib)" >&2
  exit 1
fi
echo "plots_test: skipped: no python3 with matplotlib (apt-get install python3-matplotlib)"
exit 77
