// scripts/profile with nsys missing, present but broken (as Debian's nsight-systems 2022.4 is
// without its importer), and working. The tests own PATH: a folder of the system's tools without
// nsys, and a stand-in nsys in front of it, so the machine's own nsys never decides the outcome.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/h2dbench_process.hpp"
#include "tests/process_runner.hpp"

namespace {

namespace fs = std::filesystem;
using h2d::testing::TempDir;
using h2d_test::shell_quote;

const std::string kScript = h2d::testing::source_dir() + "/scripts/profile";

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

// `folder`/tools: a link to every program of /usr/bin and /bin except nsys, so a PATH made of it
// has everything the script needs and no nsys, whatever this machine has installed.
std::string tools_without_nsys(const fs::path& folder) {
  const fs::path tools = folder / "tools";
  fs::create_directories(tools);
  for (const char* system_dir : {"/usr/bin", "/bin"}) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(system_dir, error)) {
      const fs::path link = tools / entry.path().filename();
      if (entry.path().filename() != "nsys" && !fs::exists(fs::symlink_status(link))) {
        fs::create_symlink(entry.path(), link);
      }
    }
  }
  return tools.string();
}

// `folder`/bin/nsys: a stand-in that logs each call as one line to `log` and then runs `body`.
std::string stand_in_nsys(const fs::path& folder, const fs::path& log, const std::string& body) {
  const fs::path bin = folder / "bin";
  fs::create_directories(bin);
  const fs::path nsys = bin / "nsys";
  {
    std::ofstream script(nsys);
    script << "#!/usr/bin/env bash\nset -euo pipefail\necho \"$*\" >> " << shell_quote(log.string())
           << "\n"
           << body;
  }
  fs::permissions(nsys, fs::perms::owner_all);
  return bin.string();
}

// The nsys of Debian's nsight-systems 2022.4 without its importer: --version works, a profile
// runs the program, writes only a .qdstrm, says why on stderr and still exits 0.
const char* const kImporterMissing = R"(if [ "$1" = --version ]; then
  echo "NVIDIA Nsight Systems version 2022.4.2.1-df9881f"; exit 0
fi
shift
while [[ $1 == -* ]]; do case $1 in --output=*) out=${1#--output=};; esac; shift; done
"$@" || true
echo "Generating '/tmp/nsys-report-c902.qdstrm'"
touch "$out.qdstrm"
echo "Generated:"; echo "    $out.qdstrm"
echo "Importer error status: The importer binary and its dependencies were not found." >&2
echo "Unable to retrieve the importer version: skipping importation of the QDSTRM file." >&2
)";

// A working nsys: writes the .nsys-rep it is asked for and runs the program.
const char* const kWorking =
    R"(if [ "$1" = --version ]; then echo "NVIDIA Nsight Systems 2025.1"; exit 0; fi
shift
while [[ $1 == -* ]]; do case $1 in --output=*) touch "${1#--output=}.nsys-rep";; esac; shift; done
exec "$@"
)";

// Profiles a broken nsys left behind: results/profile_*.json and .qdstrm files in the source tree.
std::set<std::string> profiles_in_results() {
  std::set<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(h2d::testing::source_dir() + "/results", error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("profile_", 0) == 0) {
      names.insert(name);
    }
  }
  return names;
}

TEST(ProfileScript, SaysWhatToDoWhenNsysIsMissing) {
  TempDir dir;
  const auto missing = h2d_test::run_shell(
      "env PATH=" + shell_quote(tools_without_nsys(dir.path())) + " H2D_NSYS_SEARCH=/nonexistent " +
      shell_quote(kScript) + " --preset quick");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("nsys (Nsight Systems) was not found"), std::string::npos)
      << missing.output;
  EXPECT_NE(missing.output.find("h2dbench run --trace FILE.json"), std::string::npos);

  const auto wrong = h2d_test::run_shell("env H2D_NSYS=/nonexistent/nsys " + shell_quote(kScript));
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.output.find("H2D_NSYS=/nonexistent/nsys is not an executable"), std::string::npos)
      << wrong.output;
}

