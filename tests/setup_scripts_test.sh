#!/usr/bin/env bash
# What scripts/common.sh and scripts/install-nvjpeg do on a fresh machine (issue 36), with stand-ins
# for nvcc, pip and apt-get so that nothing is installed or downloaded: the toolkit's nvJPEG found
# behind a wrapper nvcc, the wheel that exists for each CUDA major version, a failed pip remembered,
# and a second configure that changes no compile command. One PASS or FAIL line a check; exits 1
# on any failure.
# Usage: tests/setup_scripts_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# Nothing may reach the user's cache, or inherit the launcher scripts/test exported for its build.
unset CMAKE_CXX_COMPILER_LAUNCHER CMAKE_CUDA_COMPILER_LAUNCHER CCACHE_BASEDIR CCACHE_NOHASHDIR \
  H2D_NVJPEG_ROOT H2D_SYSTEM_LIB_DIRS H2D_VERBOSE
export XDG_CACHE_HOME=$t/cache
install_nvjpeg=$src/scripts/install-nvjpeg

failures=0
pass() { echo "PASS $1"; }
fail() {
  echo "FAIL $1: $2"
  failures=$((failures + 1))
}
# check NAME MESSAGE COMMAND...: PASS when COMMAND succeeds.
check() {
  local name=$1 message=$2
  shift 2
  if "$@"; then pass "$name"; else fail "$name" "$message"; fi
}
has() { grep -qF -- "$2" <<<"$1"; }
lacks() { ! grep -qF -- "$2" <<<"$1"; }
pip_calls() { if [ -f "$t/pip.log" ]; then wc -l <"$t/pip.log"; else echo 0; fi; }

# nvcc's stand-in: DIR VERSION [TOP LIBDIR] makes DIR/nvcc print the release, and under
# `-v --dryrun` the TOP and -L folders a real nvcc reports.
make_nvcc() {
  mkdir -p "$1"
  cat >"$1/nvcc" <<EOF
#!/bin/sh
case "\$*" in
  --version) echo "Cuda compilation tools, release $2, V$2.89" ;;
  *--dryrun*) [ -z "${3:-}" ] || printf '#\$ TOP=%s\n#\$ LIBRARIES=  "-L%s/stubs"\n' "${3:-}" "${4:-}" >&2 ;;
esac
EOF
  chmod +x "$1/nvcc"
}

# pip's stand-in, first on PATH as python3: records every install in pip.log; FAKE_PIP=ok
# unpacks the layout of the requested wheel (as the real wheels do), anything else fails as
# PyPI does for a wheel that does not exist.
mkdir -p "$t/pybin"
cat >"$t/pybin/python3" <<EOF
#!/usr/bin/env bash
set -euo pipefail
[ "\$*" = "-m pip --version" ] && { echo "pip 23.0"; exit 0; }
echo "\$*" >>"$t/pip.log"
target="" requirement=""
while [ \$# -gt 0 ]; do
  case "\$1" in --target) target=\$2; shift ;; -*) ;; *) requirement=\$1 ;; esac
  shift
done
echo "Looking in indexes: https://pypi.org/simple"
if [ "\${FAKE_PIP:-}" != ok ]; then
  echo "ERROR: No matching distribution found for \$requirement" >&2
  exit 1
fi
case "\$requirement" in
  nvidia-nvjpeg-cu11==11.*) dir=nvidia/nvjpeg major=11 ;;
  nvidia-nvjpeg-cu12==12.*) dir=nvidia/nvjpeg major=12 ;;
  nvidia-nvjpeg==13.*) dir=nvidia/cu13 major=13 ;;
  *) echo "ERROR: No matching distribution found for \$requirement" >&2; exit 1 ;;
esac
mkdir -p "\$target/\$dir/include" "\$target/\$dir/lib"
touch "\$target/\$dir/include/nvjpeg.h" "\$target/\$dir/lib/libnvjpeg.so.\$major"
EOF
chmod +x "$t/pybin/python3"

