#!/usr/bin/env bash
# The toolkits a Pascal rig (GTX 1080 Ti, sm_61) needs, since CUDA 13 builds for sm_75 and newer
# only: compiles with each row of the matrix below, warnings as errors (CUDA 13 for sm_90 is
# scripts/test's build). Compile-only: nothing here has a GPU to run on. Toolkits come from
# scripts/install-old-cuda (a cache outside the build, reused); builds are build/cuda-VERSION.
# Fails on any compile error or warning, and when a build picked up a header or library of the
# machine's own CUDA 13 instead of the old toolkit's.
#
# Lean by default, for CI's time budget: it compiles only the objects whose code depends on the
# toolkit (every .cu and every source that includes a CUDA, CUPTI or NVTX header: ~60 of ~240),
# read off the CUDA 13 build's own dependency records (ninja -t deps of build/ci, which
# scripts/test has just built in .ci/run). The pure libraries do not see the toolkit, and nothing
# is linked. --full (or no build/ci) builds and links h2dbench and h2d_tests whole instead:
# 26 min for both rows, against 5 min lean (2 cores, empty build folders and ccache, toolkits
# cached; an empty toolkit cache adds the download: 1.5 min for 11.8).
#   bash scripts/ci/old-toolkits.sh [--full] [VERSION...]   (default: every row)
set -euo pipefail
source "$(dirname "$0")/../common.sh"
cd "$h2d_root"
check_started=$SECONDS

# toolkit  architectures  host compiler (the newest the toolkit accepts that Debian has)
matrix=(
  "11.8 61 g++-11"
  "12.4 61;90 g++-12"
)

full=false
if [ "${1:-}" = --full ]; then
  full=true
  shift
fi
# The objects the CUDA 13 build compiled against a header of its toolkit.
reference=build/$(h2d_preset)
if ! $full && [ ! -f "$reference/.ninja_deps" ]; then
  echo "old-toolkits.sh: no $reference build to read the toolkit's objects off; building everything"
  full=true
fi
if ! $full; then
  mapfile -t objects < <(ninja -C "$reference" -t deps |
    awk '/#deps/ { object = $1; sub(":$", "", object) } /^ +\/usr\/local\/cuda/ { print object }' | sort -u)
  if [ ${#objects[@]} -eq 0 ]; then
    echo "old-toolkits.sh: $reference has no object that includes a CUDA header; is it a CUDA build?" >&2
    exit 1
  fi
fi

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
  # Debian's old toolkits carry nvjpeg.h without libnvjpeg: a compile-only check still compiles
  # the nvJPEG layer against that toolkit's header (the library is named but never linked).
  nvjpeg=()
  if ! $full && [ -f "$root/include/nvjpeg.h" ]; then
    nvjpeg=(-DH2D_NVJPEG_INCLUDE_DIR="$root/include" -DH2D_NVJPEG_LIBRARY="$root/lib/libnvjpeg.so")
  fi
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -Wno-dev "${nvjpeg[@]}" \
    -DCMAKE_CUDA_COMPILER="$root/bin/nvcc" -DCUDAToolkit_ROOT="$root" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CUDA_HOST_COMPILER="$cxx" \
    -DH2D_CUDA_ARCHITECTURES="$archs" -DH2D_WERROR=ON \
    ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache} >/dev/null
  if $full; then
    what="h2dbench and h2d_tests"
    cmake --build "$build" --target h2dbench h2d_tests
    deps=$(ninja -C "$build" -t deps)
  else
    # ninja itself would first link h2dbench (h2d_tests' objects wait for it, add_dependencies),
    # so the objects' own compile commands run here, from the build folder as ninja runs them.
    what="the ${#objects[@]} objects that depend on the toolkit"
    echo "old-toolkits.sh: compiling $what"
    ninja -C "$build" h2d_version >/dev/null
    (cd "$build" && printf '%s\n' "${objects[@]}" | xargs -d '\n' dirname | sort -u | xargs -d '\n' mkdir -p)
    ninja -C "$build" -t commands -s "${objects[@]}" >"$build/toolkit-objects.commands"
    (cd "$build" && xargs -d '\n' -P "$(nproc)" -I{} bash -c {} <toolkit-objects.commands) ||
      { echo "old-toolkits.sh: CUDA $version: an object failed to compile (above)" >&2; exit 1; }
    deps=$(cd "$build" && printf '%s.d\n' "${objects[@]}" | xargs -d '\n' cat | tr -s '\\ ' '\n' | sed 's/^/    /')
  fi
  # Headers missing from the old toolkit would silently come from /usr/local/include (CUDA 13's).
  # Evidence both ways: the old toolkit's headers were used, and no header under /usr/local.
  if ! grep -qx " *$root/include/cuda_runtime_api.h" <<<"$deps"; then
    echo "old-toolkits.sh: no object of the CUDA $version build included $root/include" >&2
    exit 1
  fi
  leaks=$(grep -E '^ +/usr/local/' <<<"$deps" | sort -u || true)
  leaks+=$(grep -ohE '/usr/local/(cuda|lib)[^ ]*' "$build/build.ninja" | sort -u || true)
  if [ -n "$leaks" ]; then
    echo "old-toolkits.sh: the CUDA $version build used the machine's own CUDA:" >&2
    echo "$leaks" | head -20 >&2
    exit 1
  fi
  echo "old-toolkits.sh: CUDA $version (sm ${archs//;/, sm }, $cxx) compiled $what with no warnings in $((SECONDS - started)) s"
done
echo "old-toolkits.sh: done in $((SECONDS - check_started)) s"
