#include "sim/device/fiber.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "sim/device/sanitizer_build.hpp"

#if defined(H2D_THREAD_SANITIZER)
extern "C" {
void* __tsan_get_current_fiber();
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
}
#endif
#if defined(H2D_ADDRESS_SANITIZER)
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old,
                                     std::size_t* size_old);
void __asan_unpoison_memory_region(const volatile void* address, std::size_t size);
}
#endif

#if defined(__x86_64__)
// switch_stack(save, load): pushes the callee-saved registers and the SSE/x87 control words (the
// System V ABI's preserved state) on the running stack, stores the stack pointer in *save,
// continues on `load` and pops the same from there.
extern "C" void h2d_sim_switch_stack(void** save, void* load);
extern "C" void h2d_sim_fiber_start();
asm(R"(
  .text
  .globl h2d_sim_switch_stack
  .hidden h2d_sim_switch_stack
  .type h2d_sim_switch_stack, @function
h2d_sim_switch_stack:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size h2d_sim_switch_stack, .-h2d_sim_switch_stack

  .globl h2d_sim_fiber_start
  .hidden h2d_sim_fiber_start
  .type h2d_sim_fiber_start, @function
h2d_sim_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size h2d_sim_fiber_start, .-h2d_sim_fiber_start
)");
#else
#include <ucontext.h>
#endif

namespace h2d::sim {
namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "h2d sim: %s\n", what);
  std::abort();
}

// A fiber ends parked inside its frames (lanes never return), so their redzones stay poisoned
// in ASan's shadow after the stack is unmapped; a later stack mapped at the same addresses
// inherited them, and ASan reported overflows in kernels that had none. Each stack starts and
// ends clean.
void unpoison_stack([[maybe_unused]] const void* bottom, [[maybe_unused]] std::size_t bytes) {
#if defined(H2D_ADDRESS_SANITIZER)
  __asan_unpoison_memory_region(bottom, bytes);
#endif
}

#if !defined(__x86_64__)
// makecontext passes int arguments only: the Fiber* in two halves.
void start_native(unsigned high, unsigned low) {
  Fiber::start(reinterpret_cast<Fiber*>(static_cast<std::uintptr_t>(high) << 32 | low));
}
#endif

}  // namespace

void capture_thread_context(ExecutionContext& context) {
#if defined(H2D_THREAD_SANITIZER)
  context.tsan_fiber = __tsan_get_current_fiber();
#endif
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    void* bottom = nullptr;
    std::size_t bytes = 0;
    pthread_attr_getstack(&attributes, &bottom, &bytes);
    context.stack_bottom = bottom;
    context.stack_bytes = bytes;
    pthread_attr_destroy(&attributes);
  }
#if !defined(__x86_64__)
  if (context.native == nullptr) {
    context.native = new ucontext_t;  // freed never: one per thread that runs grids
  }
#endif
}

void switch_context(ExecutionContext& from, ExecutionContext& to) {
#if defined(H2D_THREAD_SANITIZER)
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#endif
#if defined(H2D_ADDRESS_SANITIZER)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, to.stack_bottom, to.stack_bytes);
#endif
#if defined(__x86_64__)
  h2d_sim_switch_stack(&from.stack_pointer, to.stack_pointer);
#else
  swapcontext(static_cast<ucontext_t*>(from.native), static_cast<ucontext_t*>(to.native));
#endif
#if defined(H2D_ADDRESS_SANITIZER)
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

void Fiber::start(Fiber* fiber) {
#if defined(H2D_ADDRESS_SANITIZER)
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  fiber->entry_(fiber->argument_);
  fail("a fiber's entry returned");
}

Fiber::Fiber(std::size_t stack_bytes, Entry entry, void* argument)
    : entry_(entry), argument_(argument) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stack_bytes = (stack_bytes + page - 1) / page * page;
  mapping_bytes_ = stack_bytes + page;
  mapping_ = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping_ == MAP_FAILED) {
    fail("cannot map a fiber stack for a kernel's lanes");
  }
  // A guard page below the stack: an overflow faults instead of corrupting the next stack.
  if (mprotect(mapping_, page, PROT_NONE) != 0) {
    fail("cannot protect a fiber stack's guard page");
  }
  auto* const bottom = static_cast<unsigned char*>(mapping_) + page;
  unpoison_stack(bottom, stack_bytes);
  context_.stack_bottom = bottom;
  context_.stack_bytes = stack_bytes;
#if defined(H2D_THREAD_SANITIZER)
  context_.tsan_fiber = __tsan_create_fiber(0);
#endif
#if defined(__x86_64__)
  // The frame h2d_sim_switch_stack pops: control words, r15, r14, r13 = start, r12 = this,
  // rbx, rbp, then the return address h2d_sim_fiber_start. The top is 16-byte aligned, so the
  // entry sees the stack alignment of an ordinary call.
  auto* top = reinterpret_cast<std::uint64_t*>(bottom + stack_bytes);
  *--top = reinterpret_cast<std::uint64_t>(&h2d_sim_fiber_start);
  *--top = 0;                                        // rbp
  *--top = 0;                                        // rbx
  *--top = reinterpret_cast<std::uint64_t>(this);    // r12
  *--top = reinterpret_cast<std::uint64_t>(&start);  // r13
  *--top = 0;                                        // r14
  *--top = 0;                                        // r15
  *--top = 0x037Full << 32 | 0x1F80u;  // x87 control word, MXCSR: the ABI's initial values
  context_.stack_pointer = top;
#else
  auto* const native = new ucontext_t;
  getcontext(native);
  native->uc_stack.ss_sp = bottom;
  native->uc_stack.ss_size = stack_bytes;
  native->uc_link = nullptr;
  const auto self = reinterpret_cast<std::uintptr_t>(this);
  makecontext(native, reinterpret_cast<void (*)()>(&start_native), 2,
              static_cast<unsigned>(self >> 32), static_cast<unsigned>(self));
  context_.native = native;
#endif
}

Fiber::~Fiber() {
#if defined(H2D_THREAD_SANITIZER)
  __tsan_destroy_fiber(context_.tsan_fiber);
#endif
#if !defined(__x86_64__)
  delete static_cast<ucontext_t*>(context_.native);
#endif
  unpoison_stack(context_.stack_bottom, context_.stack_bytes);
  munmap(mapping_, mapping_bytes_);
}

}  // namespace h2d::sim
