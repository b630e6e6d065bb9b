#pragma once
// Shared helpers of the progress-store tests: a temporary folder and a run report shaped like docs/run-report.md.

#include "engine/report/run_report.h"
#include "tests/support/temp_dir.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace tkm::progress::test {

/// The tests' temporary folder (tests/support/temp_dir.h).
using tkm::test::TempDir;

/// The bytes of a file.
inline std::string readBytes(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Writes bytes to a file, replacing it.
inline void writeBytes(const std::filesystem::path& file, const std::string& bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// A run report with the fields the store reads (docs/run-report.md); figures in the range of an H200 vector add.
inline nlohmann::json sampleReportJson(const std::string& verdict, double medianMs, double gbps)
{
    return nlohmann::json{
        {"schema", "tkm-run-report/1"},
        {"exercise", {{"id", "vector-add"}, {"title", "Masked vector add"}, {"kernel", "vector_add"}}},
        {"meta", {{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}}},
        {"device", {{"name", "NVIDIA H200"}, {"cc", "9.0"}}},
        {"verdict", verdict},
        {"timing", {{"median_ms", medianMs}, {"achieved_gbps", gbps}}},
        {"traffic",
         {{"available", true},
          {"dram_read_bytes", 536900000},
          {"stored_bytes", 268440000},
          {"ideal_bytes", 805306368}}},
        {"ceilings", {{"theoretical_gbps", 4812.0}, {"measured_copy_gbps", 4250.0}}}};
}

/// sampleReportJson() as the typed report (report::from_json).
inline report::RunReport sampleReport(const std::string& verdict, double medianMs, double gbps)
{
    return sampleReportJson(verdict, medianMs, gbps).get<report::RunReport>();
}

} // namespace tkm::progress::test
