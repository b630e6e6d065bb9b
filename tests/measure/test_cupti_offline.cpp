// CUPTI metric names resolve through the profiler host API with only a chip name (no GPU, no driver), and the
// sentences for missing counters say what happened and how to fix it.
#include "engine/measure/traffic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace tkm::measure;

TEST(TrafficMetrics, OneTableWithTheIssueMetrics)
{
    std::vector<std::string> names;
    for (const MetricDef& m : trafficMetrics())
        names.emplace_back(m.name);
    const std::vector<std::string> expected{"dram__bytes_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
                                            "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct",
                                            "gpu__time_duration.sum"};
    EXPECT_EQ(names, expected);
}

#if TKM_ENABLE_CUPTI
class OfflineChip : public ::testing::TestWithParam<const char*>
{
};

TEST_P(OfflineChip, EveryMetricResolvesThroughTheHostApi)
{
    const std::string extra[] = {"dram__bytes_reed.sum"}; // a typo must not resolve
    auto res = resolveMetricsOffline(GetParam(), extra);
    ASSERT_TRUE(res.ok()) << res.error().message << " | " << res.error().detail;
    ASSERT_EQ(res->size(), trafficMetrics().size() + 1);
    for (size_t i = 0; i < trafficMetrics().size(); ++i) {
        const MetricResolution& m = (*res)[i];
        EXPECT_TRUE(m.resolved) << GetParam() << ": " << m.name;
        EXPECT_FALSE(m.description.empty()) << m.name;
    }
    EXPECT_EQ((*res)[0].dimUnit, "byte");       // dram__bytes_read.sum
    EXPECT_EQ((*res)[1].dimUnit, "l2_sector");  // × 32 bytes
    EXPECT_EQ((*res)[4].dimUnit, "nanosecond"); // gpu__time_duration.sum
    EXPECT_FALSE(res->back().resolved) << "typo resolved";
}

INSTANTIATE_TEST_SUITE_P(Chips, OfflineChip, ::testing::Values("GH100", "GA100", "AD102"));

TEST(OfflineChip, UnknownChipNamesTheSupportedOnes)
{
    auto res = resolveMetricsOffline("GX999");
    ASSERT_FALSE(res.ok());
    EXPECT_NE(res.error().message.find("GX999"), std::string::npos) << res.error().message;
    EXPECT_NE(res.error().message.find("GH100"), std::string::npos) << res.error().message;
}

TEST(OfflineChip, SupportedChipsIncludeHopperAndAmpere)
{
    auto chips = supportedChips();
    ASSERT_TRUE(chips.ok()) << chips.error().message;
    EXPECT_NE(std::find(chips->begin(), chips->end(), "GH100"), chips->end());
    EXPECT_NE(std::find(chips->begin(), chips->end(), "GA100"), chips->end());
}
#endif

TEST(TrafficUnavailable, PermissionDeniedExplainsErrNvgpuctrperm)
{
    const std::string s = unavailableReasonFor(35, "cuptiRangeProfilerEnable", "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
    EXPECT_NE(s.find("ERR_NVGPUCTRPERM"), std::string::npos) << s;
    EXPECT_NE(s.find("CAP_SYS_ADMIN"), std::string::npos) << s;
    EXPECT_NE(s.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << s;
    EXPECT_NE(s.find("root"), std::string::npos) << s;
    EXPECT_NE(s.find("Timing and effective bandwidth are still measured."), std::string::npos) << s;
}

TEST(TrafficUnavailable, UnsupportedDevicesSaySo)
{
    EXPECT_NE(unavailableReasonFor(43, "cuptiProfilerDeviceSupported").find("MIG"), std::string::npos);
    EXPECT_NE(unavailableReasonFor(42, "cuptiProfilerDeviceSupported").find("CMP"), std::string::npos);
    EXPECT_NE(unavailableReasonFor(33, "cuptiProfilerDeviceSupported").find("virtual GPU"), std::string::npos);
    EXPECT_NE(unavailableReasonFor(40, "cuptiProfilerDeviceSupported").find("administrator"), std::string::npos);
    EXPECT_NE(unavailableReasonFor(26, "cuptiRangeProfilerEnable").find("another profiler"), std::string::npos);
    const std::string other = unavailableReasonFor(999, "cuptiRangeProfilerDecodeData", "CUPTI_ERROR_UNKNOWN (999)");
    EXPECT_NE(other.find("cuptiRangeProfilerDecodeData"), std::string::npos) << other;
    EXPECT_NE(other.find("CUPTI_ERROR_UNKNOWN"), std::string::npos) << other;
}

TEST(TrafficUnavailable, ProfilerWithoutAGpuReportsUnavailableAndStillWorks)
{
    // No context: set-up fails at the first call that needs a device; the profiler still answers measure().
    auto p = TrafficProfiler::create(nullptr, 0, 0);
    ASSERT_NE(p, nullptr);
    EXPECT_FALSE(p->available());
    EXPECT_FALSE(p->unavailableReason().empty());
    EXPECT_NE(p->unavailableReason().find("still measured"), std::string::npos) << p->unavailableReason();
    Workload w;
    w.idealBytes = 12;
    auto r = p->measure(w, nullptr, {}, 0);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->info.available);
    EXPECT_EQ(r->info.unavailableReason, p->unavailableReason());
    EXPECT_EQ(r->info.idealBytes, 12);
    EXPECT_FALSE(r->info.dramReadBytes); // no counter figure without counters
}
