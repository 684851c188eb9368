// Runtime function names and CUPTI callback ids translate both ways: the toolkit's ids for the
// functions h2dbench calls, ids of the sim's own for any other.

#include <cupti.h>
#include <gtest/gtest.h>

#include <string>

#include "sim/cupti/callback_names.hpp"

namespace {

using h2d::sim::cupti::runtime_callback_id;
using h2d::sim::cupti::runtime_callback_name;

TEST(SimCuptiCallbackNames, KnownFunctionsGetTheToolkitsIds) {
  EXPECT_EQ(runtime_callback_id("cudaMemcpyAsync"), CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020);
  EXPECT_EQ(runtime_callback_id("cudaLaunchKernel"),
            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  EXPECT_STREQ(runtime_callback_name(CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020),
               "cudaEventQuery_v3020");
}

TEST(SimCuptiCallbackNames, OtherFunctionsGetStableIdsOfTheirOwn) {
  const std::uint32_t id = runtime_callback_id("cudaSomethingNew");
  EXPECT_GE(id, static_cast<std::uint32_t>(CUPTI_RUNTIME_TRACE_CBID_SIZE));
  EXPECT_EQ(runtime_callback_id("cudaSomethingNew"), id);
  EXPECT_NE(runtime_callback_id("cudaSomethingElse"), id);
  EXPECT_EQ(std::string(runtime_callback_name(id)), "cudaSomethingNew");
  EXPECT_EQ(runtime_callback_name(id + 1000), nullptr);
}

}  // namespace
