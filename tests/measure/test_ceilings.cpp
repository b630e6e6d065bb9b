// Ceilings table lookup (known, estimated, unknown chip), theoretical bandwidth, calibration cache, roofline math.
#include "engine/measure/ceilings.h"
#include "engine/measure/roofline.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace tkm::measure;

namespace {

DeviceFacts h200()
{
    DeviceFacts d;
    d.name = "NVIDIA H200";
    d.ccMajor = 9;
    d.ccMinor = 0;
    d.sms = 132;
    d.smClockKHz = 1980000;
    d.memoryClockKHz = 3201000;
    d.busWidthBits = 6016;
    d.l2Bytes = 62914560;
    return d;
}

} // namespace

TEST(Ceilings, TheoreticalBandwidthOfTheH200)
{
    // ../shared/DESIGN.md: 2 × 3201 MHz × 6016 bit / 8 = 4.81 TB/s.
    EXPECT_NEAR(theoreticalDramGbps(3201000, 6016), 4814.304, 1e-6);
    EXPECT_EQ(theoreticalDramGbps(0, 6016), 0);
    EXPECT_EQ(theoreticalDramGbps(3201000, 0), 0);
}

TEST(Ceilings, H200FromTheProductTable)
{
    PeakRates r = lookupPeakRates(h200());
    EXPECT_TRUE(r.fromTable);
    EXPECT_DOUBLE_EQ(r.fp32Gflops, 67000);
    EXPECT_DOUBLE_EQ(r.tensorGflops, 989000);
    EXPECT_NE(r.source.find("H200 datasheet"), std::string::npos) << r.source;
}

TEST(Ceilings, WholeWordMatchKeepsA10AndA100Apart)
{
    DeviceFacts a100{.name = "NVIDIA A100-SXM4-80GB", .ccMajor = 8, .ccMinor = 0, .sms = 108, .smClockKHz = 1410000};
    DeviceFacts a10{.name = "NVIDIA A10", .ccMajor = 8, .ccMinor = 6, .sms = 72, .smClockKHz = 1695000};
    EXPECT_DOUBLE_EQ(lookupPeakRates(a100).tensorGflops, 312000);
    EXPECT_DOUBLE_EQ(lookupPeakRates(a10).tensorGflops, 125000);
    DeviceFacts pcie{.name = "NVIDIA H100 PCIe", .ccMajor = 9, .ccMinor = 0, .sms = 114, .smClockKHz = 1755000};
    EXPECT_DOUBLE_EQ(lookupPeakRates(pcie).fp32Gflops, 51000);
    DeviceFacts l40s{.name = "NVIDIA L40S", .ccMajor = 8, .ccMinor = 9, .sms = 142, .smClockKHz = 2520000};
    EXPECT_DOUBLE_EQ(lookupPeakRates(l40s).fp32Gflops, 91600);
    DeviceFacts rtx{.name = "NVIDIA GeForce RTX 4090", .ccMajor = 8, .ccMinor = 9, .sms = 128, .smClockKHz = 2520000};
    EXPECT_DOUBLE_EQ(lookupPeakRates(rtx).fp32Gflops, 82600);
}

TEST(Ceilings, ChipNotInTableIsEstimatedFromItsComputeCapability)
{
    // An Ada part that is not in the table: 46 SMs × 128 lanes × 2 × 2.5 GHz.
    DeviceFacts d{.name = "NVIDIA GeForce RTX 4060 Ti", .ccMajor = 8, .ccMinor = 9, .sms = 34, .smClockKHz = 2535000};
    PeakRates r = lookupPeakRates(d);
    EXPECT_FALSE(r.fromTable);
    EXPECT_NEAR(r.fp32Gflops, 34 * 128 * 2 * 2.535, 1e-6);
    EXPECT_NE(r.source.find("not in the product table"), std::string::npos) << r.source;
}

TEST(Ceilings, UnknownComputeCapabilitySaysSo)
{
    DeviceFacts d{.name = "NVIDIA Future GPU", .ccMajor = 13, .ccMinor = 0, .sms = 200, .smClockKHz = 2000000};
    PeakRates r = lookupPeakRates(d);
    EXPECT_FALSE(r.fromTable);
    EXPECT_EQ(r.fp32Gflops, 0);
    EXPECT_EQ(r.tensorGflops, 0);
    EXPECT_NE(r.source.find("is not in the table"), std::string::npos) << r.source;
    EXPECT_NE(r.source.find("13.0"), std::string::npos) << r.source;
}

