// scripts/gpu-architectures.sh: the architecture list scripts/bench builds for, and the line that
// stops it before building when the toolkit cannot build for a GPU of the machine (checked with
// stand-in nvidia-smi and nvcc on a PATH that holds nothing else).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/h2dbench_process.hpp"

namespace {

using h2d_test::shell_quote;

// What the stand-in nvidia-smi does.
struct Gpus {
  bool driver = true;         // `nvidia-smi -L` succeeds
  bool knows_compute = true;  // drivers before 510 reject --query-gpu=compute_cap
  std::string compute_caps;   // one line per GPU, e.g. "6.1\n9.0\n"
};

void write_script(const std::filesystem::path& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

// Runs h2d_gpu_architectures as scripts/bench does, with nvcc `release` (e.g. "13.0") and, unless
// `gpus` is null, an nvidia-smi that behaves as `gpus` says.
h2d_test::ProcessResult architectures(const std::string& release, const Gpus* gpus,
                                      const std::string& environment = "") {
  const auto bin = h2d_test::scratch_folder("gpu_architectures_script");
  write_script(bin / "nvcc",
               "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\necho 'Cuda compilation "
               "tools, release " +
                   release + ", V" + release + ".1'\n");
  if (gpus != nullptr) {
    write_script(bin / "nvidia-smi",
                 "case \"$1\" in\n"
                 "  -L) " +
                     std::string(gpus->driver ? "echo 'GPU 0: stand-in'" : "exit 9") +
                     ";;\n"
                     "  --query-gpu=compute_cap) " +
                     (gpus->knows_compute ? "printf '" + gpus->compute_caps + "'"
                                          : "echo 'Field \"compute_cap\" is not a valid field'; "
                                            "exit 2") +
                     ";;\n"
                     "  *) exit 3;;\n"
                     "esac\n");
  }
  std::filesystem::create_symlink("/bin/sed", bin / "sed");
  const std::string script = h2d::testing::source_dir() + "/scripts/gpu-architectures.sh";
  return h2d_test::run_shell("env -i PATH=" + shell_quote(bin.string()) + " " + environment +
                             " /bin/bash -c " +
                             shell_quote("set -euo pipefail; source " + shell_quote(script) +
                                         "; list=$(h2d_gpu_architectures); echo \"[$list]\""));
}

TEST(GpuArchitecturesScript, BuildsForTheGpusOfTheMachineOnceEach) {
  Gpus gpus;
  gpus.compute_caps = "9.0\\n8.6\\n9.0\\n";
  const auto run = architectures("13.0", &gpus);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "[90;86]\n");
}

TEST(GpuArchitecturesScript, APascalRigBuildsForSm61WithCuda12And11) {
  Gpus gpus;
  gpus.compute_caps = "6.1\\n6.1\\n";
  for (const char* release : {"12.4", "11.8"}) {
    const auto run = architectures(release, &gpus);
    EXPECT_EQ(run.exit_code, 0) << release << ": " << run.output;
    EXPECT_EQ(run.output, "[61]\n") << release;
  }
}

TEST(GpuArchitecturesScript, StopsWithOneLineWhenCuda13MeetsAGpuOlderThanSm75) {
  Gpus gpus;
  gpus.compute_caps = "9.0\\n6.1\\n";
  const auto run = architectures("13.0", &gpus);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output,
            "h2dbench: this GPU (sm_61) needs CUDA 12.x (11.8 is the oldest supported); nvcc 13.0 "
            "builds for sm_75 and newer: put a 12.x toolkit's bin/ first on PATH\n");

  gpus.compute_caps = "7.5\\n";  // Turing: the oldest CUDA 13 still builds for
  EXPECT_EQ(architectures("13.0", &gpus).output, "[75]\n");
}

TEST(GpuArchitecturesScript, AKeplerGpuNeedsCuda118) {
  Gpus gpus;
  gpus.compute_caps = "3.7\\n";
  for (const char* release : {"13.0", "12.4"}) {
    const auto run = architectures(release, &gpus);
    EXPECT_EQ(run.exit_code, 2) << release << ": " << run.output;
    EXPECT_EQ(run.output, "h2dbench: this GPU (sm_37) needs CUDA 11.8; nvcc " +
                              std::string(release) +
                              " builds for sm_50 and newer: put CUDA 11.8's bin/ first on PATH\n");
  }
  EXPECT_EQ(architectures("11.8", &gpus).output, "[37]\n");
}

TEST(GpuArchitecturesScript, StopsWhenTheToolkitIsOlderThanAGpu) {
  Gpus gpus;
  gpus.compute_caps = "10.0\\n";
  const auto old = architectures("12.4", &gpus);
  EXPECT_EQ(old.exit_code, 2) << old.output;
  EXPECT_NE(old.output.find("this GPU (sm_100) needs CUDA 12.8 or newer"), std::string::npos)
      << old.output;
  EXPECT_EQ(architectures("12.8", &gpus).output, "[100]\n");
}

TEST(GpuArchitecturesScript, LeavesTheChoiceToCMakeWhenItCannotTell) {
  EXPECT_EQ(architectures("13.0", nullptr).output, "[]\n") << "no nvidia-smi";
  Gpus no_driver;
  no_driver.driver = false;
  EXPECT_EQ(architectures("13.0", &no_driver).output, "[]\n");
  Gpus old_driver;
  old_driver.knows_compute = false;
  EXPECT_EQ(architectures("13.0", &old_driver).output, "[native]\n");
}

TEST(GpuArchitecturesScript, TheUsersListWinsAndGarbageIsRefused) {
  Gpus gpus;
  gpus.compute_caps = "6.1\\n";
  EXPECT_EQ(architectures("13.0", &gpus, "H2D_CUDA_ARCHITECTURES='75;90'").output, "[75;90]\n");
  gpus.compute_caps = "[N/A]\\n";
  const auto garbage = architectures("13.0", &gpus);
  EXPECT_EQ(garbage.exit_code, 2);
  EXPECT_NE(garbage.output.find("nvidia-smi reported compute capability '[N/A]'"),
            std::string::npos)
      << garbage.output;
}

}  // namespace
