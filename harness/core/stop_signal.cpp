#include "harness/core/stop_signal.hpp"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>

namespace h2d {
namespace {

// -1: nobody asked; 0: request_stop(); > 0: the signal. Lock-free, so the handler may touch it.
std::atomic<int> g_stop{-1};
static_assert(std::atomic<int>::is_always_lock_free);

// When the first signal came (CLOCK_MONOTONIC, ns; 0: none yet). `timeout -s INT` delivers its
// signal twice (to the child, then to the process group), and an impatient double press is one
// request too: a repeat within kRepeatGrace_ns is the same request, not an order to abort.
std::atomic<long long> g_first_signal_ns{0};
static_assert(std::atomic<long long>::is_always_lock_free);
constexpr long long kRepeatGrace_ns = 1'000'000'000;

struct sigaction g_previous_int;
struct sigaction g_previous_term;

long long monotonic_ns() noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  return static_cast<long long>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

extern "C" void on_stop_signal(int signal_number) {
  const long long now = monotonic_ns();
  int expected = -1;
  if (g_stop.compare_exchange_strong(expected, signal_number)) {
    g_first_signal_ns.store(now);
    static const char message[] =
        "\nh2dbench: stopping at the next safe point; the report of what completed will be "
        "written (Ctrl-C again, a second or more from now, aborts)\n";
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, sizeof(message) - 1);
    return;
  }
  const long long first = g_first_signal_ns.load();
  if (first != 0 && now - first < kRepeatGrace_ns) {
    return;
  }
  // Asked again later: the default action ends the process now.
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

}  // namespace

StopSignalScope::StopSignalScope() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

StopSignalScope::~StopSignalScope() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

bool stop_requested() noexcept {
  return g_stop.load() >= 0;
}

const char* stop_requester() noexcept {
  switch (g_stop.load()) {
    case SIGINT:
      return "SIGINT (Ctrl-C)";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a stop request";
  }
}

void request_stop() noexcept {
  int expected = -1;
  g_stop.compare_exchange_strong(expected, 0);
}

void clear_stop_request() noexcept {
  g_stop.store(-1);
  g_first_signal_ns.store(0);
}

}  // namespace h2d
