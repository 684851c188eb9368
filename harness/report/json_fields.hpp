#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace h2d {

// Typed reads from report JSON that never throw: reports come from other machines, older
// versions and hand edits, and a field of an unexpected type must not end a comparison.
inline std::string string_or(const nlohmann::json& object, const char* key,
                             const std::string& fallback) {
  if (object.is_object()) {
    const auto found = object.find(key);
    if (found != object.end() && found->is_string()) {
      return found->get<std::string>();
    }
  }
  return fallback;
}

inline bool bool_or(const nlohmann::json& object, const char* key, bool fallback) {
  if (object.is_object()) {
    const auto found = object.find(key);
    if (found != object.end() && found->is_boolean()) {
      return found->get<bool>();
    }
  }
  return fallback;
}

}  // namespace h2d
