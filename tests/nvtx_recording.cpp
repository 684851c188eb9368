#include "tests/nvtx_recording.hpp"

#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <map>
#include <set>

#include "harness/trace/nvtx.hpp"

namespace h2d_test {
namespace {

constexpr const char* kDomain = "h2dbench";

struct OpenRange {
  std::string name;
  std::uint32_t category = 0;
  std::uint64_t begin = 0;
  int depth = 0;
  std::string enclosing_case;  // the case range open on this thread when it was pushed
};

struct ClosedRange {
  OpenRange open;
  std::uint32_t thread = 0;
  std::uint64_t end = 0;
};

// Problems in first-seen order, each once.
class Problems {
 public:
  void add(std::string problem) {
    if (seen_.insert(problem).second) {
      list_.push_back(std::move(problem));
    }
  }
  std::vector<std::string> take() { return std::move(list_); }

 private:
  std::set<std::string> seen_;
  std::vector<std::string> list_;
};

const std::vector<h2d::NvtxCategory>& all_categories() {
  static const std::vector<h2d::NvtxCategory> categories{
      h2d::NvtxCategory::bench_case, h2d::NvtxCategory::setup,  h2d::NvtxCategory::collate,
      h2d::NvtxCategory::pin,        h2d::NvtxCategory::stage,  h2d::NvtxCategory::copy,
      h2d::NvtxCategory::compute,    h2d::NvtxCategory::verify,
  };
  return categories;
}

bool known_category(std::uint32_t category) {
  for (h2d::NvtxCategory known : all_categories()) {
    if (static_cast<std::uint32_t>(known) == category) {
      return true;
    }
  }
  return false;
}

void check_range(const ClosedRange& range, const std::vector<ClosedRange>& cases,
                 const nlohmann::json& push, Problems& problems) {
  const std::uint32_t category = range.open.category;
  if (!known_category(category)) {
    problems.add(fmt::format("range '{}' has category {}, not one of harness/trace/nvtx.hpp",
                             range.open.name, category));
    return;
  }
  const auto typed = static_cast<h2d::NvtxCategory>(category);
  if (push.value("color_type", 0) != NVTX_COLOR_ARGB ||
      push.value("color", 0u) != h2d::nvtx_color(typed)) {
    problems.add(fmt::format("range '{}' ({}) does not carry its category's colour",
                             range.open.name, h2d::to_string(typed)));
  }
  if (typed == h2d::NvtxCategory::copy) {
    const nlohmann::json& payload = push["payload"];
    if (push.value("payload_type", 0) != NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 ||
        !payload.is_number_unsigned() || payload.get<std::uint64_t>() == 0) {
      problems.add(
          fmt::format("copy range '{}' does not carry its byte count as payload", range.open.name));
    }
  }
  if (typed == h2d::NvtxCategory::bench_case) {
    if (range.open.depth != 0) {
      problems.add(fmt::format("case range '{}' is nested inside another range on thread {}",
                               range.open.name, range.thread));
    }
    return;
  }
  if (!range.open.enclosing_case.empty()) {
    return;
  }
  for (const ClosedRange& c : cases) {
    if (c.open.begin <= range.open.begin && range.end <= c.end) {
      return;  // a worker thread's phase, within a case's time
    }
  }
  problems.add(fmt::format("phase '{}' ({}) on thread {} is outside every case range",
                           range.open.name, h2d::to_string(typed), range.thread));
}

}  // namespace

std::vector<std::string> check_nvtx_recording(const nlohmann::json& recording,
                                              const nlohmann::json& report) {
  Problems problems;
  if (!recording.contains("events") || !recording["events"].is_array()) {
    problems.add("the recording has no events list");
    return problems.take();
  }
  bool domain_created = false;
  std::map<std::uint32_t, std::string> category_names;
  std::set<std::uint32_t> named_threads;
  // Per thread and domain, the open ranges; per closed h2dbench range, its push event.
  std::map<std::pair<std::uint32_t, std::string>, std::vector<OpenRange>> stacks;
  std::vector<std::pair<ClosedRange, nlohmann::json>> closed;
  std::map<std::pair<std::uint32_t, std::string>, std::vector<nlohmann::json>> open_pushes;
  std::map<std::uint32_t, std::size_t> pushes_per_thread;

  for (const nlohmann::json& event : recording["events"]) {
    const std::string type = event.value("type", "");
    const std::string domain = event.value("domain", "");
    const auto thread = event.value("tid", 0u);
    if (type == "domain_create" && domain == kDomain) {
      domain_created = true;
    } else if (type == "name_category" && domain == kDomain) {
      category_names[event.value("category", 0u)] = event.value("name", "");
    } else if (type == "name_thread") {
      named_threads.insert(event.value("thread", 0u));
    } else if (type == "push") {
      auto& stack = stacks[{thread, domain}];
      OpenRange range;
      range.name = event.value("message", "");
      range.category = event.value("category", 0u);
      range.begin = event.value("t_ns", std::uint64_t{0});
      range.depth = static_cast<int>(stack.size());
      if (domain == kDomain) {
        ++pushes_per_thread[thread];
        if (range.category == static_cast<std::uint32_t>(h2d::NvtxCategory::bench_case)) {
          range.enclosing_case = range.name;
        } else if (!stack.empty()) {
          range.enclosing_case = stack.back().enclosing_case;
        }
      }
      stack.push_back(std::move(range));
      open_pushes[{thread, domain}].push_back(event);
    } else if (type == "pop") {
      auto& stack = stacks[{thread, domain}];
      if (stack.empty()) {
        problems.add(fmt::format("thread {}: a pop without a push in domain '{}'", thread, domain));
        continue;
      }
      ClosedRange range{std::move(stack.back()), thread, event.value("t_ns", std::uint64_t{0})};
      stack.pop_back();
      nlohmann::json push = std::move(open_pushes[{thread, domain}].back());
      open_pushes[{thread, domain}].pop_back();
      if (domain == kDomain) {
        closed.push_back({std::move(range), std::move(push)});
      }
    }
  }

  if (!domain_created) {
    problems.add("the h2dbench NVTX domain was never created (was the recorder loaded?)");
  }
  for (h2d::NvtxCategory category : all_categories()) {
    const auto named = category_names.find(static_cast<std::uint32_t>(category));
    if (named == category_names.end() || named->second != h2d::to_string(category)) {
      problems.add(fmt::format("category {} is not named '{}' in the h2dbench domain",
                               static_cast<std::uint32_t>(category), h2d::to_string(category)));
    }
  }
  for (const auto& [key, stack] : stacks) {
    if (!stack.empty()) {
      std::string names;
      constexpr std::size_t kShown = 5;
      for (std::size_t i = 0; i < stack.size() && i < kShown; ++i) {
        names += fmt::format("{}'{}'", i == 0 ? "" : ", ", stack[i].name);
      }
      if (stack.size() > kShown) {
        names += ", ...";
      }
      problems.add(fmt::format("thread {}: {} range(s) never popped in domain '{}': {}", key.first,
                               stack.size(), key.second, names));
    }
  }

  std::vector<ClosedRange> cases;
  std::set<std::string> case_names;
  for (const auto& [range, push] : closed) {
    if (range.open.category == static_cast<std::uint32_t>(h2d::NvtxCategory::bench_case)) {
      cases.push_back(range);
      case_names.insert(range.open.name);
    }
  }
  for (const auto& [range, push] : closed) {
    check_range(range, cases, push, problems);
  }
  for (const auto& [thread, count] : pushes_per_thread) {
    if (named_threads.count(thread) == 0) {
      problems.add(
          fmt::format("thread {} pushed {} h2dbench range(s) but was never named", thread, count));
    }
  }

  std::set<std::string> run_names;
  if (report.contains("benchmarks") && report["benchmarks"].is_array()) {
    for (const nlohmann::json& run : report["benchmarks"]) {
      run_names.insert(run.value("run_name", ""));
    }
  }
  if (run_names.empty()) {
    problems.add("the report has no cases");
  }
  for (const std::string& name : run_names) {
    if (case_names.count(name) == 0) {
      problems.add(fmt::format("case '{}' of the report has no NVTX range of that name", name));
    }
  }
  for (const std::string& name : case_names) {
    if (run_names.count(name) == 0) {
      problems.add(fmt::format("NVTX case range '{}' is no case of the report", name));
    }
  }
  return problems.take();
}

}  // namespace h2d_test
