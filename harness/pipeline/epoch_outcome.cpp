#include "harness/pipeline/epoch_outcome.hpp"

#include <utility>

namespace h2d {
namespace {

std::string describe_error(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace

bool EpochOutcome::settle(EpochEnd end, std::string message) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (end_) {
    return false;
  }
  end_ = end;
  message_ = std::move(message);
  return true;
}

bool EpochOutcome::fail(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) {
      error_ = error;
    }
  }
  return settle(EpochEnd::failed, describe_error(error));
}

void EpochOutcome::write_to(EpochResult& result) const {
  std::lock_guard<std::mutex> lock(mutex_);
  result.end = end_.value_or(EpochEnd::completed);
  result.message = message_;
  result.error = error_;
}

}  // namespace h2d