# --- install-nvjpeg behind a wrapper nvcc (Debian's /usr/bin/nvcc) ------------------------------
# A fake Debian root: the real nvcc under usr/lib/nvidia-cuda-toolkit, a wrapper script in
# usr/bin, and libnvjpeg.so in usr/lib/x86_64-linux-gnu, where readlink -f of nvcc never leads.
debian=$t/debian
toolkit=$debian/usr/lib/nvidia-cuda-toolkit
multiarch=$debian/usr/lib/x86_64-linux-gnu
make_nvcc "$toolkit/bin" 11.8 "$toolkit" "$multiarch"
mkdir -p "$debian/usr/bin" "$multiarch"
printf '#!/bin/sh\nexec %s/bin/nvcc "$@"\n' "$toolkit" >"$debian/usr/bin/nvcc"
chmod +x "$debian/usr/bin/nvcc"
touch "$multiarch/libnvjpeg.so.11.9.0.86"
ln -s libnvjpeg.so.11.9.0.86 "$multiarch/libnvjpeg.so.11"
ln -s libnvjpeg.so.11 "$multiarch/libnvjpeg.so"
rm -f "$t/pip.log"
status=0
out=$(PATH="$debian/usr/bin:$t/pybin:$PATH" H2D_SYSTEM_LIB_DIRS=$multiarch \
  H2D_NVJPEG_ROOT=$t/root-debian "$install_nvjpeg" 2>&1) || status=$?
check wrapper_nvcc_finds_system_libnvjpeg \
  "exit $status, pip called $(pip_calls) times: $out" \
  test "$status" -eq 0 -a "$(pip_calls)" -eq 0
check wrapper_nvcc_names_the_library "no $multiarch/libnvjpeg.so in: $out" \
  has "$out" "$multiarch/libnvjpeg.so"
# The runtime alone (libnvjpeg11 without its unversioned link) is no nvJPEG to link with.
rm "$multiarch/libnvjpeg.so"
status=0
out=$(PATH="$debian/usr/bin:$t/pybin:$PATH" H2D_SYSTEM_LIB_DIRS=$multiarch \
  H2D_NVJPEG_ROOT=$t/root-debian "$install_nvjpeg" 2>&1) || status=$?
check wrapper_nvcc_without_libnvjpeg_asks_for_cu11 \
  "exit $status, pip: $(cat "$t/pip.log" 2>/dev/null || echo none): $out" \
  grep -qs -- ' nvidia-nvjpeg-cu11==11\.\*$' "$t/pip.log"

# A toolkit outside the system folders behind a wrapper (a module system's, a container's):
# found where nvcc says its TOP is.
make_nvcc "$t/opt/cuda-12.4/bin" 12.4 "$t/opt/cuda-12.4" "$t/opt/cuda-12.4/lib64"
mkdir -p "$t/opt/cuda-12.4/lib64" "$t/wrapper"
touch "$t/opt/cuda-12.4/lib64/libnvjpeg.so"
printf '#!/bin/sh\nexec %s/bin/nvcc "$@"\n' "$t/opt/cuda-12.4" >"$t/wrapper/nvcc"
chmod +x "$t/wrapper/nvcc"
rm -f "$t/pip.log"
status=0
out=$(PATH="$t/wrapper:$t/pybin:$PATH" H2D_SYSTEM_LIB_DIRS='' H2D_NVJPEG_ROOT=$t/root-top \
  "$install_nvjpeg" 2>&1) || status=$?
check wrapper_nvcc_finds_toolkit_top "exit $status, pip called $(pip_calls) times: $out" \
  test "$status" -eq 0 -a "$(pip_calls)" -eq 0

# --- the wheel that exists for each major version ----------------------------------------------
for row in "11.8 nvidia-nvjpeg-cu11==11.* nvidia/nvjpeg" "12.4 nvidia-nvjpeg-cu12==12.* nvidia/nvjpeg" \
  "13.0 nvidia-nvjpeg==13.* nvidia/cu13"; do
  read -r version requirement layout <<<"$row"
  major=${version%%.*}
  make_nvcc "$t/nvcc-$version" "$version"
  # The old script read nvcc from PATH only: put it there too, so that it is asked the same.
  run=(env PATH="$t/nvcc-$version:$t/pybin:$PATH" H2D_SYSTEM_LIB_DIRS= H2D_NVJPEG_ROOT="$t/root-$version"
    "$install_nvjpeg" --nvcc "$t/nvcc-$version/nvcc")
  rm -f "$t/pip.log"
  out=$("${run[@]}" --print-wheel 2>&1) || true
  check "wheel_for_cuda_$major" "expected '$requirement $layout', got: $out" \
    test "$out" = "$requirement $layout"
  status=0
  out=$(FAKE_PIP=ok "${run[@]}" 2>&1) || status=$?
  check "installs_wheel_for_cuda_$major" \
    "exit $status, pip: $(cat "$t/pip.log" 2>/dev/null || echo none): $out" \
    test "$status" -eq 0 -a "$(pip_calls)" -eq 1 -a -e "$t/root-$version/$layout/lib/libnvjpeg.so.$major"
  check "pip_asked_for_cuda_$major" "pip: $(cat "$t/pip.log" 2>/dev/null || echo none)" \
    grep -qsF -- " $requirement" "$t/pip.log"
