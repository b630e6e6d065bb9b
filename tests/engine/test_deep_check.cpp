// engine/runner/deep_check: compute-sanitizer logs become findings on the learner's lines, and a missing
// compute-sanitizer is said plainly (issue 14 item 5). No GPU: the logs are written here in the tools' format.

#include "engine/runner/deep_check.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tkm;

TEST(DeepCheckLog, RacecheckHazardNamesBothLines)
{
    const std::string log = "========= COMPUTE-SANITIZER\n"
                            "========= Error: Race reported between Read access at vector_add+0x1c0 in "
                            "/tmp/x/race.cu:11\n"
                            "=========     and Write access at vector_add+0x1f0 in /tmp/x/race.cu:12 [96 hazards]\n"
                            "=========\n"
                            "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    const auto f = runner::parseSanitizerLog("racecheck", log, "race.cu");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].tool, "racecheck");
    EXPECT_EQ(f[0].severity, "error");
    EXPECT_EQ(f[0].lines, (std::vector<int>{11, 12}));
    EXPECT_NE(f[0].message.find("a read at line 11 and a write at line 12"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("96 hazards"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("__syncthreads()"), std::string::npos) << f[0].message;
}

TEST(DeepCheckLog, HazardReportsOfOneRaceAreOneFinding)
{
    // racecheck --racecheck-report hazard, as seen on an H200 (CUDA 13.0): one report per byte of the slot.
    std::string log = "========= COMPUTE-SANITIZER\n";
    for (int b = 0; b < 4; ++b) {
        log += "========= Error: Potential WAR hazard detected at __shared__ 0x50" + std::to_string(b) +
               " in block (4,0,0) :\n"
               "=========     Read Thread (99,0,0) at vector_add+0x1e0 in race.cu:11\n"
               "=========     Write Thread (67,0,0) at vector_add+0x1f0 in race.cu:12\n"
               "=========     Current Value : 192, Incoming Value : 245\n"
               "=========\n";
    }
    log += "========= RACECHECK SUMMARY: 4 hazards displayed (4 errors, 0 warnings)\n";
    const auto f = runner::parseSanitizerLog("racecheck", log, "race.cu");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].lines, (std::vector<int>{11, 12}));
    EXPECT_NE(f[0].message.find("write-after-read hazard in block (4,0,0)"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("a read at line 11 by thread (99,0,0) and a write at line 12 by thread (67,0,0)"),
              std::string::npos)
        << f[0].message;
    EXPECT_NE(f[0].message.find("3 more reports like it"), std::string::npos) << f[0].message;
}

TEST(DeepCheckLog, MemcheckReportKeepsThreadAndAddress)
{
    const std::string log = "========= COMPUTE-SANITIZER\n"
                            "========= Invalid __global__ read of size 4 bytes\n"
                            "=========     at vector_add+0x110 in no-mask.cu:14\n"
                            "=========     by thread (1000,0,0) in block (0,0,0)\n"
                            "=========     Access at 0x7f0000000fa0 is out of bounds\n"
                            "=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size "
                            "4000 bytes\n"
                            "=========\n"
                            "========= ERROR SUMMARY: 1 error\n";
    const auto f = runner::parseSanitizerLog("memcheck", log, "no-mask.cu");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].lines, (std::vector<int>{14}));
    EXPECT_NE(f[0].message.find("Invalid __global__ read of size 4 bytes at line 14"), std::string::npos)
        << f[0].message;
    EXPECT_NE(f[0].message.find("by thread (1000,0,0)"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("out of bounds"), std::string::npos) << f[0].message;
}

TEST(DeepCheckLog, LinesOfOtherFilesAreLeftOut)
{
    const std::string log = "========= Barrier error detected. Divergent thread(s) in warp\n"
                            "=========     at __syncthreads+0x10 in /usr/local/cuda/include/crt/device.h:99\n"
                            "=========     by thread (3,0,0) in block (0,0,0)\n"
                            "=========     at k+0x40 in kernel.cu:7\n";
    const auto f = runner::parseSanitizerLog("synccheck", log, "kernel.cu");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].lines, (std::vector<int>{7}));
}

TEST(DeepCheckLog, ACleanRunHasNoFindings)
{
    EXPECT_TRUE(runner::parseSanitizerLog("initcheck", "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n",
                                          "kernel.cu")
                    .empty());
}

TEST(DeepCheck, WithoutComputeSanitizerItSaysSoPlainly)
{
    ::setenv("TKM_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
    runner::Job job;
    job.sourceName = "kernel.cu";
    const report::DeepCheckInfo d = runner::deepCheck(job, 0, "n = 1", "/nonexistent/tkm-run");
    ::unsetenv("TKM_COMPUTE_SANITIZER");
    EXPECT_FALSE(d.available);
    EXPECT_NE(d.unavailableReason.find("compute-sanitizer"), std::string::npos) << d.unavailableReason;
    EXPECT_EQ(d.summary, d.unavailableReason);
    EXPECT_TRUE(d.findings.empty());
}
