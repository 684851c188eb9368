#include "harness/core/time_bank.hpp"

#include <algorithm>

namespace h2d {

void TimeBank::deposit(double seconds) {
  if (seconds > 0) {
    const std::lock_guard<std::mutex> lock(mutex_);
    balance_s_ += seconds;
  }
}

bool TimeBank::withdraw(double seconds) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!(seconds >= 0) || seconds > balance_s_) {
    return false;
  }
  balance_s_ -= seconds;
  return true;
}

void TimeBank::charge_overrun(double seconds) {
  if (!(seconds > 0)) {
    return;
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  const double paid = std::min(seconds, balance_s_);
  balance_s_ -= paid;
  if (seconds > paid) {
    overrun_s_ += seconds - paid;
    ++overruns_;
  }
}

double TimeBank::overrun_s() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return overrun_s_;
}

std::size_t TimeBank::overruns() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return overruns_;
}

double TimeBank::balance() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return balance_s_;
}

}  // namespace h2d