TEST(Ceilings, CalibrationCacheRoundTrip)
{
    const auto root = std::filesystem::temp_directory_path() / ("tkm-measure-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root);
    DeviceFacts d = h200();
    d.uuid = "NVIDIA H200-143771MiB";
    const auto file = calibrationCachePath(root, d, "13.0");
    EXPECT_EQ(file.parent_path(), root / "calibration");
    EXPECT_EQ(file.filename().string().find('/'), std::string::npos);
    EXPECT_FALSE(loadCalibration(file).has_value());

    CopyCalibration c{.copyGbps = 4250.5, .bytes = 268435456, .medianMs = 0.1263, .measuredAt = "2026-11-30T04:40:00Z"};
    ASSERT_TRUE(saveCalibration(file, c).ok());
    auto back = loadCalibration(file);
    ASSERT_TRUE(back.has_value());
    EXPECT_DOUBLE_EQ(back->copyGbps, 4250.5);
    EXPECT_EQ(back->bytes, 268435456);

    std::ofstream(file) << "{ not json";
    EXPECT_FALSE(loadCalibration(file).has_value()); // a damaged cache is measured again
    std::filesystem::remove_all(root);
}

TEST(Ceilings, CalibrationCacheKeepsTheTensorFigureAndRemeasuresOldVersions)
{
    const auto root = std::filesystem::temp_directory_path() / ("tkm-measure-test-v-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root);
    const auto file = calibrationCachePath(root, h200(), "13.0");
    CopyCalibration c{.copyGbps = 4301,
                      .bytes = 1073741824,
                      .medianMs = 0.75,
                      .kernel = "add (2 reads, 1 write), one tile per block, 256 threads x 2 vectors",
                      .tensorGflops = 655000,
                      .tensorSize = 8192,
                      .tensorMedianMs = 1.68};
    ASSERT_TRUE(saveCalibration(file, c).ok());
    auto back = loadCalibration(file);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->kernel, c.kernel);
    EXPECT_DOUBLE_EQ(back->tensorGflops, 655000);
    EXPECT_EQ(back->tensorSize, 8192);
    EXPECT_DOUBLE_EQ(back->tensorMedianMs, 1.68);
    // A file of the first format (one grid-stride copy, no version): its figure understated the ceiling.
    std::ofstream(file) << R"({"copy_gbps": 3992, "bytes": 268435456, "median_ms": 0.13})";
    EXPECT_FALSE(loadCalibration(file).has_value());
    std::filesystem::remove_all(root);
}

TEST(Ceilings, MakeCeilingsCombinesAttributesTableAndCalibration)
{
    CopyCalibration c{.copyGbps = 4250, .bytes = 268435456};
    Ceilings ce = makeCeilings(h200(), c);
    EXPECT_NEAR(ce.theoreticalGbps, 4814.304, 1e-6);
    EXPECT_DOUBLE_EQ(ce.measuredCopyGbps, 4250);
    EXPECT_DOUBLE_EQ(ce.peakFp32Gflops, 67000);
    EXPECT_NE(ce.source.find("256 MiB"), std::string::npos) << ce.source;
    EXPECT_EQ(makeCeilings(h200(), std::nullopt).measuredCopyGbps, 0);
    EXPECT_EQ(ce.measuredTensorGflops, 0);
    EXPECT_EQ(ce.source.find("cuBLAS"), std::string::npos) << ce.source;

    c.tensorGflops = 655000;
    c.tensorSize = 8192;
    ce = makeCeilings(h200(), c);
    EXPECT_DOUBLE_EQ(ce.measuredTensorGflops, 655000);
    EXPECT_DOUBLE_EQ(ce.peakTensorGflops, 989000); // the table figure stays beside it
    EXPECT_NE(ce.source.find("cuBLAS fp16 GEMM (fp32 accumulate) 8192^3"), std::string::npos) << ce.source;
    c.tensorGflops = 0;
    c.tensorNote = "libcublas.so.13 was not found";
    EXPECT_NE(makeCeilings(h200(), c).source.find("no measured tensor-core figure: libcublas"), std::string::npos);
}

TEST(Roofline, VectorAddIsMemoryBound)
{
    // Vector add, n = 2^26: 1 FLOP per element, 12 bytes ideal → 1/12 FLOP/B.
    Ceilings ce{.theoreticalGbps = 4800, .measuredCopyGbps = 4250, .peakFp32Gflops = 67000};
    const double n = 67108864;
    RooflinePoint p = placeOnRoofline(n, 12 * n, 0.243, ce);
    EXPECT_NEAR(p.intensityFlopPerByte, 1.0 / 12, 1e-12);
    EXPECT_NEAR(p.achievedGflops, n / 0.243e-3 / 1e9, 1e-9);
    EXPECT_NEAR(p.attainableGflopsTheoretical, 4800.0 / 12, 1e-9);
    EXPECT_NEAR(p.attainableGflopsMeasured, 4250.0 / 12, 1e-9);
    EXPECT_NEAR(p.ridgeFlopPerByte, 67000.0 / 4250, 1e-9);
    EXPECT_EQ(p.bound, Bound::Memory);
    EXPECT_EQ(boundName(p.bound), "memory");
}

TEST(Roofline, LargeGemmIsComputeBound)
{
    // 4096³ GEMM in fp16: 2·K·M·N FLOP over 3·4096²·2 bytes ≈ 1365 FLOP/B, above the tensor ridge.
    Ceilings ce{.theoreticalGbps = 4800, .measuredCopyGbps = 4250, .peakFp32Gflops = 67000, .peakTensorGflops = 989000};
    const double n = 4096;
    RooflinePoint p = placeOnRoofline(2 * n * n * n, 3 * n * n * 2, 0.2, ce, /*useTensorPeak=*/true);
    EXPECT_EQ(p.bound, Bound::Compute);
    EXPECT_DOUBLE_EQ(p.attainableGflopsTheoretical, 989000);
    EXPECT_DOUBLE_EQ(p.attainableGflopsMeasured, 989000);
    // With the calibration's GEMM rate, the measured roof of a dot kernel is that rate, not the table's.
    ce.measuredTensorGflops = 655000;
    p = placeOnRoofline(2 * n * n * n, 3 * n * n * 2, 0.2, ce, /*useTensorPeak=*/true);
    EXPECT_DOUBLE_EQ(p.attainableGflopsTheoretical, 989000);
    EXPECT_DOUBLE_EQ(p.attainableGflopsMeasured, 655000);
    // An FP32 kernel keeps the FP32 peak.
    p = placeOnRoofline(2 * n * n * n, 3 * n * n * 4, 2.0, ce);
    EXPECT_DOUBLE_EQ(p.attainableGflopsMeasured, 67000);
}

TEST(Roofline, AttainableIsTheLowerRoof)
{
    EXPECT_DOUBLE_EQ(attainableGflops(1.0, 1000, 67000), 1000);
    EXPECT_DOUBLE_EQ(attainableGflops(100.0, 1000, 67000), 67000);
    EXPECT_DOUBLE_EQ(attainableGflops(100.0, 1000, 0), 100000); // no compute roof known
}

TEST(Roofline, NoIdealBytesGivesNoIntensity)
{
    Ceilings ce{.theoreticalGbps = 4800, .peakFp32Gflops = 67000};
    RooflinePoint p = placeOnRoofline(1e9, 0, 1.0, ce);
    EXPECT_EQ(p.intensityFlopPerByte, 0);
    EXPECT_EQ(p.bound, Bound::Unknown);
    EXPECT_NEAR(p.achievedGflops, 1000, 1e-9);
    // Without calibration the measured roof is absent and the ridge uses the theoretical bandwidth.
    RooflinePoint q = placeOnRoofline(1e9, 1e9, 1.0, ce);
    EXPECT_EQ(q.attainableGflopsMeasured, 0);
    EXPECT_NEAR(q.ridgeFlopPerByte, 67000.0 / 4800, 1e-12);
}
