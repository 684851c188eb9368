#pragma once

#include <gtest/gtest.h>

#include "harness/cuda/device.hpp"

// First line of every GPU test: skips, with the driver's reason, where no GPU is usable.
#define H2D_REQUIRE_GPU()                                                                \
  do {                                                                                   \
    if (!::h2d::discover_devices().usable()) {                                           \
      GTEST_SKIP() << "no usable GPU: " << ::h2d::discover_devices().unavailable_reason; \
    }                                                                                    \
  } while (false)
