#include "engine/measure/ceilings.h"

#include "engine/common/paths.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cctype>
#include <fstream>
#include <sstream>

namespace tkm::measure {
namespace {

/// One NVIDIA product: dense rates (no structured sparsity), FP16 inputs with FP32 accumulation for tensor cores.
struct ProductPeak
{
    std::string_view token; ///< whole-word match in the device name ("H100 PCIe", "A100")
    int ccMajor;            ///< compute capability the product has
    int ccMinor;
    double fp32Tflops;       ///< [TFLOP/s]
    double tensorTflops;     ///< [TFLOP/s]
    std::string_view source; ///< document the two numbers come from
};

// More specific names first: the first whole-word match wins.
// Datasheet tensor figures quoted "with sparsity" are halved to the dense rate.
constexpr std::array kProducts{
    // NVIDIA Tesla V100 GPU Architecture whitepaper (WP-08608-001), Table 1 and V100 datasheet (2020).
    ProductPeak{"V100S", 7, 0, 16.4, 130.0, "NVIDIA V100 datasheet (V100S PCIe)"},
    ProductPeak{"V100-PCIE", 7, 0, 14.0, 112.0, "NVIDIA Tesla V100 whitepaper, Table 1 (PCIe)"},
    ProductPeak{"V100", 7, 0, 15.7, 125.0, "NVIDIA Tesla V100 whitepaper, Table 1 (SXM2)"},
    // NVIDIA T4 Tensor Core GPU datasheet: FP32 8.1 TFLOPS, mixed precision FP16/FP32 65 TFLOPS.
    ProductPeak{"T4", 7, 5, 8.1, 65.0, "NVIDIA T4 datasheet"},
    // NVIDIA A100 Tensor Core GPU datasheet: FP32 19.5, FP16 Tensor Core 312 (624 with sparsity).
    ProductPeak{"A100", 8, 0, 19.5, 312.0, "NVIDIA A100 datasheet"},
    // NVIDIA A30 datasheet: FP32 10.3, FP16 Tensor Core 165 (330 with sparsity).
    ProductPeak{"A30", 8, 0, 10.3, 165.0, "NVIDIA A30 datasheet"},
    // NVIDIA A10 datasheet: FP32 31.2, FP16 Tensor Core 125 (250 with sparsity).
    ProductPeak{"A10", 8, 6, 31.2, 125.0, "NVIDIA A10 datasheet"},
    // NVIDIA A40 datasheet: FP32 37.4, FP16 Tensor Core 149.7 (299.4 with sparsity).
    ProductPeak{"A40", 8, 6, 37.4, 149.7, "NVIDIA A40 datasheet"},
    // NVIDIA RTX A6000 datasheet: FP32 38.7, Tensor 309.7 with sparsity.
    ProductPeak{"RTX A6000", 8, 6, 38.7, 154.8, "NVIDIA RTX A6000 datasheet"},
    // NVIDIA Ampere GA102 GPU Architecture whitepaper, Appendix A (GeForce): FP16 Tensor with FP32 accumulate.
    ProductPeak{"RTX 3090", 8, 6, 35.6, 71.0, "NVIDIA Ampere GA102 whitepaper, Appendix A (RTX 3090)"},
    ProductPeak{"RTX 3080", 8, 6, 29.8, 59.5, "NVIDIA Ampere GA102 whitepaper, Appendix A (RTX 3080)"},
    // NVIDIA L4 datasheet: FP32 30.3, FP16 Tensor Core 242 with sparsity.
    ProductPeak{"L4", 8, 9, 30.3, 121.0, "NVIDIA L4 datasheet"},
    // NVIDIA L40S datasheet: FP32 91.6, FP16 Tensor Core 733 with sparsity (366 dense).
    ProductPeak{"L40S", 8, 9, 91.6, 366.0, "NVIDIA L40S datasheet"},
    // NVIDIA L40 datasheet: FP32 90.5, FP16 Tensor Core 362.1 with sparsity.
    ProductPeak{"L40", 8, 9, 90.5, 181.0, "NVIDIA L40 datasheet"},
    // NVIDIA Ada Lovelace GPU Architecture whitepaper, Appendix A: FP16 Tensor with FP32 accumulate.
    ProductPeak{"RTX 4090", 8, 9, 82.6, 165.2, "NVIDIA Ada Lovelace whitepaper, Appendix A (RTX 4090)"},
    ProductPeak{"RTX 4080", 8, 9, 48.7, 97.5, "NVIDIA Ada Lovelace whitepaper, Appendix A (RTX 4080)"},
    // NVIDIA H100 Tensor Core GPU datasheet: SXM FP32 67, FP16 Tensor 1,979 with sparsity; PCIe 51 / 1,513;
    // NVL 60 / 1,671.
    ProductPeak{"H100 PCIe", 9, 0, 51.0, 756.0, "NVIDIA H100 datasheet (PCIe)"},
    ProductPeak{"H100 NVL", 9, 0, 60.0, 835.0, "NVIDIA H100 datasheet (NVL)"},
    ProductPeak{"H100", 9, 0, 67.0, 989.0, "NVIDIA H100 datasheet (SXM)"},
    // NVIDIA H200 Tensor Core GPU datasheet: SXM FP32 67, FP16 Tensor 1,979 with sparsity; NVL 60 / 1,671.
    ProductPeak{"H200 NVL", 9, 0, 60.0, 835.0, "NVIDIA H200 datasheet (NVL)"},
    ProductPeak{"H200", 9, 0, 67.0, 989.0, "NVIDIA H200 datasheet (SXM)"},
    // NVIDIA GH200 Grace Hopper Superchip datasheet: the H100/H200 SXM GPU rates.
    ProductPeak{"GH200", 9, 0, 67.0, 989.0, "NVIDIA GH200 datasheet"},
    // NVIDIA HGX B200 datasheet (8-GPU totals: FP32 600 TFLOPS, FP16 Tensor 36 PFLOPS with sparsity) ÷ 8.
    ProductPeak{"B200", 10, 0, 75.0, 2250.0, "NVIDIA HGX B200 datasheet, 8-GPU totals / 8"},
};

/// Per-SM rates of a compute capability, for chips not in the product table.
struct ArchRate
{
    int ccMajor;
    int ccMinor;
    int fp32LanesPerSm;          ///< FP32 FMA per clock per SM
    int tensorFlopPerClockPerSm; ///< dense FP16-in/FP32-acc tensor FLOP per clock per SM (lower bound of the family)
};

// FP32 lanes: CUDA C++ Programming Guide, "Arithmetic Instructions" throughput table (32-bit floating-point
// add, multiply, multiply-add per clock per SM). Tensor FLOP/clock/SM: derived from the whitepaper rates above
// (e.g. A100 312 TFLOPS / (108 SMs × 1.41 GHz) = 2048; H100 SXM 989 / (132 × 1.83 GHz) = 4096; GeForce parts
// with half-rate FP32 accumulation give the lower figures of 8.6 and 8.9).
constexpr std::array kArchRates{
    ArchRate{7, 0, 64, 1024}, ArchRate{7, 5, 64, 1024}, ArchRate{8, 0, 64, 2048},  ArchRate{8, 6, 128, 512},
    ArchRate{8, 7, 128, 512}, ArchRate{8, 9, 128, 512}, ArchRate{9, 0, 128, 4096},
};

bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

/// True when `token` occurs in `name` (case-insensitive) not glued to letters or digits on either side,
/// so "A10" matches "NVIDIA A10" but not "NVIDIA A100-SXM4-80GB".
bool containsWord(std::string_view name, std::string_view token)
{
    auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    for (std::size_t pos = 0; pos + token.size() <= name.size(); ++pos) {
        bool same = true;
        for (std::size_t i = 0; i < token.size() && same; ++i)
            same = lower(name[pos + i]) == lower(token[i]);
        if (!same)
            continue;
        const bool leftOk = pos == 0 || !isWordChar(name[pos - 1]);
        const std::size_t end = pos + token.size();
        const bool rightOk = end == name.size() || !isWordChar(name[end]);
        if (leftOk && rightOk)
            return true;
    }
    return false;
}

std::string ccText(const DeviceFacts& d)
{
    return std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor);
}

std::string fmtNumber(double v)
{
    std::ostringstream s;
    s.precision(4);
    s << v;
    return s.str();
}

} // namespace

