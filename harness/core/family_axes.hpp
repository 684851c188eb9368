#pragma once

#include <string>
#include <vector>

namespace h2d {

// What a case means, declared once per family (family_declarations.cpp) and read by everything
// that builds or reads a case: the case names (CaseName checks each key against it), the `axes`
// object of each report entry, the verdict, compare, the plots (through the exported JSON) and
// the trace findings. Nothing recovers a key's meaning from its spelling.

// What an axis varies: the workload (what is moved: size, direction, batch, tiles, task, ...),
// compared only with itself, or the strategy (how it is moved: kind, mode, pin, layout, ...), the
// choice the verdict ranks within a workload.
enum class AxisRole { workload, strategy };

enum class Better { higher, lower };

// Where a bar chart (plots/figures.py) puts an axis: a group of bars along x, one panel per
// value, or one colour per value.
enum class PlotPlace { group, panel, series };

struct AxisDeclaration {
  std::string key;
  AxisRole role = AxisRole::workload;
  // The naive start a user begins from (strategy axes): the verdict's speed-ups are against the
  // case whose every strategy axis with a baseline has that value. Empty: no opinion.
  std::string baseline;
  // What the framework does when a user asks (PyTorch's pin_memory=True: pin=requested in
  // h2d/batch, pin=pin_thread in the loops): the verdict also says the best's gain over the case
  // that differs from it only here, the setting a user who already asks has today. Empty: none.
  std::string framework_default;
  // Values that ask for page-locked host memory / for asynchronous copies: the case claims them,
  // and the silent no-pin warning and the trace findings hold it to that.
  std::vector<std::string> asks_pinned;
  std::vector<std::string> asks_async;
  PlotPlace plot = PlotPlace::group;
};

// The number that decides "better" for a family.
struct MetricDeclaration {
  std::string counter;  // e.g. GB_per_s; "real_time" is Google Benchmark's time in microseconds
  std::string unit;     // for people: "GB/s", "samples/s", "us"
  Better better = Better::higher;
};

struct FamilyAxes {
  std::string family;
  std::string meaning;  // one line: what the family's number is
  MetricDeclaration metric;
  std::vector<AxisDeclaration> axes;  // in the order they appear in names
  bool link_bound = false;            // its GB/s crosses the bus: annotated with link_pct

  const AxisDeclaration* find(const std::string& key) const;  // nullptr when not declared
  std::string keys_text() const;                              // "dir, kind, mode, bytes"
};

const char* to_string(AxisRole role);
const char* to_string(Better better);  // "higher is better" / "lower is better"
const char* to_string(PlotPlace place);

// Every family h2dbench has, sorted by name (family_declarations.cpp).
const std::vector<FamilyAxes>& declared_families();
// The declaration of `family`, or nullptr for a family h2dbench does not have (any more).
const FamilyAxes* find_declared_family(const std::string& family);
// The declaration of `family`; throws std::logic_error naming the declared families when it has
// none (a family file that forgot its declaration).
const FamilyAxes& declared_family(const std::string& family);

}  // namespace h2d
