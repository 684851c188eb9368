#include "harness/core/time_bank.hpp"

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

double TimeBank::balance() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return balance_s_;
}

}  // namespace h2d
