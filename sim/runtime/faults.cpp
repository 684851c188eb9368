#include "sim/runtime/faults.hpp"

#include <algorithm>
#include <array>

#include "sim/runtime/config.hpp"
#include "sim/runtime/errors.hpp"

namespace h2d::sim {
namespace {

constexpr const char* kGrammar =
    "rules are TARGET#N=cudaErrorName, corrupt=TARGET#N or stall=TARGET#N:DURATION separated by "
    "commas; TARGET is a cuda* runtime function or kernel:NAME, N >= 1 (#N+: the Nth call and "
    "every later one), DURATION like 5s or 250ms";

// The copies whose landing bytes a corrupt rule can flip, and which a stall rule can hold.
constexpr std::array<std::string_view, 5> kCopyFunctions = {
    "cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2DAsync", "cudaMemcpyPeerAsync", "cudaMemsetAsync"};

// Every function that counts its calls for H2D_SIM_FAULTS (the others could never fire).
constexpr std::array<std::string_view, 7> kFaultableFunctions = {
    "cudaMalloc",    "cudaFree",         "cudaMallocHost",
    "cudaHostAlloc", "cudaHostRegister", "cudaStreamCreateWithFlags",
    "cudaMemset"};

[[noreturn]] void reject(const std::string& text, const std::string& rule, const std::string& why) {
  throw ConfigError("H2D_SIM_FAULTS", text, "rule '" + rule + "' " + why + "; " + kGrammar);
}

bool is_copy(std::string_view target) {
  return std::find(kCopyFunctions.begin(), kCopyFunctions.end(), target) != kCopyFunctions.end();
}

bool is_kernel(std::string_view target) {
  return target.size() > 7 && target.substr(0, 7) == "kernel:";
}

// "cudaMemcpyAsync#2" (or "#2+") into target and call number.
void parse_target(const std::string& text, const std::string& rule, const std::string& part,
                  FaultRule& out) {
  const std::size_t hash = part.rfind('#');
  if (hash == std::string::npos || hash == 0) {
    reject(text, rule, "has no TARGET#N");
  }
  out.target = part.substr(0, hash);
  const bool faultable =
      is_copy(out.target) || std::find(kFaultableFunctions.begin(), kFaultableFunctions.end(),
                                       out.target) != kFaultableFunctions.end();
  if (!faultable && !is_kernel(out.target)) {
    reject(text, rule,
           "names '" + out.target +
               "', not kernel:NAME nor a function the sim injects into (cudaMalloc, cudaFree, "
               "cudaMallocHost, cudaHostAlloc, cudaHostRegister, cudaStreamCreateWithFlags, "
               "cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2DAsync, cudaMemcpyPeerAsync, cudaMemset, "
               "cudaMemsetAsync)");
  }
  std::string number = part.substr(hash + 1);
  if (!number.empty() && number.back() == '+') {
    out.and_later = true;
    number.pop_back();
  }
  if (number.empty() || !std::all_of(number.begin(), number.end(), ::isdigit) ||
      number.size() > 12 || std::stoull(number) == 0) {
    reject(text, rule, "needs a call number N >= 1 after #");
  }
  out.call = std::stoull(number);
}

FaultRule parse_rule(const std::string& text, const std::string& rule) {
  FaultRule parsed;
  const std::size_t equals = rule.find('=');
  if (equals == std::string::npos) {
    reject(text, rule, "has no '='");
  }
  const std::string head = rule.substr(0, equals);
  const std::string tail = rule.substr(equals + 1);
  if (head == "corrupt") {
    parsed.action = FaultRule::Action::corrupt;
    parse_target(text, rule, tail, parsed);
    if (!is_copy(parsed.target) || parsed.target == "cudaMemsetAsync") {
      reject(text, rule, "corrupts a call that is not a copy");
    }
  } else if (head == "stall") {
    parsed.action = FaultRule::Action::stall;
    const std::size_t colon = tail.rfind(':');
    if (colon == std::string::npos) {
      reject(text, rule, "has no :DURATION");
    }
    parse_target(text, rule, tail.substr(0, colon), parsed);
    if (!is_copy(parsed.target) && !is_kernel(parsed.target)) {
      reject(text, rule, "stalls something that is neither a copy nor a kernel");
    }
    try {
      parsed.stall_ns = parse_duration_ns(tail.substr(colon + 1));
    } catch (const std::exception&) {
      reject(text, rule, "has a duration that is not a number with ns, us, ms or s");
    }
  } else {
    parsed.action = FaultRule::Action::error;
    parse_target(text, rule, head, parsed);
    if (!error_from_name(tail, parsed.error) || parsed.error == cudaSuccess) {
      reject(text, rule, "names '" + tail + "', which is not a cudaError enumerator");
    }
  }
  return parsed;
}

}  // namespace

std::vector<FaultRule> parse_faults(const std::string& text) {
  std::vector<FaultRule> rules;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string rule = text.substr(start, comma - start);
    if (rule.empty()) {
      reject(text, rule, "is empty");
    }
    rules.push_back(parse_rule(text, rule));
    start = comma + 1;
  }
  return rules;
}

FaultEffect FaultPlan::on_call(std::string_view target) {
  FaultEffect effect;
  if (rules_.empty()) {
    return effect;
  }
  std::uint64_t call = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = calls_.find(target);
    if (found == calls_.end()) {
      found = calls_.emplace(std::string(target), 0).first;
    }
    call = ++found->second;
  }
  for (const FaultRule& rule : rules_) {
    const bool applies = rule.and_later ? call >= rule.call : call == rule.call;
    if (rule.target != target || !applies) {
      continue;
    }
    switch (rule.action) {
      case FaultRule::Action::error:
        effect.error = rule.error;
        break;
      case FaultRule::Action::corrupt:
        effect.corrupt = true;
        break;
      case FaultRule::Action::stall:
        effect.stall_ns += rule.stall_ns;
        break;
    }
  }
  return effect;
}

}  // namespace h2d::sim
