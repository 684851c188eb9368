// The sim's fibers under AddressSanitizer: what the asan preset (scripts/ci/asan.sh) found.

#include "sim/device/fiber.hpp"
#include "sim/device/sanitizer_build.hpp"

#include <gtest/gtest.h>

#include <cstddef>

#if defined(H2D_ADDRESS_SANITIZER)
#include <sanitizer/asan_interface.h>
#endif

namespace h2d::sim {
namespace {

#if defined(H2D_ADDRESS_SANITIZER)
[[noreturn]] void never_started(void*) {
  ADD_FAILURE() << "the fiber was never switched to";
  for (;;) {
  }
}
#endif

// Lanes end parked inside their frames, whose redzones stayed poisoned after the stack was
// unmapped: a lane stack later mapped at the same addresses (a new stream thread's) inherited
// them, and ASan reported a stack-buffer-overflow in normalize_kernel, which had none.
TEST(SimFiber, AStackStartsAndEndsWithoutPoison) {
#if !defined(H2D_ADDRESS_SANITIZER)
  GTEST_SKIP() << "needs AddressSanitizer (the asan preset)";
#else
  constexpr std::size_t kBytes = 64 << 10;
  const void* bottom = nullptr;
  {
    Fiber fiber(kBytes, &never_started, nullptr);
    bottom = fiber.context().stack_bottom;
    EXPECT_EQ(__asan_region_is_poisoned(const_cast<void*>(bottom), kBytes), nullptr);
    ASAN_POISON_MEMORY_REGION(bottom, kBytes);  // the redzones of frames left parked
  }
  EXPECT_EQ(__asan_region_is_poisoned(const_cast<void*>(bottom), kBytes), nullptr)
      << "the stack's poison outlived it";
  Fiber next(kBytes, &never_started, nullptr);  // most likely at the same addresses
  EXPECT_EQ(__asan_region_is_poisoned(const_cast<void*>(next.context().stack_bottom), kBytes),
            nullptr);
#endif
}

}  // namespace
}  // namespace h2d::sim
