#include "sim/runtime/runtime.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "sim/runtime/errors.hpp"
#include "sim/runtime/sim_topology.hpp"

namespace h2d::sim {
namespace {

std::string default_bus_id(int ordinal) {
  char text[32];
  std::snprintf(text, sizeof text, "0000:%02x:00.0", (ordinal + 1) & 0xff);
  return text;
}

// "0-1,2-3" (validated by parse_config): who can reach whom.
std::vector<std::vector<bool>> peer_matrix(const std::string& spec, int devices) {
  std::vector<std::vector<bool>> allowed(static_cast<std::size_t>(devices),
                                         std::vector<bool>(static_cast<std::size_t>(devices)));
  auto allow_range = [&](int first, int last) {
    for (int a = first; a <= last && a < devices; ++a) {
      for (int b = first; b <= last && b < devices; ++b) {
        allowed[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = a != b;
      }
    }
  };
  if (spec == "all") {
    allow_range(0, devices - 1);
  } else if (spec != "none") {
    std::size_t start = 0;
    while (start < spec.size()) {
      const std::size_t comma = std::min(spec.find(',', start), spec.size());
      const std::string range = spec.substr(start, comma - start);
      const std::size_t dash = range.find('-');
      allow_range(std::stoi(range.substr(0, dash)), std::stoi(range.substr(dash + 1)));
      start = comma + 1;
    }
  }
  return allowed;
}

std::vector<FaultRule> faults_or_exit(const std::string& text) {
  try {
    return parse_faults(text);
  } catch (const ConfigError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    std::exit(2);
  }
}

SimTopology topology_or_exit(const Config& config) {
  if (config.topology_file.empty()) {
    return {};
  }
  try {
    SimTopology topology = load_sim_topology(config.topology_file);
    if (config.devices_given && config.devices > static_cast<int>(topology.gpus.size())) {
      throw ConfigError(
          "H2D_SIM_DEVICES", std::to_string(config.devices),
          "H2D_SIM_TOPOLOGY has only " + std::to_string(topology.gpus.size()) + " GPUs");
    }
    return topology;
  } catch (const ConfigError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    std::exit(2);
  }
}

std::atomic<Runtime*>& current_runtime() {
  static std::atomic<Runtime*> instance{nullptr};
  return instance;
}

// A runtime is never destroyed: the stream threads of one that tests have replaced may still be
// finishing. Each is listed here, reachable to the end of the process (LeakSanitizer reported
// every replaced one as a leak when only the atomic above pointed at the newest).
Runtime* make_runtime() {
  static std::mutex lock;
  static auto* const made = new std::vector<Runtime*>;
  const std::lock_guard<std::mutex> guard(lock);
  made->push_back(new Runtime(config_from_environment()));
  return made->back();
}

thread_local int thread_current_device = 0;

}  // namespace

Runtime::Runtime(Config config)
    : faults(faults_or_exit(config.faults)), config_(std::move(config)) {
  const SimTopology topology = topology_or_exit(config_);
  int count = config_.devices;
  if (!topology.gpus.empty() && !config_.devices_given) {
    count = static_cast<int>(topology.gpus.size());
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    const bool placed = ordinal < static_cast<int>(topology.gpus.size());
    devices_.push_back(std::make_unique<Device>(
        ordinal, config_,
        placed ? topology.gpus[static_cast<std::size_t>(ordinal)].bus_id : default_bus_id(ordinal),
        placed ? topology.gpus[static_cast<std::size_t>(ordinal)].link_bytes_per_s : 0));
  }
  for (const SimTopology::SharedLink& link : topology.shared_links) {
    const double rate =
        config_.uplink_bytes_per_s > 0 ? config_.uplink_bytes_per_s : link.bytes_per_s;
    if (rate <= 0) {
      continue;  // a link of unknown speed limits nothing
    }
    uplinks_.push_back(std::make_unique<Uplink>(link.bus_id, rate));
    for (int gpu : link.gpus) {
      if (gpu < count) {
        devices_[static_cast<std::size_t>(gpu)]->add_uplink(uplinks_.back().get());
      }
    }
  }
  peer_allowed_ = peer_matrix(config_.peer, count);
}

Device* Runtime::device(int ordinal) const {
  if (ordinal < 0 || ordinal >= device_count()) {
    return nullptr;
  }
  return devices_[static_cast<std::size_t>(ordinal)].get();
}

bool Runtime::can_access_peer(int device, int peer) const {
  if (this->device(device) == nullptr || this->device(peer) == nullptr) {
    return false;
  }
  return peer_allowed_[static_cast<std::size_t>(device)][static_cast<std::size_t>(peer)];
}

bool Runtime::peer_path(int a, int b) const {
  const Device* first = device(a);
  const Device* second = device(b);
  return first != nullptr && second != nullptr &&
         (first->peer_enabled(b) || second->peer_enabled(a));
}

Runtime& runtime() {
  Runtime* existing = current_runtime().load(std::memory_order_acquire);
  if (existing != nullptr) {
    return *existing;
  }
  // The first call builds it; a racing second one waits here (static initialization is locked).
  static Runtime* const first = [] {
    Runtime* const made = make_runtime();
    current_runtime().store(made, std::memory_order_release);
    return made;
  }();
  (void)first;
  return *current_runtime().load(std::memory_order_acquire);
}

int current_device_ordinal() {
  return thread_current_device;
}

void set_current_device_ordinal(int ordinal) {
  thread_current_device = ordinal;
}

namespace testing {
void reconfigure_from_environment() {
  runtime();  // the first one exists, so the static above never runs after this
  current_runtime().store(make_runtime(), std::memory_order_release);
  set_current_device_ordinal(0);
  // A new machine, as a new process sees it: no last error left over from the old one (a test
  // that left one made the next test's first launch_status() fail, whichever test ran next).
  last_error(/*reset=*/true);
}
}  // namespace testing

}  // namespace h2d::sim
