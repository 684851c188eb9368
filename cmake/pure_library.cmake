# Pure libraries (core, trace, host, topology, report, cli, pipeline) may not call the CUDA
# runtime. CUDA's headers are on this kind of machine's default include path, so the rule is
# enforced where it cannot be dodged: at link time. h2d_check_pure(lib) links the whole of `lib`
# into a shared object with --no-undefined and with nothing but the libraries `lib` declares,
# so a CUDA call added to a pure library is an undefined reference and the build fails.
function(h2d_check_pure lib)
  set(check ${lib}_purity)
  add_library(${check} SHARED ${PROJECT_SOURCE_DIR}/cmake/pure_library_anchor.cpp)
  target_link_libraries(${check} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${lib}>")
  target_link_options(${check} PRIVATE -Wl,--no-undefined)
  set_target_properties(${check} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/purity)
  if(ARGN)
    set_target_properties(${check} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
endfunction()
