# Shared by scripts/bench, scripts/test and scripts/device-check: find the toolkit, pick a preset.
# shellcheck shell=bash

h2d_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# nvcc is often installed outside PATH (/usr/local/cuda/bin); CMake needs it to enable CUDA.
h2d_find_nvcc() {
  if ! command -v nvcc >/dev/null 2>&1; then
    for dir in /usr/local/cuda/bin /usr/local/cuda-*/bin /opt/cuda/bin; do
      if [ -x "$dir/nvcc" ]; then
        export PATH="$dir:$PATH"
        break
      fi
    done
  fi
  if ! command -v nvcc >/dev/null 2>&1; then
    echo "h2dbench: the CUDA toolkit (nvcc) was not found; install it from NVIDIA and put its bin/ on PATH" >&2
    exit 2
  fi
}

# CI builds one architecture to stay fast; elsewhere `release` builds for the visible GPU
# (native) or a portable list. H2D_PRESET overrides.
h2d_preset() {
  if [ -n "${H2D_PRESET:-}" ]; then
    echo "$H2D_PRESET"
  elif [ -n "${CI:-}" ]; then
    echo ci
  else
    echo release
  fi
}

# h2d_build PRESET [BUILD ARGS...]; configure arguments (e.g. -DH2D_CUDA_ARCHITECTURES=61) in
# the array h2d_configure_args.
h2d_build() {
  local preset=$1
  shift
  cmake --preset "$preset" ${h2d_configure_args[@]+"${h2d_configure_args[@]}"} >/dev/null ||
    { echo "h2dbench: cmake configure failed (preset $preset)" >&2; exit 2; }
  cmake --build --preset "$preset" "$@" || { echo "h2dbench: build failed (preset $preset)" >&2; exit 2; }
}
