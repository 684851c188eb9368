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
# CMake takes the launcher from the environment at any configure whose cache has none yet, so
# it must be decided before a build folder's first configure: a launcher that appears later
# changes every compile command, and everything is compiled again. h2d_prepare decides again
# after installing the packages (ccache among them); a launcher set to '' keeps ccache out.
h2d_use_ccache() {
  if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER+set}" ]; then
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_CUDA_COMPILER_LAUNCHER=ccache
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$h2d_root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
  fi
}
# For the scripts that only source this file (scripts/ci/*) and build on an installed machine.
h2d_use_ccache

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
  h2d_configure "$preset"
  h2d_nvjpeg "$preset"
  echo "h2dbench: building $what in build/$preset"
  cmake --build --preset "$preset" "$@" || { echo "h2dbench: build failed (preset $preset)" >&2; exit 2; }
}

# cmake --preset PRESET; its output goes to build/PRESET/configure.log (errors still show).
h2d_configure() {
  local preset=$1
  mkdir -p "build/$preset"
  # shellcheck disable=SC2154 # h2d_configure_args is the caller's (see h2d_build)
  cmake --preset "$preset" ${h2d_configure_args[@]+"${h2d_configure_args[@]}"} >"build/$preset/configure.log" ||
    { echo "h2dbench: cmake configure failed (preset $preset; its output: build/$preset/configure.log)" >&2; exit 2; }
}

# The build decides whether nvJPEG is there (CMakeLists.txt writes build/PRESET/nvjpeg-status.txt:
# toolkit, wheel, library, simulated or none, then the library or the reason). Where it found
# none, scripts/install-nvjpeg gets the wheel for the toolkit CMake used and the folder is
# configured once more; then CMake's own nvJPEG line is said, once.
h2d_nvjpeg() {
  local preset=$1 nvcc root
  local status=build/$preset/nvjpeg-status.txt log=build/$preset/configure.log
  local cache=build/$preset/CMakeCache.txt
  [ -f "$status" ] || return 0
  if [ "$(cut -d' ' -f1 "$status")" = none ]; then
    # The toolkit and the wheel folder this build uses, not whatever PATH says.
    nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$cache" 2>/dev/null || true)
    root=$(sed -n 's/^H2D_NVJPEG_ROOT:[A-Z]*=//p' "$cache" 2>/dev/null || true)
    if H2D_NVJPEG_ROOT=${root:-${H2D_NVJPEG_ROOT:-}} "$h2d_root/scripts/install-nvjpeg" \
      --build-found-none ${nvcc:+--nvcc "$nvcc"}; then
      echo "h2dbench: configuring build/$preset again (nvJPEG)"
      h2d_configure "$preset"
    fi
  fi
  sed -n 's/^-- nvJPEG: /h2dbench: nvJPEG: /p' "$log" | head -1
}

# What every script does before it builds: the packages, then the compiler launcher (ccache may
# have just been installed), then the toolkit.
h2d_prepare() {
  "$h2d_root/scripts/install-deps"
  h2d_use_ccache
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

# Clang for the sanitizer presets (asan, tsan: CMakePresets.json), which it compiles 40% faster
# than GCC here (issue 29), and a link with its runtimes: they are a package of their own on newer
# Debian and Ubuntu releases, which is said now, not at the link after minutes of compiling.
# h2d_need_clang_sanitizer SANITIZERS (as -fsanitize= takes them, e.g. address,undefined)
h2d_need_clang_sanitizer() {
  h2d_install_packages clang
  if ! echo 'int main() { return 0; }' | clang++ -x c++ "-fsanitize=$1" - -o /dev/null 2>/dev/null; then
    echo "h2dbench: clang++ cannot link -fsanitize=$1: install its sanitizer runtimes" \
      "(Debian/Ubuntu: libclang-rt-dev; Clang 14: libclang-common-14-dev)" >&2
    exit 1
  fi
}
