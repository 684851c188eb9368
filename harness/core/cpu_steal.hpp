#pragma once

#include <optional>
#include <string_view>

namespace h2d {

// Where this machine's CPU time went, summed over its CPUs (Linux /proc/stat, in seconds): on a
// shared virtual machine `steal` is the time the hypervisor ran other guests while ours wanted the
// CPU, the noise no stopping rule averages away (2026-12-07, the 2-core CI VM: 5.5% of the CPU
// time stolen during a host-only run, nearly none idle).
struct CpuTimes {
  double steal_s = 0;
  double total_s = 0;  // user, nice, system, idle, iowait, irq, softirq and steal
};

// The first line of /proc/stat's text ("cpu  user nice system idle iowait irq softirq steal ...",
// in clock ticks of `ticks_per_s`); nullopt for text without the aggregate line or its steal
// field (kernels before 2.6.11).
std::optional<CpuTimes> parse_cpu_times(std::string_view proc_stat, double ticks_per_s);

// Now, from /proc/stat; nullopt where there is none (not Linux, or not readable).
std::optional<CpuTimes> read_cpu_times();

// The share of the CPU time between two readings that was stolen, in %; 0 when no time passed.
double steal_pct(const CpuTimes& before, const CpuTimes& after);

}  // namespace h2d
