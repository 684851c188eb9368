#include "harness/core/case_claims.hpp"

#include <algorithm>

namespace h2d {
namespace {

bool listed(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

CaseClaims declared_claims(const FamilyAxes* declared,
                           const std::vector<std::pair<std::string, std::string>>& params) {
  CaseClaims claims;
  if (declared == nullptr) {
    return claims;
  }
  for (const auto& [key, value] : params) {
    const AxisDeclaration* axis = declared->find(key);
    if (axis == nullptr) {
      continue;
    }
    if (!claims.pinned && listed(axis->asks_pinned, value)) {
      claims.pinned = true;
      claims.pinned_by = key + "=" + value;
    }
    claims.async = claims.async || listed(axis->asks_async, value);
  }
  return claims;
}

}  // namespace h2d
