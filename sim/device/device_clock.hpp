#pragma once

// The device's clocks. %globaltimer (PTX ISA, "Special Registers: %globaltimer") is wall-clock
// nanoseconds; the sim answers with its own clock (h2d::sim::clock_ns, the clock of its activity
// records). A lane that reads the time or sleeps is polling, so it lets the other lanes of its
// grid run: the 32 lanes of a busy kernel's block then spin through the same wall-clock interval
// together, as on the GPU, instead of one after another.

#include <cstdint>

std::uint64_t h2d_global_timer_ns();  // what kernels/device_clock.cuh reads outside nvcc

// Programming Guide, "Time Function": suspends the thread for about `ns` nanoseconds (sm_70+).
void __nanosleep(unsigned int ns);
