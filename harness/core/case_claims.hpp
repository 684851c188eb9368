#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/core/family_axes.hpp"

namespace h2d {

// What a case says about its copies, from its family's declaration: a value an axis declares as
// asking for page-locked memory (kind=pinned, pin=requested, ...) claims pinned; one declared as
// asking for asynchronous copies (mode=async, copy=async) claims async. The verdict's silent
// no-pin warning and the trace findings hold cases to these claims.
struct CaseClaims {
  bool pinned = false;
  bool async = false;
  std::string pinned_by;  // the key=value that claims pinned, e.g. "pin=requested"
};

CaseClaims declared_claims(const FamilyAxes* declared,
                           const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace h2d