done

# --- a failed install is remembered: one line, no pip, until --retry ----------------------------
rm -f "$t/pip.log"
run=(env PATH="$t/pybin:$PATH" H2D_SYSTEM_LIB_DIRS= H2D_NVJPEG_ROOT="$t/root-failed" "$install_nvjpeg")
status=0
first=$("${run[@]}" --nvcc "$t/nvcc-11.8/nvcc" 2>&1) || status=$?
check failed_pip_fails "exit $status: $first" test "$status" -eq 1 -a "$(pip_calls)" -eq 1
check failed_pip_says_why "no pip ERROR line in: $first" \
  has "$first" "No matching distribution found for nvidia-nvjpeg-cu11==11.*"
check failed_pip_output_kept_for_verbose "pip's own output shown without --verbose: $first" \
  lacks "$first" "Looking in indexes"
status=0
second=$("${run[@]}" --nvcc "$t/nvcc-11.8/nvcc" 2>&1) || status=$?
check failed_pip_remembered \
  "exit $status, pip called $(pip_calls) times in all, $(wc -l <<<"$second") lines: $second" \
  test "$status" -eq 1 -a "$(pip_calls)" -eq 1 -a "$(wc -l <<<"$second")" -eq 1
"${run[@]}" --nvcc "$t/nvcc-12.4/nvcc" >/dev/null 2>&1 || true
check failed_pip_remembered_per_toolkit "CUDA 12.4 did not ask pip after 11.8 failed" \
  test "$(pip_calls)" -eq 2
status=0
verbose=$("${run[@]}" --nvcc "$t/nvcc-11.8/nvcc" --retry --verbose 2>&1) || status=$?
check retry_verbose_shows_pip "exit $status, pip called $(pip_calls) times: $verbose" \
  test "$status" -eq 1 -a "$(pip_calls)" -eq 3
check retry_verbose_shows_pip_output "no pip output in: $verbose" has "$verbose" "Looking in indexes"

