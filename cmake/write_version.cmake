# Writes the version header with the current git commit. Runs at every build (not only at
# configure time), and rewrites the header only when the commit changed, so reports never carry a
# stale sha and unchanged builds stay incremental.
# Inputs: SOURCE_DIR, OUTPUT, VERSION.
set(sha "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
    WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE head RESULT_VARIABLE rc
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    set(sha "${head}")
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
      WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE dirty ERROR_QUIET)
    if(NOT dirty STREQUAL "")
      set(sha "${sha}-dirty")
    endif()
  endif()
endif()
set(content "#pragma once

namespace h2d {

// Written by cmake/write_version.cmake at build time.
inline constexpr const char* kVersion = \"${VERSION}\";
inline constexpr const char* kGitSha = \"${sha}\";

}  // namespace h2d
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()
