#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

namespace h2d::sim {

// The end of one piece of queued work: whoever waits for it (a host thread, another stream, an
// event) learns when it finished on the sim clock.
class Completion {
 public:
  Completion() = default;
  static std::shared_ptr<Completion> already_done(std::uint64_t end_ns);

  void complete(std::uint64_t end_ns);
  bool done() const;
  // Blocks until complete; returns the modelled end.
  std::uint64_t wait() const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool done_ = false;
  std::uint64_t end_ns_ = 0;
};

using CompletionPtr = std::shared_ptr<Completion>;

}  // namespace h2d::sim
