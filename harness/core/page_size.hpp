#pragma once

#include <cstddef>

namespace h2d {

// The page size shared memory is mapped in: the machine's (4 KiB on x86-64, often 64 KiB on
// aarch64), or, where the environment variable kTestPageSizeVariable is set, that larger size, so
// a test on a 4 KiB machine can lay batches out as a 64 KiB one does (its worker processes read the
// same variable). Throws std::invalid_argument when the variable is not a power of two that is a
// multiple of the machine's page size.
std::size_t memory_page_size();

inline constexpr char kTestPageSizeVariable[] = "H2D_TEST_PAGE_SIZE";

// `bytes` rounded up to a whole number of memory_page_size() pages.
std::size_t page_rounded(std::size_t bytes);

}  // namespace h2d
