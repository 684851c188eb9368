# The GPU architectures scripts/bench builds for: those of the GPUs on this machine, when the
# toolkit on PATH can build for them. Sourced; tested with stand-in nvidia-smi and nvcc
# (tests/gpu_architectures_script_test.cpp).
# shellcheck shell=bash

# Prints the CUDA architecture list for CMake (e.g. "61", "86;90", "native"), or nothing when no
# GPU can be seen (CMake's own default then). Stops (exit 2) with one line when nvcc cannot
# build for a GPU here: CUDA 13 builds for sm_75 and newer only, CUDA 12.x for sm_50 and newer
# (Kepler needs 11.8), CUDA 12.x before 12.8 and 11.8 for sm_90 and older.
h2d_gpu_architectures() {
  if [ -n "${H2D_CUDA_ARCHITECTURES:-}" ]; then
    echo "$H2D_CUDA_ARCHITECTURES"  # the user's choice; nvcc judges it
    return 0
  fi
  command -v nvidia-smi >/dev/null 2>&1 || return 0
  nvidia-smi -L >/dev/null 2>&1 || return 0  # no driver
  local caps
  if ! caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null); then
    echo native  # drivers before 510 cannot tell; CMake asks the GPUs itself
    return 0
  fi
  local release major minor
  release=$(nvcc --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
  major=${release%%.*}
  minor=${release#*.}
  local cap sm list=() seen=" "
  for cap in $caps; do
    if [[ ! $cap =~ ^[0-9]+\.[0-9]+$ ]]; then
      echo "h2dbench: nvidia-smi reported compute capability '$cap'; set H2D_CUDA_ARCHITECTURES (e.g. 61)" >&2
      exit 2
    fi
    sm=${cap/./}
    if [ "$major" -ge 12 ] && [ "$sm" -lt 50 ]; then
      echo "h2dbench: this GPU (sm_$sm) needs CUDA 11.8; nvcc $release builds for sm_50 and newer: put CUDA 11.8's bin/ first on PATH" >&2
      exit 2
    fi
    if [ "$major" -ge 13 ] && [ "$sm" -lt 75 ]; then
      echo "h2dbench: this GPU (sm_$sm) needs CUDA 12.x (11.8 is the oldest supported); nvcc $release builds for sm_75 and newer: put a 12.x toolkit's bin/ first on PATH" >&2
      exit 2
    fi
    if [ "$sm" -ge 100 ] && { [ "$major" -lt 12 ] || { [ "$major" -eq 12 ] && [ "$minor" -lt 8 ]; }; }; then
      echo "h2dbench: this GPU (sm_$sm) needs CUDA 12.8 or newer; nvcc $release builds for sm_90 and older" >&2
      exit 2
    fi
    if [[ $seen != *" $sm "* ]]; then
      seen+="$sm "
      list+=("$sm")
    fi
  done
  local IFS=';'
  echo "${list[*]}"
}
