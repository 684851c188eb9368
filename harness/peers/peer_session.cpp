#include "harness/peers/peer_session.hpp"
#include "harness/core/stop_signal.hpp"

#include <fmt/format.h>

#include "harness/core/byte_size.hpp"
#include "harness/core/text_wrap.hpp"
#include "harness/peers/bounded_process.hpp"
#include "harness/peers/nvbandwidth_peer.hpp"
#include "harness/peers/pytorch_peer.hpp"
#include "harness/report/peer_figures.hpp"

namespace h2d {
namespace {

using std::chrono::milliseconds;

void say(const std::string& line) {
  fmt::print("{}", wrap_line("h2dbench: peers: " + line));
}

std::string sizes_text(const std::vector<std::uint64_t>& sizes) {
  std::string text;
  for (const std::uint64_t bytes : sizes) {
    text += (text.empty() ? "" : ", ") + format_bytes(static_cast<std::size_t>(bytes));
  }
  return text;
}

double seconds(milliseconds span) {
  return std::chrono::duration<double>(span).count();
}

// The peers' calls, one after another, each given what is left of their one bound.
class PeerClock {
 public:
  explicit PeerClock(milliseconds limit)
      : limit_(limit), started_(std::chrono::steady_clock::now()) {}
  milliseconds left() const {
    const auto spent =
        std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started_);
    return std::max(milliseconds(0), limit_ - spent);
  }

 private:
  milliseconds limit_;
  std::chrono::steady_clock::time_point started_;
};

void report_run(const PeerRun& run) {
  if (run.status != "measured") {
    say(fmt::format("{} {}: {}", run.peer, run.status, run.reason));
  }
}

void run_nvbandwidth(const std::string& program, const PeerRequest& request, const PeerClock& clock,
                     std::vector<PeerRun>& runs) {
  for (const std::uint64_t bytes : request.sizes) {
    const auto argv = nvbandwidth_command(program, bytes);
    const milliseconds left = clock.left();
    if (left.count() == 0 || stop_requested()) {
      runs.push_back({"nvbandwidth",
                      command_text(argv),
                      "skipped",
                      stop_requested()
                          ? std::string("h2dbench was interrupted")
                          : fmt::format("its {:g} s bound was spent", seconds(request.limit)),
                      0,
                      {}});
      report_run(runs.back());
      continue;
    }
    runs.push_back(read_nvbandwidth_run(argv, bytes,
                                        run_bounded(argv, left, peer_environment(request)), left));
    report_run(runs.back());
  }
}

}  // namespace

std::vector<std::string> peer_environment(const PeerRequest& request) {
  if (!request.device) {
    return {};
  }
  return {fmt::format("CUDA_VISIBLE_DEVICES={}", *request.device)};
}

nlohmann::json run_peers(const PeerRequest& request) {
  std::vector<PeerRun> runs;
  const PeerClock clock(request.limit);  // one bound for all of them: a run's peers cost at most it
  const std::string nvbandwidth = find_program(request.nvbandwidth.value_or("nvbandwidth"));
  if (nvbandwidth.empty()) {
    const std::string why =
        request.nvbandwidth
            ? fmt::format("--nvbandwidth '{}' is no executable file", *request.nvbandwidth)
            : std::string("nvbandwidth not found on PATH (--nvbandwidth PATH)");
    runs.push_back({"nvbandwidth", "", "skipped", why, 0, {}});
    report_run(runs.back());
  } else if (request.sizes.empty()) {
    runs.push_back({"nvbandwidth",
                    nvbandwidth,
                    "skipped",
                    "no pinned async h2d/memory case of a whole MiB measured to stand beside",
                    0,
                    {}});
    report_run(runs.back());
  } else {
    say(fmt::format("nvbandwidth ({}) at {}: {}, at most {:g} s", nvbandwidth,
                    sizes_text(request.sizes), fmt::join(nvbandwidth_tests(), " "),
                    seconds(request.limit)));
    run_nvbandwidth(nvbandwidth, request, clock, runs);
  }
  PeerRequest rest = request;
  rest.limit = clock.left();
  if (rest.limit.count() == 0 || stop_requested()) {
    runs.push_back({"pytorch",
                    "",
                    "skipped",
                    stop_requested()
                        ? std::string("h2dbench was interrupted")
                        : fmt::format("the peers' {:g} s bound was spent", seconds(request.limit)),
                    0,
                    {}});
    report_run(runs.back());
  } else {
    run_pytorch_peer(rest, runs);
  }
  return peers_to_json(runs, seconds(request.limit));
}

}  // namespace h2d
