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
    echo "h2dbench: the CUDA toolkit (nvcc, 11.8 or newer) was not found; on Debian 12:" \
      "apt-get install nvidia-cuda-toolkit (components contrib and non-free), or NVIDIA's" \
      "toolkit (https://developer.nvidia.com/cuda-downloads) with its bin/ on PATH" >&2
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

# Rebuilds are cheap with ccache where it is installed: the compiler runs only for what changed.
# CCACHE_BASEDIR makes the cache independent of where the checkout lives (paths become relative),
# and CCACHE_NOHASHDIR keeps the build folder out of the key of objects with debug info (the
# sanitizer presets), so a fresh clone reuses what another clone on the same machine compiled.
# (Their debug info then names the folder of the clone that compiled them first.)
if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_CUDA_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$h2d_root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
fi

# Configures and builds, saying what it does: the first configure checks the CUDA compiler and
# takes a while; ninja then numbers the build steps it runs ([done/total]).
# h2d_build PRESET [BUILD ARGS...]; configure arguments (e.g. -DH2D_CUDA_ARCHITECTURES=61) in
# the array h2d_configure_args.
h2d_build() {
  local preset=$1
  shift
  local what="everything (h2dbench and the tests)"
  if [ "${1:-}" = --target ]; then
    what="${*:2}"
  fi
  echo "h2dbench: configuring build/$preset (cmake --preset $preset)"
  cmake --preset "$preset" ${h2d_configure_args[@]+"${h2d_configure_args[@]}"} >/dev/null ||
    { echo "h2dbench: cmake configure failed (preset $preset)" >&2; exit 2; }
  echo "h2dbench: building $what in build/$preset"
  cmake --build --preset "$preset" "$@" || { echo "h2dbench: build failed (preset $preset)" >&2; exit 2; }
}

# What every script does before it builds: the packages, then the toolkit.
h2d_prepare() {
  "$h2d_root/scripts/install-deps"
  h2d_find_nvcc
}

# Installs the Debian packages a check needs beyond debian-packages.txt when they are missing
# (as root, with apt-get); elsewhere says which command would.
# h2d_install_packages PACKAGE...
h2d_install_packages() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "h2dbench: missing packages; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "h2dbench: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
