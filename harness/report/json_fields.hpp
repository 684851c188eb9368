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

inline double number_or(const nlohmann::json& object, const char* key, double fallback) {
  if (object.is_object()) {
    const auto found = object.find(key);
    if (found != object.end() && found->is_number()) {
      return found->get<double>();
    }
  }
  return fallback;
}

// object[key], or an empty object when `object` is no object or has no such key.
inline const nlohmann::json& member_or_empty(const nlohmann::json& object, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (object.is_object()) {
    const auto found = object.find(key);
    if (found != object.end()) {
      return *found;
    }
  }
  return empty;
}

}  // namespace h2d
