#include "cli/print.h"

#include <fmt/format.h>

#include <algorithm>

namespace tkm::cli {
namespace {

std::string sizes(const std::map<std::string, int64_t>& s)
{
    std::string out;
    for (const auto& [k, v] : s) {
        out += fmt::format("{}{} = {}", out.empty() ? "" : ", ", k, v);
    }
    return out;
}

std::string verdictWord(report::Verdict v)
{
    std::string up(report::verdictName(v));
    std::transform(up.begin(), up.end(), up.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return up;
}

} // namespace

std::string formatReport(const report::RunReport& r)
{
    std::string out;
    if (r.exercise) {
        out += fmt::format("exercise  {} ({}), kernel `{}`", r.exercise->id, r.exercise->title, r.exercise->kernel);
        if (!r.meta.empty()) {
            out += " with";
            for (const auto& [k, v] : r.meta) {
                out += fmt::format(" {}={}", k, v);
            }
        }
        out += "\n";
    }
    if (!r.executor.empty()) {
        out += fmt::format("executor  {}{}\n", r.executor == "cpu-interpreter" ? "CPU interpreter" : "GPU",
                           r.executor == "cpu-interpreter"
                               ? " (correctness only: timing and DRAM traffic need an NVIDIA GPU)"
                               : "");
    }
    if (r.device) {
        out += fmt::format("device    {} (cc {}, {} SMs, driver {})\n", r.device->name, r.device->cc, r.device->sms,
                           r.device->driver);
    }
    if (r.compile) {
        const auto& c = *r.compile;
        out += fmt::format("compile   {} for {} in {:.1f} ms{}", c.ok ? "ok" : "FAILED", c.arch, c.compileMs,
                           c.cached ? " (cached)" : "");
        if (c.resources) {
            out += fmt::format(", {} registers, {} B static shared, {} B spilled", c.resources->registers,
                               c.resources->sharedBytes, c.resources->spillStoresBytes);
        }
        out += "\n";
        for (const auto& d : c.diagnostics) {
            out += fmt::format("  {}:{}:{}: {}: {}\n", d.file, d.line, d.column, d.severity, d.message);
        }
    }
    if (!r.cases.empty()) {
        out += "cases\n";
        size_t width = 0;
        for (const auto& c : r.cases) {
            width = std::max(width, c.name.size());
        }
        for (const auto& c : r.cases) {
            out += fmt::format("  {:<8} {:<{}}  {}\n", report::verdictName(c.verdict), c.name, width, sizes(c.sizes));
            if (!c.message.empty() && c.verdict != report::CaseVerdict::Pass) {
                out += fmt::format("           {}\n", c.message);
            }
        }
    }
    if (r.fault) {
        const auto& f = *r.fault;
        std::string where;
        if (f.line > 0) {
            where = fmt::format(" at line {}, column {}", f.line, f.column);
        }
        if (!f.programId.empty()) {
            where += fmt::format(", program ({}, {}, {})", f.programId[0], f.programId.size() > 1 ? f.programId[1] : 0,
                                 f.programId.size() > 2 ? f.programId[2] : 0);
        }
        if (!f.lane.empty()) {
            std::string lane;
            for (int64_t v : f.lane) {
                lane += (lane.empty() ? "" : ", ") + std::to_string(v);
            }
            where += ", lane " + (f.lane.size() == 1 ? lane : "(" + lane + ")");
        }
        out += fmt::format("fault     {}{} in case “{}”{}{}\n          {}\n", f.kind,
                           f.buffer.empty() ? "" : " of `" + f.buffer + "`", f.caseName,
                           f.cudaError.empty() ? "" : " (" + f.cudaError + ")", where, f.message);
    }
    if (r.deepCheck) {
        const auto& d = *r.deepCheck;
        out += "deep      " + d.summary + "\n";
        for (const auto& f : d.findings) {
            std::string lines;
            for (int l : f.lines) {
                lines += (lines.empty() ? "" : ",") + std::to_string(l);
            }
            out += fmt::format("  {} {}{}: {}\n", f.tool, f.severity, lines.empty() ? "" : " line " + lines,
                               f.message);
        }
    }
    if (!r.printed.empty()) {
        out += "printed\n";
        for (const auto& line : r.printed) {
            out += "  " + line + "\n";
        }
        if (r.printedDropped > 0) {
            out += fmt::format("  … and {} more lines\n", r.printedDropped);
        }
    }
    if (r.timing) {
        out += fmt::format("timing    median {:.4f} ms (p20 {:.4f}, p80 {:.4f}, min {:.4f}; {} samples{})",
                           r.timing->medianMs, r.timing->p20Ms, r.timing->p80Ms, r.timing->minMs, r.timing->samples,
                           r.timing->settled ? "" : ", not settled");
        if (r.timing->achievedGbps) {
            out += fmt::format(", {:.0f} GB/s", *r.timing->achievedGbps);
        }
        out += "\n";
    }
    if (r.traffic) {
        if (r.traffic->available) {
            out += fmt::format("traffic   DRAM read {} B, stored {} B", r.traffic->dramReadBytes.value_or(0),
                               r.traffic->storedBytes.value_or(0));
            if (r.traffic->idealBytes) {
                out += fmt::format(" (ideal {:.0f} B)", *r.traffic->idealBytes);
            }
            if (r.traffic->efficiency) {
                out += fmt::format(", efficiency {:.2f}", *r.traffic->efficiency);
            }
            out += "\n";
        } else {
            out += fmt::format("traffic   not measured: {}\n", r.traffic->unavailableReason);
        }
    }
    if (r.ceilings) {
        out += fmt::format("ceilings  DRAM {:.0f} GB/s theoretical", r.ceilings->theoreticalGbps);
        if (r.ceilings->measuredCopyGbps) {
            out += fmt::format(", {:.0f} GB/s measured copy", *r.ceilings->measuredCopyGbps);
            if (r.timing && r.timing->achievedGbps && *r.ceilings->measuredCopyGbps > 0) {
                out += fmt::format(" (this kernel: {:.0f} % of it)",
                                   100.0 * *r.timing->achievedGbps / *r.ceilings->measuredCopyGbps);
            }
        }
        if (r.ceilings->peakTensorGflops)
            out += fmt::format("; tensor cores {:.0f} TFLOP/s (table)", *r.ceilings->peakTensorGflops / 1e3);
        if (r.ceilings->measuredTensorGflops)
            out += fmt::format(", {:.0f} TFLOP/s measured (cuBLAS fp16 GEMM)", *r.ceilings->measuredTensorGflops / 1e3);
        out += "\n";
    }
    if (r.roofline) {
        out += fmt::format("roofline  {:.3f} FLOP/byte, {:.1f} GFLOP/s achieved, {}-bound (attainable {:.1f} GFLOP/s "
                           "theoretical",
                           r.roofline->intensityFlopPerByte, r.roofline->achievedGflops, r.roofline->bound,
                           r.roofline->attainableGflopsTheoretical);
        if (r.roofline->attainableGflopsMeasured) {
            out += fmt::format(", {:.1f} measured", *r.roofline->attainableGflopsMeasured);
        }
        out += ")\n";
    }
    for (const auto& b : r.baselines) {
        out += fmt::format("baseline  {}: median {:.4f} ms", b.name, b.medianMs);
        if (b.timeRatio) {
            out += fmt::format(", yours takes {:.2f}× its time", *b.timeRatio);
        }
        if (b.bytesRatio) {
            out += fmt::format(" and moves {:.2f}× its bytes", *b.bytesRatio);
        }
        out += "\n";
    }
    if (r.error) {
        out += fmt::format("error     {}: {}\n", r.error->kind, r.error->message);
    }
    if (r.autotune) {
        out += report::formatAutotuneText(*r.autotune);
    }
    out += fmt::format("verdict   {}{}\n", verdictWord(r.verdict), r.summary.empty() ? "" : " — " + r.summary);
    return out;
}

std::string formatDevices(const nlohmann::json& j)
{
    std::string out;
    const auto& list = j.contains("devices") ? j["devices"] : nlohmann::json::array();
    for (const auto& d : list) {
        out += fmt::format(
            "GPU {}: {}  cc {} ({}), {} SMs, L2 {:.0f} MiB, memory {:.1f} GiB, theoretical DRAM "
            "bandwidth {:.0f} GB/s (2 × {} MHz × {} bit / 8), driver {}\n",
            d.value("ordinal", 0), d.value("name", std::string("?")), d.value("cc", std::string("?")),
            d.value("arch", std::string("?")), d.value("sms", 0), d.value("l2_bytes", 0.0) / (1024.0 * 1024.0),
            d.value("memory_bytes", 0.0) / (1024.0 * 1024.0 * 1024.0), d.value("theoretical_gbps", 0.0),
            d.value("memory_clock_khz", 0) / 1000, d.value("bus_width_bits", 0), d.value("driver", std::string("?")));
    }
    if (j.contains("error") && j["error"].is_object()) {
        out += j["error"].value("message", std::string("No GPU.")) + "\n";
    }
    return out;
}

} // namespace tkm::cli
