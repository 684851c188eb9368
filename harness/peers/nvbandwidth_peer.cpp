#include "harness/peers/nvbandwidth_peer.hpp"

#include <fmt/format.h>

#include <map>

#include "harness/peers/nvbandwidth_output.hpp"
#include "harness/peers/peer_pairing.hpp"
#include "harness/peers/peer_process_failure.hpp"

namespace h2d {

const std::vector<std::string>& nvbandwidth_tests() {
  static const std::vector<std::string> tests = {"host_to_device_memcpy_ce",
                                                 "device_to_host_memcpy_ce",
                                                 "host_to_device_bidirectional_memcpy_ce",
                                                 "device_to_host_bidirectional_memcpy_ce",
                                                 "host_to_device_memcpy_sm",
                                                 "device_to_host_memcpy_sm"};
  return tests;
}

std::vector<std::string> nvbandwidth_command(const std::string& program, std::uint64_t bytes) {
  std::vector<std::string> argv = {program, "-b", std::to_string(bytes >> 20), "-t"};
  argv.insert(argv.end(), nvbandwidth_tests().begin(), nvbandwidth_tests().end());
  return argv;
}

PeerRun read_nvbandwidth_run(const std::vector<std::string>& argv, std::uint64_t bytes,
                             const ProcessOutcome& outcome, std::chrono::milliseconds limit) {
  // The unidirectional tests are the copies h2d/memory times (the _sm ones its engine=sm); the
  // bidirectional ones time one direction with the other running, as h2d/memory dir=both does
  // each (its counter of that direction).
  struct Pairing {
    std::string dir;
    std::string counter;
    std::string engine = "ce";
  };
  static const std::map<std::string, Pairing> pairing_of = {
      {"host_to_device_memcpy_ce", {"h2d", ""}},
      {"device_to_host_memcpy_ce", {"d2h", ""}},
      {"host_to_device_bidirectional_memcpy_ce", {"both", "h2d_both_GB_per_s"}},
      {"device_to_host_bidirectional_memcpy_ce", {"both", "d2h_both_GB_per_s"}},
      {"host_to_device_memcpy_sm", {"h2d", "", "sm"}},
      {"device_to_host_memcpy_sm", {"d2h", "", "sm"}}};
  PeerRun run{"nvbandwidth", command_text(argv), "failed", "", outcome.elapsed_s, {}};
  if (auto failure = process_failure(outcome, limit)) {
    run.reason = std::move(*failure);
    return run;
  }
  std::string why;
  const auto parsed = parse_nvbandwidth_output(outcome.output, why);
  if (!parsed) {
    run.reason = why;
    return run;
  }
  run.status = "measured";
  for (const NvbandwidthOutput::Sum& sum : parsed->sums) {
    PeerFigure figure;
    figure.peer = "nvbandwidth";
    figure.version = parsed->version;
    figure.command = run.command;
    figure.test = sum.test;
    figure.bytes = bytes;
    figure.value = sum.gb_per_s;
    figure.unit = "GB/s";
    if (const auto pairing = pairing_of.find(sum.test); pairing != pairing_of.end()) {
      figure.pairs_with =
          memory_case(pairing->second.dir, "pinned", "async", bytes, pairing->second.engine);
      figure.pairs_counter = pairing->second.counter;
    }
    run.figures.push_back(std::move(figure));
  }
  return run;
}

}  // namespace h2d