// Debian's nsys ran the whole suite under it, left a 14 MB .qdstrm in results/ and no report; the
// script then said only "nsys finished but wrote no .nsys-rep".
TEST(ProfileScript, SaysInOneLineWhenNsysCannotWriteAReport) {
  TempDir dir;
  const fs::path log = dir.file("nsys-calls.txt");
  const std::string path =
      stand_in_nsys(dir.path(), log, kImporterMissing) + ":" + tools_without_nsys(dir.path());
  const std::set<std::string> before = profiles_in_results();
  const auto broken = h2d_test::run_shell(
      "env PATH=" + shell_quote(path) + " H2D_BIN=" + shell_quote(h2d::testing::h2dbench_path()) +
      " " + shell_quote(kScript) + " --preset quick --filter '^host/memcpy/'");
  EXPECT_EQ(broken.exit_code, 2) << broken.output;
  EXPECT_EQ(lines_of(broken.output).size(), 1u) << broken.output;
  EXPECT_NE(broken.output.find("does not work here"), std::string::npos) << broken.output;
  EXPECT_NE(broken.output.find(
                "Importer error status: The importer binary and its dependencies were not found"),
            std::string::npos)
      << broken.output;
  EXPECT_NE(broken.output.find("h2dbench run --trace FILE.json"), std::string::npos);
  // Only the check ran: nsys --version and a profile of `true`, never the suite.
  const std::vector<std::string> calls = lines_of(read_text(log));
  ASSERT_EQ(calls.size(), 2u) << read_text(log);
  EXPECT_EQ(calls[0], "--version");
  EXPECT_EQ(calls[1].rfind("profile ", 0), 0u) << calls[1];
  EXPECT_EQ(calls[1].substr(calls[1].size() - 5), " true") << calls[1];
  EXPECT_EQ(profiles_in_results(), before) << "the check wrote into results/";

  // An nsys that cannot even start: its loader's message is the one shown.
  const fs::path dead = dir.file("dead");
  const std::string dead_path =
      stand_in_nsys(dead, dead / "calls.txt",
                    "echo 'nsys: error while loading shared libraries: libssh.so: cannot open "
                    "shared object file' >&2; exit 127\n") +
      ":" + tools_without_nsys(dir.path());
  const auto cannot_start = h2d_test::run_shell("env PATH=" + shell_quote(dead_path) + " " +
                                                shell_quote(kScript) + " --preset quick");
  EXPECT_EQ(cannot_start.exit_code, 2) << cannot_start.output;
  EXPECT_EQ(lines_of(cannot_start.output).size(), 1u) << cannot_start.output;
  EXPECT_NE(cannot_start.output.find("libssh.so: cannot open shared object file"),
            std::string::npos)
      << cannot_start.output;
  EXPECT_NE(cannot_start.output.find("h2dbench run --trace FILE.json"), std::string::npos);
}

TEST(ProfileScript, RunsNsysWithTracesAroundProfileModeNamedAfterTheReport) {
  TempDir dir;
  const fs::path log = dir.file("nsys-calls.txt");
  const std::string path =
      stand_in_nsys(dir.path(), log, kWorking) + ":" + tools_without_nsys(dir.path());
  const std::string report = dir.file("quick-host.json");
  const std::string environment = "env PATH=" + shell_quote(path) +
                                  " H2D_BIN=" + shell_quote(h2d::testing::h2dbench_path()) + " ";
  const auto run =
      h2d_test::run_shell(environment + shell_quote(kScript) +
                          " --preset quick --filter '^host/memcpy/' --out " + shell_quote(report));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // The check (--version, a profile of `true`), then the real profile.
  const std::vector<std::string> calls = lines_of(read_text(log));
  ASSERT_EQ(calls.size(), 3u) << read_text(log);
  EXPECT_EQ(calls[0], "--version");
  const std::string& profile = calls[2];
  EXPECT_EQ(profile.rfind("profile ", 0), 0u) << profile;
  EXPECT_NE(profile.find(" --trace=cuda,nvtx,osrt "), std::string::npos) << profile;
  const std::string base = dir.file("quick-host");
  EXPECT_NE(profile.find(" --output=" + base + " "), std::string::npos) << profile;
  EXPECT_NE(profile.find(" " + h2d::testing::h2dbench_path() + " run --profile"), std::string::npos)
      << profile;
  EXPECT_TRUE(fs::exists(report)) << "h2dbench ran under the stand-in";
  EXPECT_NE(run.output.find("profile: " + base + ".nsys-rep"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("nsys-ui"), std::string::npos);

  const auto with_trace =
      h2d_test::run_shell(environment + shell_quote(kScript) + " --trace t.json");
  EXPECT_EQ(with_trace.exit_code, 2);
  EXPECT_NE(with_trace.output.find("use one or the other"), std::string::npos);
}

}  // namespace
