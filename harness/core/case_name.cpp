#include "harness/core/case_name.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "harness/core/byte_size.hpp"

namespace h2d {
namespace {

void check_token(const std::string& token, const char* what) {
  if (token.empty() || token.find_first_of("/= ") != std::string::npos) {
    throw std::invalid_argument(
        fmt::format("case name {} '{}' must be non-empty without '/', '=' or spaces", what, token));
  }
}

}  // namespace

CaseName::CaseName(std::string family) : family_(std::move(family)) {
  if (family_.empty() || family_.find_first_of("= ") != std::string::npos) {
    throw std::invalid_argument(fmt::format("bad family name '{}'", family_));
  }
}

CaseName::CaseName(const FamilyAxes& declared) : CaseName(declared.family) {
  declared_ = &declared;
}

CaseName& CaseName::add(const std::string& key, const std::string& value) {
  check_token(key, "key");
  if (declared_ != nullptr && declared_->find(key) == nullptr) {
    throw std::logic_error(fmt::format("{} declares no axis '{}' (declared: {})", family_, key,
                                       declared_->keys_text()));
  }
  check_token(value, "value");
  params_.emplace_back(key, value);
  return *this;
}

CaseName& CaseName::add(const std::string& key, long long value) {
  return add(key, std::to_string(value));
}

CaseName& CaseName::add_bytes(const std::string& key, std::size_t bytes) {
  return add(key, format_bytes(bytes));
}

std::string CaseName::str() const {
  std::string name = family_;
  for (const auto& [key, value] : params_) {
    name += fmt::format("/{}={}", key, value);
  }
  return name;
}

std::string ParsedCaseName::get(const std::string& key) const {
  for (const auto& [k, v] : params) {
    if (k == key) {
      return v;
    }
  }
  return {};
}

ParsedCaseName parse_case_name(const std::string& name) {
  ParsedCaseName parsed;
  std::size_t start = 0;
  bool in_params = false;
  while (start <= name.size()) {
    const std::size_t slash = name.find('/', start);
    const std::string segment =
        name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    const std::size_t equals = segment.find('=');
    if (equals != std::string::npos) {
      in_params = true;
      parsed.params.emplace_back(segment.substr(0, equals), segment.substr(equals + 1));
    } else if (!in_params) {
      parsed.family += (parsed.family.empty() ? "" : "/") + segment;
    }
    if (slash == std::string::npos) {
      break;
    }
    start = slash + 1;
  }
  return parsed;
}

}  // namespace h2d
