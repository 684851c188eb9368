#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "sim/runtime/completion.hpp"

namespace h2d::sim {

// One piece of stream work. `run` gets the sim time at which the stream reached it (the end of
// the stream's previous work, of what it waits for, or when it was queued, whichever is latest)
// and returns the time it ended.
struct Work {
  std::function<std::uint64_t(std::uint64_t ready_ns)> run;
  std::vector<CompletionPtr> after;  // work of other streams this waits for
};

enum class StreamKind { legacy, per_thread, created };

// A CUDA stream: its work runs in order on its own worker thread (Programming Guide, "Streams":
// "a sequence of commands ... that execute in order"). Owned by shared_ptr: the worker holds one,
// so a destroyed stream finishes the work it was given (cudaStreamDestroy: "resources ... will be
// released automatically once the device has completed all work in stream").
class Stream : public std::enable_shared_from_this<Stream> {
 public:
  static std::shared_ptr<Stream> start(int device, StreamKind kind, unsigned flags,
                                       std::uint32_t id);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  int device() const { return device_; }
  StreamKind kind() const { return kind_; }
  unsigned flags() const { return flags_; }
  std::uint32_t id() const { return id_; }
  // cudaStreamNonBlocking streams never wait for, nor hold up, the legacy default stream.
  bool blocking() const;

  // Queues `work`; the completion ends when it ran. Callers go through Device::submit, which
  // adds the legacy default stream's ordering.
  CompletionPtr push(Work work);
  // The completion of the last work queued so far (already done when there is none).
  CompletionPtr last() const;
  // No more work: the worker ends after what it has.
  void close();

 private:
  Stream(int device, StreamKind kind, unsigned flags, std::uint32_t id);
  void run_worker();

  struct Queued {
    Work work;
    CompletionPtr done;
    std::uint64_t queued_ns = 0;
  };

  const int device_;
  const StreamKind kind_;
  const unsigned flags_;
  const std::uint32_t id_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Queued> queue_;
  CompletionPtr last_;
  bool closed_ = false;
};

using StreamPtr = std::shared_ptr<Stream>;

}  // namespace h2d::sim
