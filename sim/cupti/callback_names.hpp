#pragma once

// CUPTI names runtime calls by callback id (cupti_runtime_cbid.h); the sim's activity log names
// them by function. These translate, both ways, with the toolkit's own ids for every runtime
// function h2dbench calls, so a trace reads "cudaMemcpyAsync_v3020" as real CUPTI writes it.

#include <cstdint>
#include <string_view>

namespace h2d::sim::cupti {

// The toolkit's id of runtime function `name`; a function outside the table gets an id of its
// own past CUPTI_RUNTIME_TRACE_CBID_SIZE (the same one each time), whose name has no version.
std::uint32_t runtime_callback_id(std::string_view name);

// The name CUPTI gives callback `id` ("cudaMemcpyAsync_v3020"); nullptr for an unknown id.
const char* runtime_callback_name(std::uint32_t id);

}  // namespace h2d::sim::cupti
