#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace h2d {

// Typed reads from report JSON that never throw: reports come from other machines, older
// versions and hand edits, and a field of an unexpected type must not end a comparison.

// object[key], or nullptr when `object` is no object or has no such key.
inline const nlohmann::json* find_member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) {
    return nullptr;
  }
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

inline std::string string_or(const nlohmann::json& object, const char* key,
                             const std::string& fallback) {
  const nlohmann::json* value = find_member(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : fallback;
}

inline bool bool_or(const nlohmann::json& object, const char* key, bool fallback) {
  const nlohmann::json* value = find_member(object, key);
  return value != nullptr && value->is_boolean() ? value->get<bool>() : fallback;
}

inline double number_or(const nlohmann::json& object, const char* key, double fallback) {
  const nlohmann::json* value = find_member(object, key);
  return value != nullptr && value->is_number() ? value->get<double>() : fallback;
}

// object[key], or an empty object when `object` is no object or has no such key.
inline const nlohmann::json& member_or_empty(const nlohmann::json& object, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json* value = find_member(object, key);
  return value != nullptr ? *value : empty;
}

}  // namespace h2d