# --- the scripts on a fresh machine: ccache, then nvJPEG, then a second run ----------------------
# PATH is a folder of links to everything on PATH except ccache; the stand-in install-deps
# "installs" ccache (a pass-through) into it, as apt-get does on a fresh machine. The build's
# nvcc (CUDA 11.8) is not PATH's (13.0): install-nvjpeg must ask for the build's wheel.
farm=$t/farm
mkdir -p "$farm"
IFS=: read -ra path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
  # A name already linked from an earlier folder stays: PATH's order.
  if [ -d "$dir" ]; then ln -s "$dir"/* "$farm"/ 2>/dev/null || true; fi
done
rm -f "$farm/ccache"
ln -sf "$t/pybin/python3" "$farm/python3"
make_nvcc "$t/nvcc-path" 13.0
ln -sf "$t/nvcc-path/nvcc" "$farm/nvcc"
mkdir -p "$t/shim"
printf '#!/bin/sh\nexec "$@"\n' >"$t/shim/ccache"
chmod +x "$t/shim/ccache"

project=$t/project
mkdir -p "$project/scripts"
cp "$src/scripts/common.sh" "$src/scripts/install-nvjpeg" "$project/scripts/"
printf '#!/bin/sh\nln -sf %s %s\n' "$t/shim/ccache" "$farm/ccache" >"$project/scripts/install-deps"
chmod +x "$project/scripts/install-deps"
echo 'int p() { return 1; }' >"$project/p.cpp"
# The nvJPEG part of the top CMakeLists.txt, reduced to its outcome: the wheel when it is there.
cat >"$project/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.20)
project(p CXX)
add_library(p STATIC p.cpp)
set(CMAKE_CUDA_COMPILER "$t/nvcc-11.8/nvcc" CACHE FILEPATH "")
set(H2D_NVJPEG_ROOT "\$ENV{XDG_CACHE_HOME}/h2dbench/nvjpeg" CACHE PATH "")
if(EXISTS "\${H2D_NVJPEG_ROOT}/nvidia/nvjpeg/lib/libnvjpeg.so.11")
  message(STATUS "nvJPEG: from the wheel under H2D_NVJPEG_ROOT")
  file(WRITE \${CMAKE_BINARY_DIR}/nvjpeg-status.txt "wheel \${H2D_NVJPEG_ROOT}\\n")
else()
  message(STATUS "nvJPEG: none, GPU-decode cases will be skipped: no wheel")
  file(WRITE \${CMAKE_BINARY_DIR}/nvjpeg-status.txt "none no wheel\\n")
endif()
EOF
cat >"$project/CMakePresets.json" <<'EOF'
{
  "version": 3,
  "configurePresets": [{ "name": "t", "generator": "Ninja", "binaryDir": "${sourceDir}/build/t" }],
  "buildPresets": [{ "name": "t", "configurePreset": "t" }]
}
EOF
# One run of a script: source common.sh, prepare, build (as scripts/test does). The system's
# library folders are the test's (empty unless a scenario fills them), never this machine's:
# a Debian toolkit's real libnvjpeg.so must not change what the test sees.
mkdir -p "$t/syslib"
script_run() {
  (cd "${run_project:-$project}" && env PATH="$farm" FAKE_PIP=ok H2D_SYSTEM_LIB_DIRS="$t/syslib" \
    bash -c 'set -euo pipefail; source scripts/common.sh; h2d_prepare; h2d_build t' 2>&1)
}
rm -f "$t/pip.log"
status=0
first=$(script_run) || status=$?
check first_run_builds "exit $status: $first" test "$status" -eq 0
# The commands ninja runs (the launcher is in CMakeFiles/rules.ninja, not build.ninja).
commands() { (cd "$project/build/t" && PATH="$farm" ninja -t commands); }
commands >"$t/commands.first"
check first_configure_uses_ccache "no ccache in the first configure's commands: $(cat "$t/commands.first")" \
  grep -q '^ccache ' "$t/commands.first"
check first_run_installs_the_builds_wheel "pip: $(cat "$t/pip.log" 2>/dev/null || echo none)" \
  grep -qs -- ' nvidia-nvjpeg-cu11==11\.\*$' "$t/pip.log"
check first_run_configures_again_once "$first" test "$(grep -c 'configuring build/t again' <<<"$first")" -eq 1
check first_run_says_the_wheel "$first" test "$(grep -c '^h2dbench: nvJPEG: from the wheel' <<<"$first")" -eq 1
status=0
second=$(script_run) || status=$?
check second_run_builds "exit $status: $second" test "$status" -eq 0
commands >"$t/commands.second"
check second_configure_changes_no_compile_command \
  "the commands changed: $(diff "$t/commands.first" "$t/commands.second" | head -5)" \
  cmp -s "$t/commands.first" "$t/commands.second"
check second_run_installs_nothing "pip called $(pip_calls) times; $second" \
  test "$(pip_calls)" -eq 1 -a "$(grep -c 'again' <<<"$second")" -eq 0
check second_run_says_nvjpeg_once "$second" test "$(grep -c '^h2dbench: nvJPEG:' <<<"$second")" -eq 1
# Scripts that only source common.sh (scripts/ci/*) still get the launcher where ccache is.
launcher=$(env PATH="$farm" bash -c "source '$project/scripts/common.sh'; echo \"\${CMAKE_CXX_COMPILER_LAUNCHER:-}\"")
check sourcing_alone_sets_launcher "launcher '$launcher'" test "$launcher" = ccache

# A libnvjpeg that the system's folders hold but the configure did not take (CUDA 12's beside the
# build's 11.8): one line naming it and why, then the wheel; never "has it" followed by "none".
cp -r "$project" "$t/project-syslib"
rm -rf "$t/project-syslib/build"
touch "$t/syslib/libnvjpeg.so.12.3.0"
ln -s libnvjpeg.so.12.3.0 "$t/syslib/libnvjpeg.so"
rm -f "$t/pip.log"
status=0
out=$(run_project=$t/project-syslib XDG_CACHE_HOME=$t/cache-syslib script_run) || status=$?
check system_library_not_taken_builds "exit $status: $out" test "$status" -eq 0
check system_library_not_taken_says_why "$out" \
  has "$out" "nvJPEG: $t/syslib/libnvjpeg.so is on this machine, but the build did not take it (it is CUDA 12's"
check system_library_not_taken_never_says_has_it "$out" lacks "$out" "has it"
check system_library_not_taken_installs_the_wheel "pip: $(cat "$t/pip.log" 2>/dev/null || echo none)" \
  grep -qs -- ' nvidia-nvjpeg-cu11==11\.\*$' "$t/pip.log"
check system_library_not_taken_ends_with_the_wheel "$out" \
  test "$(grep -c '^h2dbench: nvJPEG: from the wheel' <<<"$out")" -eq 1 -a \
  "$(grep -c '^h2dbench: nvJPEG: none' <<<"$out")" -eq 0

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
