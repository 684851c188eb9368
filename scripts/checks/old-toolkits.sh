#!/usr/bin/env bash
# The toolkits a Pascal rig (GTX 1080 Ti, sm_61) needs, since CUDA 13 builds for sm_75 and newer
# only: compiles h2dbench and h2d_tests, warnings as errors, with each row of the matrix below
# (CUDA 13 for sm_90 is scripts/test's build). Compile-only: nothing here has a GPU to run on.
# Toolkits come from scripts/install-old-cuda (a cache outside the build, reused); the builds
# are build/cuda-VERSION, with ccache. Fails on any compile error or warning, and when a build
# picked up a header or library of the machine's own CUDA 13 instead of the old toolkit's.
#   bash scripts/checks/old-toolkits.sh [VERSION...]   (default: every row)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."

# toolkit  architectures  host compiler (the newest the toolkit accepts that Debian has)
matrix=(
  "11.8 61 g++-11"
  "12.4 61;90 g++-12"
)

if [ $# -gt 0 ]; then
  wanted=" $* "
  for i in "${!matrix[@]}"; do
    [[ "$wanted" == *" ${matrix[i]%% *} "* ]] || unset 'matrix[i]'
  done
  if [ ${#matrix[@]} -eq 0 ]; then
    echo "old-toolkits.sh: no toolkit '$*' in the matrix; valid: 11.8, 12.4" >&2
    exit 2
  fi
fi

# The machine's CUDA 13 must not leak in: neither its nvcc on PATH nor its stub libraries.
unset CUDA_HOME CUDA_PATH CUDAToolkit_ROOT CPATH LIBRARY_PATH
PATH=$(tr ':' '\n' <<<"$PATH" | grep -v cuda | paste -sd:)
export PATH

for row in "${matrix[@]}"; do
  read -r version archs cxx <<<"$row"
  if ! command -v "$cxx" >/dev/null; then
    echo "old-toolkits.sh: installing $cxx (the host compiler CUDA $version accepts)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$cxx" >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$cxx" >/dev/null; }
  fi
done

for row in "${matrix[@]}"; do
  read -r version archs cxx <<<"$row"
  started=$SECONDS
  root=$(scripts/install-old-cuda "$version")
  build=build/cuda-$version
  echo "=== CUDA $version, sm ${archs//;/ sm }, $cxx: $("$root/bin/nvcc" --version | tail -1)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -Wno-dev \
    -DCMAKE_CUDA_COMPILER="$root/bin/nvcc" -DCUDAToolkit_ROOT="$root" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CUDA_HOST_COMPILER="$cxx" \
    -DH2D_CUDA_ARCHITECTURES="$archs" -DH2D_WERROR=ON \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache >/dev/null
  cmake --build "$build" --target h2dbench h2d_tests
  # Headers missing from the old toolkit would silently come from /usr/local/include (CUDA 13's).
  leaks=$(ninja -C "$build" -t deps | grep -E '^ +/usr/local/' | sort -u || true)
  leaks+=$(grep -ohE '/usr/local/(cuda|lib)[^ ]*' "$build/build.ninja" | sort -u || true)
  if [ -n "$leaks" ]; then
    echo "old-toolkits.sh: the CUDA $version build used the machine's own CUDA:" >&2
    echo "$leaks" | head -20 >&2
    exit 1
  fi
  echo "old-toolkits.sh: CUDA $version (sm ${archs//;/, sm }, $cxx) compiled with no warnings in $((SECONDS - started)) s"
done
