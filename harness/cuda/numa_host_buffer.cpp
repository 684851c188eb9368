#include "harness/cuda/numa_host_buffer.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <hwloc.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_skipped.hpp"
#include "harness/cuda/cuda_error.hpp"
#include "harness/topology/hwloc_topology.hpp"

namespace h2d {
namespace {

struct BitmapFree {
  void operator()(hwloc_bitmap_t bitmap) const { hwloc_bitmap_free(bitmap); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapFree>;

std::string bitmap_list(hwloc_const_bitmap_t bitmap) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bitmap) < 0 || text == nullptr) {
    return "?";
  }
  std::string list(text);
  std::free(text);
  return list;
}

}  // namespace

std::string numa_placement_unavailable(int numa_node) {
  const HwlocTopology& hwloc = system_hwloc();
  if (!hwloc.this_system()) {
    return fmt::format(
        "placing memory on a NUMA node needs this machine's topology, and HWLOC_XMLFILE names "
        "another ({})",
        hwloc.source());
  }
  if (numa_node < 0) {
    return "the GPU's NUMA node is not known here";
  }
  if (hwloc_get_numanode_obj_by_os_index(hwloc.get(), static_cast<unsigned>(numa_node)) ==
      nullptr) {
    return fmt::format("this machine has no NUMA node {}", numa_node);
  }
  const hwloc_topology_support* support = hwloc_topology_get_support(hwloc.get());
  if (support == nullptr || support->membind == nullptr || !support->membind->alloc_membind ||
      !support->membind->bind_membind) {
    return "this system cannot bind memory to NUMA nodes (hwloc reports no memory binding)";
  }
  return {};
}

NumaHostBuffer::NumaHostBuffer(std::size_t bytes, int numa_node) : bytes_(bytes), node_(numa_node) {
  if (bytes == 0) {
    throw std::invalid_argument("a host buffer needs at least one byte");
  }
  if (const std::string why = numa_placement_unavailable(numa_node); !why.empty()) {
    throw CaseSkipped(why);
  }
  hwloc_topology_t topology = system_hwloc().get();
  hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(topology, static_cast<unsigned>(numa_node));
  reservation_ =
      pinned_budget().reserve(bytes, fmt::format("a pinned buffer on NUMA node {}", numa_node));
  // Strict: without it hwloc hands back unbound memory when the binding fails (mbind refused by a
  // container's seccomp profile, a node outside this process's allowed set), and where the
  // kernel also will not say where pages are (move_pages refused too) the check below could not
  // catch it: a "remote" case would measure local memory.
  void* pointer = hwloc_alloc_membind(topology, bytes, node->nodeset, HWLOC_MEMBIND_BIND,
                                      HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
  if (pointer == nullptr) {
    throw CaseSkipped(fmt::format("could not allocate {} bound to NUMA node {}: {}",
                                  format_bytes(bytes), numa_node, std::strerror(errno)));
  }
  data_ = static_cast<std::byte*>(pointer);
  std::memset(data_, 0, bytes_);  // every page faults in now, on the bound node
  // Where the kernel can say where the pages are, make sure: a node out of memory could have
  // sent them elsewhere, and the case would measure the wrong placement.
  Bitmap where(hwloc_bitmap_alloc());
  if (where &&
      hwloc_get_area_memlocation(topology, data_, bytes_, where.get(), HWLOC_MEMBIND_BYNODESET) ==
          0 &&
      !hwloc_bitmap_iszero(where.get()) && !hwloc_bitmap_isequal(where.get(), node->nodeset)) {
    const std::string nodes = bitmap_list(where.get());
    release();
    throw CaseSkipped(fmt::format("{} bound to NUMA node {} landed on node(s) {}",
                                  format_bytes(bytes), numa_node, nodes));
  }
  const cudaError_t status = cudaHostRegister(data_, bytes_, cudaHostRegisterPortable);
  if (status != cudaSuccess) {
    release();
    detail::throw_cuda_error(status, "cudaHostRegister(data_, bytes_, cudaHostRegisterPortable)",
                             __FILE__, __LINE__);
  }
  registered_ = true;
}

NumaHostBuffer::NumaHostBuffer(NumaHostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      node_(other.node_),
      registered_(std::exchange(other.registered_, false)),
      reservation_(std::move(other.reservation_)) {}

NumaHostBuffer& NumaHostBuffer::operator=(NumaHostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    node_ = other.node_;
    registered_ = std::exchange(other.registered_, false);
    reservation_ = std::move(other.reservation_);
  }
  return *this;
}

NumaHostBuffer::~NumaHostBuffer() {
  release();
}

void NumaHostBuffer::release() noexcept {
  if (data_ != nullptr) {
    if (registered_) {
      cudaHostUnregister(data_);  // a destructor cannot report its error
    }
    hwloc_free(system_hwloc().get(), data_, bytes_);
  }
  data_ = nullptr;
  bytes_ = 0;
  registered_ = false;
  reservation_ = PinnedReservation();
}

}  // namespace h2d
