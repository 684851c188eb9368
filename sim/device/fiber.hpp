#pragma once

// A cooperative fiber: its own small stack and a saved register set, switched to and from by hand
// (about ten instructions on x86-64; ucontext elsewhere, which costs a system call per switch).
// ThreadSanitizer and AddressSanitizer are told about every switch, so sanitized builds of the
// sim keep working.

#include <cstddef>

namespace h2d::sim {

// Where a switch resumes: a fiber's saved state, or the thread's own stack (a default-constructed
// context, filled in when the thread first switches away from it).
struct ExecutionContext {
  void* stack_pointer = nullptr;  // saved at the last switch away
  void* tsan_fiber = nullptr;     // ThreadSanitizer's handle (sanitized builds)
  const void* stack_bottom = nullptr;
  std::size_t stack_bytes = 0;
  void* native = nullptr;  // ucontext_t where there is no hand-written switch
};

// Fills `context` with the calling thread's own stack: call before switching away from it.
void capture_thread_context(ExecutionContext& context);

// Saves the running state into `from` and resumes `to`. Returns when something switches back.
void switch_context(ExecutionContext& from, ExecutionContext& to);

class Fiber {
 public:
  using Entry = void (*)(void* argument);

  // The first switch to context() calls entry(argument). `entry` must never return: a finished
  // fiber switches away for good.
  Fiber(std::size_t stack_bytes, Entry entry, void* argument);
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;
  ~Fiber();

  ExecutionContext& context() { return context_; }

  static void start(Fiber* fiber);  // where a fiber begins: runs entry(argument)

 private:
  Entry entry_;
  void* argument_;
  void* mapping_ = nullptr;  // guard page + stack
  std::size_t mapping_bytes_ = 0;
  ExecutionContext context_;
};

}  // namespace h2d::sim
