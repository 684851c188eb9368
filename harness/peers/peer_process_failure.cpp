#include "harness/peers/peer_process_failure.hpp"

#include <cctype>

#include "harness/core/text_excerpt.hpp"

namespace h2d {
namespace {

// The last non-blank line a failing peer printed, where it usually says why; kept short.
std::string last_line(const std::string& output) {
  constexpr std::size_t kMost = 160;
  std::size_t end = output.size();
  while (end > 0) {
    while (end > 0 && std::isspace(static_cast<unsigned char>(output[end - 1])) != 0) {
      --end;
    }
    const std::size_t start = output.rfind('\n', end == 0 ? 0 : end - 1);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    if (end > from) {
      return one_line_excerpt(std::string_view(output).substr(from, end - from), kMost);
    }
    end = from;
    if (end == 0) {
      break;
    }
  }
  return {};
}

}  // namespace

std::optional<std::string> process_failure(const ProcessOutcome& outcome,
                                           std::chrono::milliseconds limit) {
  if (outcome.ending == ProcessEnding::exited && outcome.exit_code == 0) {
    return std::nullopt;
  }
  std::string reason = describe_ending(outcome, limit);
  if (outcome.ending != ProcessEnding::could_not_start) {
    if (const std::string said = last_line(outcome.output); !said.empty()) {
      reason += ": " + said;
    }
  }
  return reason;
}

}  // namespace h2d