double theoreticalDramGbps(int memoryClockKHz, int busWidthBits)
{
    if (memoryClockKHz <= 0 || busWidthBits <= 0)
        return 0;
    return 2.0 * static_cast<double>(memoryClockKHz) * 1e3 * static_cast<double>(busWidthBits) / 8.0 / 1e9;
}

PeakRates lookupPeakRates(const DeviceFacts& device)
{
    PeakRates r;
    for (const ProductPeak& p : kProducts) {
        if (p.ccMajor == device.ccMajor && p.ccMinor == device.ccMinor && containsWord(device.name, p.token)) {
            r.fp32Gflops = p.fp32Tflops * 1e3;
            r.tensorGflops = p.tensorTflops * 1e3;
            r.fromTable = true;
            r.source = std::string(p.source);
            return r;
        }
    }
    for (const ArchRate& a : kArchRates) {
        if (a.ccMajor == device.ccMajor && a.ccMinor == device.ccMinor && device.sms > 0 && device.smClockKHz > 0) {
            const double clockGhz = device.smClockKHz / 1e6;
            r.fp32Gflops = device.sms * a.fp32LanesPerSm * 2.0 * clockGhz;
            r.tensorGflops = device.sms * static_cast<double>(a.tensorFlopPerClockPerSm) * clockGhz;
            r.source = "\"" + device.name + "\" is not in the product table: peaks estimated as " +
                       std::to_string(device.sms) + " SMs x per-SM rate of compute capability " + ccText(device) +
                       " x " + fmtNumber(clockGhz) + " GHz peak clock";
            return r;
        }
    }
    r.source = "\"" + device.name + "\" (compute capability " + ccText(device) +
               ") is not in the table of peak rates: no FP32 or tensor-core ceiling is shown";
    return r;
}

