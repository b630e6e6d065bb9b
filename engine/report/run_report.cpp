#include "engine/report/run_report.h"

#include <cmath>
#include <ctime>
#include <limits>

namespace tkm::report {
namespace {

using json = nlohmann::json;

template <class T> void putOpt(json& j, const char* key, const std::optional<T>& v)
{
    if (v) {
        j[key] = *v;
    }
}

void putStr(json& j, const char* key, const std::string& v)
{
    if (!v.empty()) {
        j[key] = v;
    }
}

template <class T> void getOpt(const json& j, const char* key, std::optional<T>& v)
{
    if (auto it = j.find(key); it != j.end() && !it->is_null()) {
        v = it->get<T>();
    } else {
        v.reset();
    }
}

template <class T> void getOr(const json& j, const char* key, T& v)
{
    if (auto it = j.find(key); it != j.end() && !it->is_null()) {
        v = it->get<T>();
    }
}

// JSON has no NaN or infinity: such values travel as the strings "nan", "inf", "-inf".
json encodeNumber(double v)
{
    if (std::isnan(v)) {
        return "nan";
    }
    if (std::isinf(v)) {
        return v > 0 ? "inf" : "-inf";
    }
    return v;
}

double decodeNumber(const json& j)
{
    if (j.is_string()) {
        const auto s = j.get<std::string>();
        if (s == "inf") {
            return std::numeric_limits<double>::infinity();
        }
        if (s == "-inf") {
            return -std::numeric_limits<double>::infinity();
        }
        return std::numeric_limits<double>::quiet_NaN();
    }
    return j.get<double>();
}

} // namespace

std::string utcNow()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

void to_json(json& j, const ExerciseInfo& v)
{
    j = {{"id", v.id}, {"title", v.title}, {"kernel", v.kernel}};
}

void from_json(const json& j, ExerciseInfo& v)
{
    j.at("id").get_to(v.id);
    getOr(j, "title", v.title);
    getOr(j, "kernel", v.kernel);
}

void to_json(json& j, const DeviceInfo& v)
{
    j = {{"name", v.name},
         {"cc", v.cc},
         {"sms", v.sms},
         {"l2_bytes", v.l2Bytes},
         {"memory_bytes", v.memoryBytes},
         {"driver", v.driver},
         {"theoretical_gbps", v.theoreticalGbps}};
}

void from_json(const json& j, DeviceInfo& v)
{
    j.at("name").get_to(v.name);
    getOr(j, "cc", v.cc);
    getOr(j, "sms", v.sms);
    getOr(j, "l2_bytes", v.l2Bytes);
    getOr(j, "memory_bytes", v.memoryBytes);
    getOr(j, "driver", v.driver);
    getOr(j, "theoretical_gbps", v.theoreticalGbps);
}

void to_json(json& j, const DiagnosticInfo& v)
{
    j = {{"file", v.file}, {"line", v.line}, {"column", v.column}, {"severity", v.severity}, {"message", v.message}};
}

void from_json(const json& j, DiagnosticInfo& v)
{
    getOr(j, "file", v.file);
    getOr(j, "line", v.line);
    getOr(j, "column", v.column);
    j.at("severity").get_to(v.severity);
    j.at("message").get_to(v.message);
}

void to_json(json& j, const ResourcesInfo& v)
{
    j = {{"registers", v.registers},
         {"shared_bytes", v.sharedBytes},
         {"local_bytes", v.localBytes},
         {"spill_stores_bytes", v.spillStoresBytes},
         {"spill_loads_bytes", v.spillLoadsBytes},
         {"max_threads_per_block", v.maxThreadsPerBlock}};
}

void from_json(const json& j, ResourcesInfo& v)
{
    getOr(j, "registers", v.registers);
    getOr(j, "shared_bytes", v.sharedBytes);
    getOr(j, "local_bytes", v.localBytes);
    getOr(j, "spill_stores_bytes", v.spillStoresBytes);
    getOr(j, "spill_loads_bytes", v.spillLoadsBytes);
    getOr(j, "max_threads_per_block", v.maxThreadsPerBlock);
}

void to_json(json& j, const CompileInfo& v)
{
    j = {{"ok", v.ok},
         {"arch", v.arch},
         {"nvrtc_version", v.nvrtcVersion},
         {"cached", v.cached},
         {"compile_ms", v.compileMs},
         {"options", v.options},
         {"diagnostics", v.diagnostics},
         {"log", v.log}};
    putOpt(j, "resources", v.resources);
    putStr(j, "generated_source", v.generatedSource);
    if (!v.generatedLines.empty()) {
        json lines = json::array();
        for (const auto& g : v.generatedLines) {
            lines.push_back({{"line", g.line}, {"cuda", g.cuda}});
        }
        j["generated_lines"] = std::move(lines);
    }
}

void from_json(const json& j, CompileInfo& v)
{
    j.at("ok").get_to(v.ok);
    getOr(j, "arch", v.arch);
    getOr(j, "nvrtc_version", v.nvrtcVersion);
    getOr(j, "cached", v.cached);
    getOr(j, "compile_ms", v.compileMs);
    getOr(j, "options", v.options);
    getOr(j, "diagnostics", v.diagnostics);
    getOr(j, "log", v.log);
    getOpt(j, "resources", v.resources);
    getOr(j, "generated_source", v.generatedSource);
    if (auto it = j.find("generated_lines"); it != j.end() && it->is_array()) {
        for (const json& g : *it) {
            GeneratedLinesInfo info;
            getOr(g, "line", info.line);
            getOr(g, "cuda", info.cuda);
            v.generatedLines.push_back(std::move(info));
        }
    }
}

void to_json(json& j, const MismatchInfo& v)
{
    j = {{"index", v.index},
         {"got", v.unwritten ? json("unwritten") : encodeNumber(v.got)},
         {"expected", encodeNumber(v.expected)}};
}

void from_json(const json& j, MismatchInfo& v)
{
    j.at("index").get_to(v.index);
    const json& got = j.at("got");
    v.unwritten = got.is_string() && got.get<std::string>() == "unwritten";
    v.got = v.unwritten ? 0.0 : decodeNumber(got);
    v.expected = decodeNumber(j.at("expected"));
}

void to_json(json& j, const OutputInfo& v)
{
    j = {{"buffer", v.buffer},
         {"checked", v.checked},
         {"mismatches", v.mismatches},
         {"unwritten", v.unwritten},
         {"nan", v.nan},
         {"inf", v.inf},
         {"max_abs_error", v.maxAbsError},
         {"max_rel_error", v.maxRelError},
         {"atol", v.atol},
         {"rtol", v.rtol},
         {"first_mismatches", v.firstMismatches}};
    if (v.canaryBeforeStart) {
        j["canary_damage"] = {{"before_start", *v.canaryBeforeStart}};
    }
}

void from_json(const json& j, OutputInfo& v)
{
    j.at("buffer").get_to(v.buffer);
    getOr(j, "checked", v.checked);
    getOr(j, "mismatches", v.mismatches);
    getOr(j, "unwritten", v.unwritten);
    getOr(j, "nan", v.nan);
    getOr(j, "inf", v.inf);
    getOr(j, "max_abs_error", v.maxAbsError);
    getOr(j, "max_rel_error", v.maxRelError);
    getOr(j, "atol", v.atol);
    getOr(j, "rtol", v.rtol);
    getOr(j, "first_mismatches", v.firstMismatches);
    v.canaryBeforeStart.reset();
    if (auto it = j.find("canary_damage"); it != j.end() && it->is_object()) {
        v.canaryBeforeStart = it->value("before_start", int64_t{0});
    }
}

void to_json(json& j, const CaseInfo& v)
{
    j = {{"name", v.name}, {"sizes", v.sizes}, {"verdict", v.verdict}};
    if (!v.grid.empty()) {
        j["grid"] = v.grid;
    }
    if (!v.block.empty()) {
        j["block"] = v.block;
    }
    if (!v.outputs.empty()) {
        j["outputs"] = v.outputs;
    }
    putOpt(j, "nondeterministic", v.nondeterministic);
    if (!v.accumulated.empty()) {
        j["accumulated"] = v.accumulated;
    }
    putStr(j, "message", v.message);
}

void from_json(const json& j, CaseInfo& v)
{
    j.at("name").get_to(v.name);
    getOr(j, "sizes", v.sizes);
    j.at("verdict").get_to(v.verdict);
    getOr(j, "grid", v.grid);
    getOr(j, "block", v.block);
    getOr(j, "outputs", v.outputs);
    getOpt(j, "nondeterministic", v.nondeterministic);
    getOr(j, "accumulated", v.accumulated);
    getOr(j, "message", v.message);
}

void to_json(json& j, const FaultInfo& v)
{
    j = {{"kind", v.kind}, {"message", v.message}};
    putStr(j, "buffer", v.buffer);
    putStr(j, "case", v.caseName);
    putStr(j, "cuda_error", v.cudaError);
    if (v.line > 0) {
        j["line"] = v.line;
    }
    if (v.column > 0) {
        j["column"] = v.column;
    }
    if (!v.programId.empty()) {
        j["program"] = v.programId;
    }
    if (!v.lane.empty()) {
        j["lane"] = v.lane;
    }
    putOpt(j, "offset", v.offset);
    putOpt(j, "buffer_elements", v.bufferElements);
    putOpt(j, "masked", v.masked);
    putStr(j, "interpreter", v.interpreter);
}

void from_json(const json& j, FaultInfo& v)
{
    j.at("kind").get_to(v.kind);
    getOr(j, "message", v.message);
    getOr(j, "buffer", v.buffer);
    getOr(j, "case", v.caseName);
    getOr(j, "cuda_error", v.cudaError);
    getOr(j, "line", v.line);
    getOr(j, "column", v.column);
    getOr(j, "program", v.programId);
    getOr(j, "lane", v.lane);
    getOpt(j, "offset", v.offset);
    getOpt(j, "buffer_elements", v.bufferElements);
    getOpt(j, "masked", v.masked);
    getOr(j, "interpreter", v.interpreter);
}

void to_json(json& j, const DeepCheckFinding& v)
{
    j = {{"tool", v.tool}, {"severity", v.severity}, {"message", v.message}};
    if (!v.lines.empty()) {
        j["lines"] = v.lines;
    }
    putStr(j, "raw", v.raw);
}

void from_json(const json& j, DeepCheckFinding& v)
{
    getOr(j, "tool", v.tool);
    getOr(j, "severity", v.severity);
    getOr(j, "message", v.message);
    getOr(j, "lines", v.lines);
    getOr(j, "raw", v.raw);
}

void to_json(json& j, const DeepCheckInfo& v)
{
    j = {{"available", v.available}, {"summary", v.summary}};
    putStr(j, "unavailable_reason", v.unavailableReason);
    putStr(j, "case", v.caseName);
    if (!v.tools.empty()) {
        j["tools"] = v.tools;
    }
    if (!v.findings.empty()) {
        j["findings"] = v.findings;
    }
}

void from_json(const json& j, DeepCheckInfo& v)
{
    getOr(j, "available", v.available);
    getOr(j, "summary", v.summary);
    getOr(j, "unavailable_reason", v.unavailableReason);
    getOr(j, "case", v.caseName);
    getOr(j, "tools", v.tools);
    getOr(j, "findings", v.findings);
}

void to_json(json& j, const TimingInfo& v)
{
    j = {{"median_ms", v.medianMs}, {"p20_ms", v.p20Ms},    {"p80_ms", v.p80Ms}, {"min_ms", v.minMs},
         {"samples", v.samples},    {"settled", v.settled}, {"sizes", v.sizes}};
    putOpt(j, "achieved_gbps", v.achievedGbps);
    putOpt(j, "achieved_gflops", v.achievedGflops);
}

void from_json(const json& j, TimingInfo& v)
{
    j.at("median_ms").get_to(v.medianMs);
    getOr(j, "p20_ms", v.p20Ms);
    getOr(j, "p80_ms", v.p80Ms);
    getOr(j, "min_ms", v.minMs);
    getOr(j, "samples", v.samples);
    getOr(j, "settled", v.settled);
    getOr(j, "sizes", v.sizes);
    getOpt(j, "achieved_gbps", v.achievedGbps);
    getOpt(j, "achieved_gflops", v.achievedGflops);
}

void to_json(json& j, const TrafficInfo& v)
{
    j = {{"available", v.available}};
    putOpt(j, "dram_read_bytes", v.dramReadBytes);
    putOpt(j, "stored_bytes", v.storedBytes);
    putStr(j, "stored_source", v.storedSource);
    putOpt(j, "dram_write_bytes", v.dramWriteBytes);
    putOpt(j, "l2_hit_rate", v.l2HitRate);
    putOpt(j, "duration_ms", v.durationMs);
    putOpt(j, "ideal_bytes", v.idealBytes);
    putOpt(j, "efficiency", v.efficiency);
    putStr(j, "unavailable_reason", v.unavailableReason);
}

void from_json(const json& j, TrafficInfo& v)
{
    j.at("available").get_to(v.available);
    getOpt(j, "dram_read_bytes", v.dramReadBytes);
    getOpt(j, "stored_bytes", v.storedBytes);
    getOr(j, "stored_source", v.storedSource);
    getOpt(j, "dram_write_bytes", v.dramWriteBytes);
    getOpt(j, "l2_hit_rate", v.l2HitRate);
    getOpt(j, "duration_ms", v.durationMs);
    getOpt(j, "ideal_bytes", v.idealBytes);
    getOpt(j, "efficiency", v.efficiency);
    getOr(j, "unavailable_reason", v.unavailableReason);
}

void to_json(json& j, const CeilingsInfo& v)
{
    j = {{"theoretical_gbps", v.theoreticalGbps}};
    putOpt(j, "measured_copy_gbps", v.measuredCopyGbps);
    putOpt(j, "peak_fp32_gflops", v.peakFp32Gflops);
    putOpt(j, "peak_tensor_gflops", v.peakTensorGflops);
    putOpt(j, "measured_tensor_gflops", v.measuredTensorGflops);
    putStr(j, "source", v.source);
}

void from_json(const json& j, CeilingsInfo& v)
{
    j.at("theoretical_gbps").get_to(v.theoreticalGbps);
    getOpt(j, "measured_copy_gbps", v.measuredCopyGbps);
    getOpt(j, "peak_fp32_gflops", v.peakFp32Gflops);
    getOpt(j, "peak_tensor_gflops", v.peakTensorGflops);
    getOpt(j, "measured_tensor_gflops", v.measuredTensorGflops);
    getOr(j, "source", v.source);
}

void to_json(json& j, const RooflineInfo& v)
{
    j = {{"intensity_flop_per_byte", v.intensityFlopPerByte},
         {"achieved_gflops", v.achievedGflops},
         {"bound", v.bound},
         {"attainable_gflops_theoretical", v.attainableGflopsTheoretical}};
    putOpt(j, "attainable_gflops_measured", v.attainableGflopsMeasured);
}

void from_json(const json& j, RooflineInfo& v)
{
    j.at("intensity_flop_per_byte").get_to(v.intensityFlopPerByte);
    getOr(j, "achieved_gflops", v.achievedGflops);
    getOr(j, "bound", v.bound);
    getOr(j, "attainable_gflops_theoretical", v.attainableGflopsTheoretical);
    getOpt(j, "attainable_gflops_measured", v.attainableGflopsMeasured);
}

void to_json(json& j, const BaselineInfo& v)
{
    j = {{"name", v.name}, {"median_ms", v.medianMs}};
    putOpt(j, "dram_read_bytes", v.dramReadBytes);
    putOpt(j, "stored_bytes", v.storedBytes);
    putOpt(j, "time_ratio", v.timeRatio);
    putOpt(j, "bytes_ratio", v.bytesRatio);
}

void from_json(const json& j, BaselineInfo& v)
{
    j.at("name").get_to(v.name);
    getOr(j, "median_ms", v.medianMs);
    getOpt(j, "dram_read_bytes", v.dramReadBytes);
    getOpt(j, "stored_bytes", v.storedBytes);
    getOpt(j, "time_ratio", v.timeRatio);
    getOpt(j, "bytes_ratio", v.bytesRatio);
}

void to_json(json& j, const ErrorInfo& v)
{
    j = {{"kind", v.kind}, {"message", v.message}};
}

void from_json(const json& j, ErrorInfo& v)
{
    j.at("kind").get_to(v.kind);
    getOr(j, "message", v.message);
}

void to_json(json& j, const RunReport& v)
{
    j = json::object();
    j["schema"] = v.schema;
    j["engine_version"] = v.engineVersion;
    j["created"] = v.created;
    putOpt(j, "exercise", v.exercise);
    if (!v.meta.empty()) {
        j["meta"] = v.meta;
    }
    putOpt(j, "device", v.device);
    j["verdict"] = v.verdict;
    putStr(j, "language", v.language);
    putStr(j, "executor", v.executor);
    putStr(j, "summary", v.summary);
    if (!v.printed.empty()) {
        j["printed"] = v.printed;
    }
    if (v.printedDropped > 0) {
        j["printed_dropped"] = v.printedDropped;
    }
    putOpt(j, "compile", v.compile);
    if (!v.cases.empty()) {
        j["cases"] = v.cases;
    }
    putOpt(j, "fault", v.fault);
    putOpt(j, "timing", v.timing);
    putOpt(j, "traffic", v.traffic);
    putOpt(j, "ceilings", v.ceilings);
    putOpt(j, "roofline", v.roofline);
    if (!v.baselines.empty()) {
        j["baselines"] = v.baselines;
    }
    putOpt(j, "autotune", v.autotune);
    putOpt(j, "deep_check", v.deepCheck);
    if (!v.stagesMs.empty()) {
        j["stages_ms"] = v.stagesMs;
    }
    putOpt(j, "error", v.error);
}

void from_json(const json& j, RunReport& v)
{
    j.at("schema").get_to(v.schema);
    if (v.schema.rfind("tkm-run-report/", 0) != 0) {
        throw json::other_error::create(501, "not a tkm run report (schema \"" + v.schema + "\")", &j);
    }
    getOr(j, "engine_version", v.engineVersion);
    getOr(j, "created", v.created);
    getOpt(j, "exercise", v.exercise);
    getOr(j, "meta", v.meta);
    getOpt(j, "device", v.device);
    j.at("verdict").get_to(v.verdict);
    getOr(j, "language", v.language);
    getOr(j, "executor", v.executor);
    getOr(j, "summary", v.summary);
    getOr(j, "printed", v.printed);
    getOr(j, "printed_dropped", v.printedDropped);
    getOpt(j, "compile", v.compile);
    getOr(j, "cases", v.cases);
    getOpt(j, "fault", v.fault);
    getOpt(j, "timing", v.timing);
    getOpt(j, "traffic", v.traffic);
    getOpt(j, "ceilings", v.ceilings);
    getOpt(j, "roofline", v.roofline);
    getOr(j, "baselines", v.baselines);
    getOpt(j, "autotune", v.autotune);
    getOpt(j, "deep_check", v.deepCheck);
    getOr(j, "stages_ms", v.stagesMs);
    getOpt(j, "error", v.error);
}

} // namespace tkm::report
