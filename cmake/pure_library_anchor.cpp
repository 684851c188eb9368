// An empty translation unit: the pure-library link checks (cmake/pure_library.cmake) need one
// source of their own; everything they link comes from the library they check.
