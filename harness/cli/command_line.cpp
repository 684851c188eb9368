#include "harness/cli/command_line.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/core/usage_error.hpp"

namespace h2d {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return !prefix.empty() && text.rfind(prefix, 0) == 0;
}

std::string valid_flags(const CommandSyntax& syntax) {
  std::string list;
  for (const OptionSpec& option : syntax.options) {
    list += (list.empty() ? "" : ", ") + option.flag;
  }
  if (!syntax.passthrough_prefix.empty()) {
    list += (list.empty() ? "" : ", ") + syntax.passthrough_prefix + "*";
  }
  return list.empty() ? std::string("none") : list;
}

}  // namespace

std::optional<std::string> ParsedArgs::get(const std::string& flag) const {
  const auto found = values.find(flag);
  if (found == values.end()) {
    return std::nullopt;
  }
  return found->second;
}

ParsedArgs parse_command_line(const CommandSyntax& syntax, const std::vector<std::string>& args) {
  ParsedArgs parsed;
  const std::string see = fmt::format("see h2dbench {} --help", syntax.command);
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (options_ended || word.rfind("--", 0) != 0) {
      if (syntax.operands.empty()) {
        // "--benchmark_repetitions 5": pass-through flags take their value after '='.
        const std::string previous = i > 0 ? args[i - 1] : std::string();
        const bool stray_value = !options_ended &&
                                 starts_with(previous, syntax.passthrough_prefix) &&
                                 previous.find('=') == std::string::npos;
        throw UsageError(
            stray_value
                ? fmt::format("unexpected argument '{}' for {}: give it as {}={}", word,
                              syntax.command, previous, word)
                : fmt::format("unexpected argument '{}' for {} (it takes options only: {}; {})",
                              word, syntax.command, valid_flags(syntax), see));
      }
      parsed.operands.push_back(word);
      continue;
    }
    if (word == "--") {
      options_ended = true;
      continue;
    }
    if (starts_with(word, syntax.passthrough_prefix)) {
      parsed.passthrough.push_back(word);
      continue;
    }
    const std::size_t equals = word.find('=');
    const std::string flag = word.substr(0, equals);
    const auto spec = std::find_if(syntax.options.begin(), syntax.options.end(),
                                   [&](const OptionSpec& option) { return option.flag == flag; });
    if (spec == syntax.options.end()) {
      throw UsageError(fmt::format("unknown option '{}' for {} (valid: {}; {})", word,
                                   syntax.command, valid_flags(syntax), see));
    }
    if (spec->valid.empty()) {  // a switch
      if (equals != std::string::npos) {
        throw UsageError(fmt::format("{} takes no value (write just {})", flag, flag));
      }
      // Like an option given twice: a repeated switch is usually a pasted or scripted command
      // line gone wrong, and the README promises that anything given twice is an error.
      if (parsed.has(flag)) {
        throw UsageError(fmt::format("{} is given twice; give it once", flag));
      }
      parsed.values[flag] = "";
      continue;
    }
    std::string value;
    if (equals != std::string::npos) {
      value = word.substr(equals + 1);
    } else if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
      value = args[++i];
    }
    if (value.empty()) {
      throw UsageError(fmt::format("{} needs a value ({})", flag, spec->valid));
    }
    if (const auto earlier = parsed.get(flag)) {
      throw UsageError(
          fmt::format("{} is given twice ('{}' and '{}'); give it once", flag, *earlier, value));
    }
    parsed.values[flag] = value;
  }
  return parsed;
}

}  // namespace h2d
