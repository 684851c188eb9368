#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/family_axes.hpp"

namespace h2d {

// Benchmark names are `family/key=value/...`, e.g.
// h2d/memory/dir=h2d/kind=pinned/mode=async/bytes=64MiB. The family is everything before the first
// key=value segment.
class CaseName {
 public:
  explicit CaseName(std::string family);
  // A name of a declared family: add() refuses a key the declaration lacks (std::logic_error), so
  // every key a family writes has its role. `declared` must outlive the name (declared_families()
  // lives as long as the program).
  explicit CaseName(const FamilyAxes& declared);

  CaseName& add(const std::string& key, const std::string& value);
  CaseName& add(const std::string& key, long long value);
  // Sizes read as 4KiB / 64MiB / 1GiB.
  CaseName& add_bytes(const std::string& key, std::size_t bytes);

  const std::string& family() const { return family_; }
  const FamilyAxes* declaration() const { return declared_; }  // nullptr: undeclared
  const std::vector<std::pair<std::string, std::string>>& params() const { return params_; }
  std::string str() const;

 private:
  std::string family_;
  std::vector<std::pair<std::string, std::string>> params_;
  const FamilyAxes* declared_ = nullptr;
};

struct ParsedCaseName {
  std::string family;
  std::vector<std::pair<std::string, std::string>> params;
  // The value of `key`, or empty when the name has none.
  std::string get(const std::string& key) const;
};

// Splits a name produced by CaseName. GB appends suffixes such as "/manual_time" or
// "_median" for aggregates; those are not parameters and are dropped from params.
ParsedCaseName parse_case_name(const std::string& name);

}  // namespace h2d
