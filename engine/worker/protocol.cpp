#include "engine/worker/protocol.h"

#include <fmt/format.h>

#include <algorithm>

namespace tkm::worker {

using nlohmann::json;

engine::Expected<std::vector<problem::MetaValues>> configsFromJson(const json& c)
{
    const std::string usage = "request field \"configs\" must be an array of objects of integers, e.g. "
                              "[{\"BLOCK_SIZE\": 256, \"NUM_WARPS\": 2}, {\"BLOCK_SIZE\": 1024}]";
    if (!c.is_array()) {
        return engine::makeError(engine::ErrorKind::BadInput, usage);
    }
    std::vector<problem::MetaValues> out;
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (!c[i].is_object()) {
            return engine::makeError(engine::ErrorKind::BadInput, fmt::format("{} (entry {} is not an object)", usage, i));
        }
        problem::MetaValues config;
        for (const auto& [k, v] : c[i].items()) {
            if (!v.is_number_integer()) {
                return engine::makeError(engine::ErrorKind::BadInput,
                                         fmt::format("request field \"configs\": entry {}: {} must be an integer", i, k));
            }
            config[k] = v.get<int64_t>();
        }
        out.push_back(std::move(config));
    }
    return out;
}

json jobRequest(const runner::Job& job, const json& id)
{
    json j = {{"id", id},
              {"op", job.mode == runner::Mode::CompileOnly ? "compile" : "run"},
              {"exercise", job.exercise.string()},
              {"source", job.source},
              {"source_name", job.sourceName},
              {"meta", job.meta},
              {"measure", job.measure}};
    if (job.device != runner::Device::Auto) {
        j["device"] = runner::deviceName(job.device);
    }
    if (job.cases.empty()) {
        j["cases"] = "all";
    } else {
        j["cases"] = job.cases;
    }
    if (job.computeCapability) {
        j["cc"] = *job.computeCapability;
    }
    if (job.resetToZero) {
        j["reset_to_zero"] = *job.resetToZero;
    }
    if (job.deepCheck) {
        j["deep_check"] = job.deepCheckCase ? json(*job.deepCheckCase) : json(true);
    }
    if (!job.configs.empty()) {
        j["configs"] = job.configs;
    }
    return j;
}

engine::Expected<runner::Job> jobFromRequest(const json& j)
{
    auto bad = [](const std::string& what) { return engine::makeError(engine::ErrorKind::BadInput, what); };
    runner::Job job;
    const std::string op = j.value("op", std::string());
    job.mode = op == "compile" ? runner::Mode::CompileOnly : runner::Mode::Run;
    if (!j.contains("exercise")) {
        return bad("request field \"exercise\" is missing (the exercise folder)");
    }
    if (!j["exercise"].is_string() || j["exercise"].get<std::string>().empty()) {
        return bad("request field \"exercise\" must be a non-empty string (the exercise folder)");
    }
    if (!j.contains("source")) {
        return bad("request field \"source\" is missing (the kernel text)");
    }
    if (!j["source"].is_string()) {
        return bad("request field \"source\" must be a string (the kernel text)");
    }
    job.exercise = j["exercise"].get<std::string>();
    job.source = j["source"].get<std::string>();
    if (j.contains("source_name")) {
        if (!j["source_name"].is_string()) {
            return bad("request field \"source_name\" must be a string");
        }
        job.sourceName = j["source_name"].get<std::string>();
    }
    if (j.contains("meta")) {
        if (!j["meta"].is_object()) {
            return bad("request field \"meta\" must be an object of integers, e.g. {\"BLOCK_SIZE\": 256}");
        }
        for (const auto& [k, v] : j["meta"].items()) {
            if (!v.is_number_integer()) {
                return bad(fmt::format("request field \"meta\": {} must be an integer", k));
            }
            job.meta[k] = v.get<int64_t>();
        }
    }
    if (j.contains("device")) {
        const auto d = j["device"].is_string() ? runner::parseDevice(j["device"].get<std::string>()) : std::nullopt;
        if (!d) {
            return bad("request field \"device\" must be \"auto\", \"cpu\" or \"gpu\"");
        }
        job.device = *d;
    }
    if (j.contains("measure")) {
        if (!j["measure"].is_boolean()) {
            return bad("request field \"measure\" must be true or false");
        }
        job.measure = j["measure"].get<bool>();
    }
    if (j.contains("deep_check")) {
        const json& d = j["deep_check"];
        if (d.is_boolean()) {
            job.deepCheck = d.get<bool>();
        } else if (d.is_number_integer() && d.get<int64_t>() >= 0 && d.get<int64_t>() < 1000000) {
            job.deepCheck = true;
            job.deepCheckCase = d.get<int>();
        } else {
            return bad("request field \"deep_check\" must be true, false or a case index");
        }
    }
    if (j.contains("cases")) {
        const json& c = j["cases"];
        if (c.is_string() && c.get<std::string>() == "all") {
            job.cases.clear();
        } else if (c.is_array()) {
            for (const auto& v : c) {
                if (!v.is_number_integer() || v.get<int64_t>() < 0) {
                    return bad("request field \"cases\" must be \"all\" or an array of case indices");
                }
                job.cases.push_back(v.get<int>());
            }
        } else {
            return bad("request field \"cases\" must be \"all\" or an array of case indices");
        }
    }
    if (j.contains("reset_to_zero")) {
        const json& z = j["reset_to_zero"];
        std::vector<std::string> names;
        bool okList = z.is_array();
        for (const auto& v : okList ? z : json::array()) {
            okList = okList && v.is_string();
            if (v.is_string()) {
                names.push_back(v.get<std::string>());
            }
        }
        if (!okList) {
            return bad("request field \"reset_to_zero\" must be an array of output names");
        }
        job.resetToZero = std::move(names);
    }
    if (j.contains("configs")) {
        auto configs = configsFromJson(j["configs"]);
        if (!configs) {
            return configs.error();
        }
        job.configs = std::move(*configs);
    }
    if (j.contains("cc")) {
        if (!j["cc"].is_number_integer() || j["cc"].get<int>() < 50) {
            return bad("request field \"cc\" must be a compute capability such as 90");
        }
        job.computeCapability = j["cc"].get<int>();
    }
    return job;
}

