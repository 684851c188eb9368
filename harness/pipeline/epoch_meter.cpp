#include "harness/pipeline/epoch_meter.hpp"

#include <algorithm>

namespace h2d {
namespace {

using Clock = EpochMeter::Clock;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Time spent in `intervals` inside [from, to].
double busy_within(const std::vector<std::pair<Clock::time_point, Clock::time_point>>& intervals,
                   Clock::time_point from, Clock::time_point to) {
  double busy = 0;
  for (const auto& [start, end] : intervals) {
    const Clock::time_point clipped_start = std::max(start, from);
    const Clock::time_point clipped_end = std::min(end, to);
    if (clipped_end > clipped_start) {
      busy += seconds_between(clipped_start, clipped_end);
    }
  }
  return busy;
}

}  // namespace

EpochMeter::EpochMeter(std::size_t workers) : worker_busy_(workers) {}

void EpochMeter::start(Clock::time_point now) {
  last_completion_ = now;
  window_start_ = now;  // moved to the last warm-up completion when there is warm-up
}

void EpochMeter::worker_busy(std::size_t worker, Clock::time_point from, Clock::time_point to) {
  worker_busy_[worker].emplace_back(from, to);
}

void EpochMeter::pin_busy(Clock::time_point from, Clock::time_point to) {
  pin_busy_.emplace_back(from, to);
}

void EpochMeter::handoff(Interval receiving, Interval mapping) {
  handoffs_.push_back(receiving);
  double seconds = seconds_between(receiving.first, receiving.second);
  Clock::time_point end = receiving.second;
  if (mapping.second > mapping.first) {
    handoffs_.push_back(mapping);
    seconds += seconds_between(mapping.first, mapping.second);
    end = mapping.second;
  }
  handoff_spans_.emplace_back(receiving.first, end);
  handoff_s_.push_back(seconds);
}

void EpochMeter::host_wait(Clock::time_point from, Clock::time_point to) {
  host_wait_s_.push_back(seconds_between(from, to));
}

void EpochMeter::step_completed(Clock::time_point now, const StepOutputs& outputs, bool measured,
                                std::uint64_t bytes) {
  longest_gap_s_ = std::max(longest_gap_s_, seconds_between(last_completion_, now));
  last_completion_ = now;
  if (measured) {
    copy_s_ += outputs.copy_s;
    compute_s_ += outputs.compute_s;
    copied_bytes_ += bytes;
  }
}

void EpochMeter::open_window(Clock::time_point now) {
  window_start_ = now;
}

void EpochMeter::ended_early(Clock::time_point now) {
  longest_gap_s_ = std::max(longest_gap_s_, seconds_between(last_completion_, now));
}

void EpochMeter::write_to(EpochResult& result, bool window_has_batches) {
  result.longest_gap_s = longest_gap_s_;
  if (window_has_batches) {
    result.window_s = seconds_between(window_start_, last_completion_);
    for (const auto& intervals : worker_busy_) {
      result.worker_busy_s += busy_within(intervals, window_start_, last_completion_);
    }
    result.pin_busy_s = busy_within(pin_busy_, window_start_, last_completion_);
    result.handoff_busy_s = busy_within(handoffs_, window_start_, last_completion_);
    for (std::size_t i = 0; i < handoff_spans_.size(); ++i) {
      if (handoff_spans_[i].first >= window_start_ &&
          handoff_spans_[i].second <= last_completion_) {
        result.handoff_s.push_back(handoff_s_[i]);
      }
    }
  }
  result.host_wait_s = std::move(host_wait_s_);
  result.copy_s = copy_s_;
  result.compute_s = compute_s_;
  result.copied_bytes = copied_bytes_;
}

}  // namespace h2d
