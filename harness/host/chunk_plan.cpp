#include "harness/host/chunk_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "harness/core/byte_size.hpp"
#include "harness/core/case_skipped.hpp"
#include "harness/host/thread_team.hpp"

namespace h2d {

std::vector<Chunk> plan_chunks(std::size_t total, std::size_t chunks, std::size_t streams,
                               std::size_t alignment) {
  if (total == 0 || chunks == 0 || streams == 0 || alignment == 0) {
    throw std::invalid_argument("plan_chunks needs non-zero bytes, chunks, streams and alignment");
  }
  // Split whole aligned units, so every chunk but the last starts and ends on the alignment.
  const std::size_t units = (total + alignment - 1) / alignment;
  const std::size_t count = std::min(chunks, units);
  std::vector<Chunk> plan;
  plan.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto [first_unit, end_unit] = split_range(units, count, i);
    Chunk chunk;
    chunk.index = i;
    chunk.offset = first_unit * alignment;
    chunk.bytes = std::min(end_unit * alignment, total) - chunk.offset;
    chunk.stream = i % streams;
    plan.push_back(chunk);
  }
  return plan;
}

std::vector<Chunk> plan_scatter(std::size_t batch, std::size_t parts) {
  std::vector<Chunk> plan = plan_chunks(batch, parts, parts);
  if (plan.size() != parts) {
    throw CaseSkipped(fmt::format("a batch of {} has fewer 4 KiB units than the {} GPUs",
                                  format_bytes(batch), parts));
  }
  return plan;
}

}  // namespace h2d
