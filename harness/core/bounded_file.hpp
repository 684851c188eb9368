#pragma once

#include <cstddef>
#include <string>

namespace h2d {

// Reads a whole input file that came from elsewhere (a report, an hwloc XML topology) within a
// size cap. The file's type and size are checked with stat() before a byte is read: a folder, a
// device (/dev/zero never ends), a FIFO or socket (a writer that never closes it hangs the reader)
// and a file over the cap are refused without reading them; a file that grows while it is read
// (or a /proc file that states size 0) is cut off at the cap. Throws UsageError as
// "<what> '<path>': <problem>" with the cap in MiB when it is the problem.
std::string read_bounded_file(const std::string& path, const std::string& what,
                              std::size_t max_bytes);

}  // namespace h2d
