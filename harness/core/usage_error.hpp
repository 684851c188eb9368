#pragma once

#include <stdexcept>

namespace h2d {

// Bad input from the user (a flag, a value, a file): reported as one line, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace h2d
