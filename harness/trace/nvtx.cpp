#include "harness/trace/nvtx.hpp"

#include <nvtx3/nvToolsExt.h>

#include <array>

#include "harness/trace/host_trace.hpp"

namespace h2d {
namespace {

constexpr std::array<NvtxCategory, 8> kCategories{
    NvtxCategory::bench_case, NvtxCategory::setup, NvtxCategory::collate, NvtxCategory::pin,
    NvtxCategory::stage,      NvtxCategory::copy,  NvtxCategory::compute, NvtxCategory::verify,
};

nvtxDomainHandle_t domain() {
  static const nvtxDomainHandle_t handle = [] {
    nvtxDomainHandle_t created = nvtxDomainCreateA("h2dbench");
    for (NvtxCategory category : kCategories) {
      nvtxDomainNameCategoryA(created, static_cast<std::uint32_t>(category),
                              std::string(to_string(category)).c_str());
    }
    return created;
  }();
  return handle;
}

}  // namespace

std::string_view to_string(NvtxCategory category) {
  switch (category) {
    case NvtxCategory::bench_case:
      return "case";
    case NvtxCategory::setup:
      return "setup";
    case NvtxCategory::collate:
      return "collate";
    case NvtxCategory::pin:
      return "pin";
    case NvtxCategory::stage:
      return "stage";
    case NvtxCategory::copy:
      return "copy";
    case NvtxCategory::compute:
      return "compute";
    case NvtxCategory::verify:
      return "verify";
  }
  return "unknown";
}

std::uint32_t nvtx_color(NvtxCategory category) {
  switch (category) {
    case NvtxCategory::bench_case:
      return 0xFF607D8B;  // slate
    case NvtxCategory::setup:
      return 0xFF9E9E9E;  // grey
    case NvtxCategory::collate:
      return 0xFFFF9800;  // orange
    case NvtxCategory::pin:
      return 0xFFE91E63;  // pink
    case NvtxCategory::stage:
      return 0xFF9C27B0;  // purple
    case NvtxCategory::copy:
      return 0xFF2196F3;  // blue
    case NvtxCategory::compute:
      return 0xFF4CAF50;  // green
    case NvtxCategory::verify:
      return 0xFFFFEB3B;  // yellow
  }
  return 0xFF000000;
}

NvtxRange::NvtxRange(NvtxCategory category, const std::string& name, std::uint64_t bytes) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.category = static_cast<std::uint32_t>(category);
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = nvtx_color(category);
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = name.c_str();
  if (bytes != 0) {
    attributes.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    attributes.payload.ullValue = bytes;
  }
  nvtxDomainRangePushEx(domain(), &attributes);
  host_trace_push(category, name, bytes);  // the built-in timeline of `run --trace`
}

NvtxRange::~NvtxRange() {
  host_trace_pop();
  nvtxDomainRangePop(domain());
}

void nvtx_initialize() {
  domain();
}

void nvtx_name_this_thread(const std::string& name) {
  const std::uint32_t thread = current_thread_id();
  nvtxNameOsThreadA(thread, name.c_str());
  host_trace_name_thread(thread, name);
}

}  // namespace h2d
