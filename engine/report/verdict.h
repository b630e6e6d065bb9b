#pragma once
// The run report's verdicts (docs/run-report.md, "verdict") as enums, with the one table of their wire names.
// The JSON strings stay exactly those of schema "tkm-run-report/1"; a name the table does not know is a parse
// error (from_json throws nlohmann::json::other_error), never a silent default.

#include <nlohmann/json_fwd.hpp>

#include <iosfwd>
#include <optional>
#include <string_view>

namespace tkm::report {

/// Top-level `verdict` of a run report.
enum class Verdict
{
    Pass,         ///< "pass": every case within tolerance
    Fail,         ///< "fail": at least one case is wrong
    Fault,        ///< "fault": the kernel faulted (see `fault`)
    Timeout,      ///< "timeout": the kernel did not finish by the deadline
    CompileError, ///< "compile_error": NVRTC, the Triton checker or the signature check rejected the source
    Compiled,     ///< "compiled": compile-only job, the source compiles
    Error,        ///< "error": the engine could not run the job (see `error.kind`)
};

/// `cases[i].verdict`.
enum class CaseVerdict
{
    Pass,    ///< "pass"
    Fail,    ///< "fail"
    Fault,   ///< "fault"
    Skipped, ///< "skipped": not run after an earlier fault or time-out
};

/// `autotune.configs[i].verdict`: the configuration's run verdict, or skipped after an earlier one faulted.
enum class ConfigVerdict
{
    Pass,         ///< "pass"
    Fail,         ///< "fail"
    Fault,        ///< "fault"
    Timeout,      ///< "timeout"
    CompileError, ///< "compile_error"
    Compiled,     ///< "compiled"
    Error,        ///< "error"
    Skipped,      ///< "skipped"
};

/// The wire name ("pass", "compile_error", …).
std::string_view verdictName(Verdict v);
/// The wire name ("pass", "skipped", …).
std::string_view verdictName(CaseVerdict v);
/// The wire name ("pass", "skipped", …).
std::string_view verdictName(ConfigVerdict v);
/// The verdict a wire name stands for; nullopt for a name the schema does not have.
std::optional<Verdict> verdictFromName(std::string_view name);
/// The case verdict a wire name stands for; nullopt for a name the schema does not have.
std::optional<CaseVerdict> caseVerdictFromName(std::string_view name);
/// The configuration verdict a wire name stands for; nullopt for a name the schema does not have.
std::optional<ConfigVerdict> configVerdictFromName(std::string_view name);
/// A configuration's verdict from its sub-run's verdict.
ConfigVerdict toConfigVerdict(Verdict v);
/// The run verdict behind a configuration's; nullopt for Skipped (the configuration did not run).
std::optional<Verdict> toRunVerdict(ConfigVerdict v);

std::ostream& operator<<(std::ostream& out, Verdict v);       ///< the wire name (logs, test messages)
std::ostream& operator<<(std::ostream& out, CaseVerdict v);   ///< the wire name
std::ostream& operator<<(std::ostream& out, ConfigVerdict v); ///< the wire name

void to_json(nlohmann::json& j, Verdict v);              ///< JSON writer (the wire name)
void from_json(const nlohmann::json& j, Verdict& v);     ///< JSON reader (throws on an unknown name)
void to_json(nlohmann::json& j, CaseVerdict v);          ///< JSON writer (the wire name)
void from_json(const nlohmann::json& j, CaseVerdict& v); ///< JSON reader (throws on an unknown name)
void to_json(nlohmann::json& j, ConfigVerdict v);        ///< JSON writer (the wire name)
void from_json(const nlohmann::json& j, ConfigVerdict& v); ///< JSON reader (throws on an unknown name)

} // namespace tkm::report