json progressMessage(const json& id, const runner::Progress& p)
{
    json j = {{"id", id}, {"type", "progress"}, {"stage", p.stage}, {"text", p.text}};
    if (p.of > 0 || p.index > 0) {
        j["case"] = p.index;
        j["of"] = p.of;
    }
    if (!p.caseName.empty()) {
        j["case_name"] = p.caseName;
    }
    return j;
}

runner::Progress progressFromMessage(const json& m)
{
    runner::Progress p;
    p.stage = m.value("stage", std::string());
    p.index = m.value("case", 0);
    p.of = m.value("of", 0);
    p.text = m.value("text", std::string());
    p.caseName = m.value("case_name", std::string());
    return p;
}

json reportMessage(const json& id, const report::RunReport& report)
{
    return {{"id", id}, {"type", "report"}, {"report", report}};
}

json errorMessage(const json& id, const std::string& message)
{
    return {{"id", id}, {"type", "error"}, {"message", message}};
}

json simpleRequest(const json& id, const std::string& op)
{
    return {{"id", id}, {"op", op}};
}

json warmRequest(const json& id, const std::string& exercise)
{
    json j = simpleRequest(id, "warm");
    if (!exercise.empty()) {
        j["exercise"] = exercise;
    }
    return j;
}

WorkerMessage parseWorkerLine(std::string_view line)
{
    WorkerMessage out;
    const json msg = json::parse(line, nullptr, false);
    if (msg.is_discarded() || !msg.is_object()) {
        return out;
    }
    out.id = msg.value("id", json());
    const json type = msg.value("type", json());
    const std::string t = type.is_string() ? type.get<std::string>() : std::string();
    try {
        if (t == "progress") {
            out.progress = progressFromMessage(msg);
            out.type = WorkerMessage::Type::Progress;
        } else if (t == "report" && msg.contains("report") && msg["report"].is_object()) {
            out.report = msg["report"];
            out.type = WorkerMessage::Type::Report;
        } else if (t == "error") {
            out.message = msg.value("message", std::string("(no message)"));
            out.type = WorkerMessage::Type::Error;
        } else if (t == "pong") {
            out.type = WorkerMessage::Type::Pong;
        }
    } catch (const json::exception&) {
        out.type = WorkerMessage::Type::Other; // a field of the wrong type: not a line we understand
    }
    return out;
}

std::chrono::milliseconds allowedSilence(std::string_view lastStage, std::chrono::milliseconds deadline,
                                         std::chrono::milliseconds diagnoseGrace)
{
    return lastStage == "diagnose" || lastStage == "print" ? std::max(deadline, diagnoseGrace) : deadline;
}

namespace {

report::RunReport baseReport()
{
    report::RunReport r;
    r.engineVersion = TKM_ENGINE_VERSION;
    r.created = report::utcNow();
    return r;
}

} // namespace

report::RunReport timeoutReport(std::chrono::milliseconds deadline, const runner::Progress& last)
{
    std::string text = fmt::format("the kernel did not finish in {:g} s — endless loop?",
                                   static_cast<double>(deadline.count()) / 1000.0);
    if (last.stage == "case" && last.of > 0) {
        text += fmt::format(" (case {} of {}: “{}”)", last.index, last.of, last.caseName);
    } else if (last.stage == "compile") {
        text += " (the compiler was still running)";
    }
    report::RunReport r = baseReport();
    r.verdict = report::Verdict::Timeout;
    r.summary = std::move(text);
    return r;
}

report::RunReport errorReport(const std::string& kind, const std::string& message)
{
    report::RunReport r = baseReport();
    r.verdict = report::Verdict::Error;
    r.summary = message;
    r.error = report::ErrorInfo{kind, message};
    return r;
}

report::RunReport workerCrashReport(const std::string& how, const std::string& lastWords)
{
    std::string text = fmt::format("The engine's worker stopped unexpectedly ({}) while running this job; it is "
                                   "restarted for the next run.",
                                   how);
    if (!lastWords.empty()) {
        text += "\n\nIts last words: " + lastWords;
    }
    return errorReport("worker-crash", text);
}

report::RunReport rejectedReport(const std::string& message)
{
    return errorReport("internal", "The worker rejected the request: " + message);
}

} // namespace tkm::worker