std::filesystem::path calibrationCachePath(const std::filesystem::path& cacheRoot, const DeviceFacts& device,
                                           std::string_view driverVersion)
{
    std::string key = device.uuid.empty() ? device.name : device.uuid;
    key += "-";
    key += driverVersion;
    for (char& c : key)
        if (!isWordChar(c) && c != '-' && c != '.')
            c = '_';
    return cacheRoot / "calibration" / (key + ".json");
}

std::optional<CopyCalibration> loadCalibration(const std::filesystem::path& file)
{
    std::ifstream in(file);
    if (!in)
        return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("copy_gbps") || !j["copy_gbps"].is_number())
        return std::nullopt;
    const auto version = j.find("version");
    if (version == j.end() || !version->is_number_integer() || version->get<int>() != kCalibrationVersion)
        return std::nullopt;
    auto number = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    auto text = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    CopyCalibration c;
    c.copyGbps = number("copy_gbps");
    c.bytes = static_cast<long long>(number("bytes"));
    c.medianMs = number("median_ms");
    c.kernel = text("kernel");
    c.tensorGflops = number("tensor_gflops");
    c.tensorSize = static_cast<int>(number("tensor_size"));
    c.tensorMedianMs = number("tensor_median_ms");
    c.tensorNote = text("tensor_note");
    c.measuredAt = text("measured_at");
    if (c.copyGbps <= 0)
        return std::nullopt;
    return c;
}

engine::Status saveCalibration(const std::filesystem::path& file, const CopyCalibration& calibration)
{
    const nlohmann::json j = {{"version", kCalibrationVersion},
                              {"copy_gbps", calibration.copyGbps},
                              {"bytes", calibration.bytes},
                              {"median_ms", calibration.medianMs},
                              {"kernel", calibration.kernel},
                              {"tensor_gflops", calibration.tensorGflops},
                              {"tensor_size", calibration.tensorSize},
                              {"tensor_median_ms", calibration.tensorMedianMs},
                              {"tensor_note", calibration.tensorNote},
                              {"measured_at", calibration.measuredAt}};
    return engine::writeFileAtomic(file, j.dump(2) + "\n");
}

Ceilings makeCeilings(const DeviceFacts& device, const std::optional<CopyCalibration>& calibration)
{
    Ceilings c;
    c.theoreticalGbps = theoreticalDramGbps(device.memoryClockKHz, device.busWidthBits);
    const PeakRates peaks = lookupPeakRates(device);
    c.peakFp32Gflops = peaks.fp32Gflops;
    c.peakTensorGflops = peaks.tensorGflops;
    c.source = "peak rates: " + peaks.source + "; DRAM: 2 x " + fmtNumber(device.memoryClockKHz / 1e3) + " MHz x " +
               std::to_string(device.busWidthBits) + " bit / 8";
    if (calibration) {
        c.measuredCopyGbps = calibration->copyGbps;
        c.source += "; measured bandwidth: best of the calibration's streaming kernels, " +
                    (calibration->kernel.empty() ? std::string("copy") : calibration->kernel) + " on " +
                    fmtNumber(calibration->bytes / 1048576.0) + " MiB buffers, (read + written bytes) / fastest sample";
        c.measuredTensorGflops = calibration->tensorGflops;
        if (calibration->tensorGflops > 0)
            c.source += "; measured tensor cores: cuBLAS fp16 GEMM (fp32 accumulate) " +
                        std::to_string(calibration->tensorSize) + "^3, 2 m n k / median time";
        else if (!calibration->tensorNote.empty())
            c.source += "; no measured tensor-core figure: " + calibration->tensorNote;
    }
    return c;
}

} // namespace tkm::measure
