#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "harness/core/case_claims.hpp"
#include "harness/trace/activity_record.hpp"
#include "harness/trace/host_trace.hpp"

namespace h2d {

// The silent failures of the user story, caught from a trace: memory a case calls pinned that the
// driver copied as pageable, and "async" copies that never overlapped anything. Pure: works on
// recorded host ranges and activity records, so it is tested with synthetic ones.

// What a case says about its copies: what its family's declaration says its name's values ask
// for (harness/core/case_claims.hpp), and pinned where CUDA said so (a host_pinned=1 counter).
CaseClaims case_claims(const std::string& name, const std::map<std::string, double>& counters);

// The claims of every case in a Google Benchmark report (by run_name).
std::map<std::string, CaseClaims> report_claims(const nlohmann::json& report);

struct TraceFinding {
  std::string name;     // the case
  std::string check;    // pinned_claim_pageable_copies | async_without_overlap
  std::string message;  // one sentence a user can act on
  nlohmann::json details = nlohmann::json::object();
};

// An async case whose copies overlapped host work or other GPU work for less than this share of
// their time is flagged: a pageable cudaMemcpyAsync returns only after its data left the host
// buffer, so at most the tail of the DMA runs after the call returns.
constexpr double kMinAsyncOverlap = 0.10;

// The copies a case measured are those queued inside its `copy` NVTX ranges (the call, matched by
// correlation id, started inside the range on the same thread; without the call, the copy itself
// started inside it). Copies made while setting up or verifying do not count.
std::vector<TraceFinding> check_trace(const HostTimeline& host,
                                      const std::vector<ActivityRecord>& activity,
                                      const std::map<std::string, CaseClaims>& claims);

nlohmann::json findings_to_json(const std::vector<TraceFinding>& findings);

}  // namespace h2d
