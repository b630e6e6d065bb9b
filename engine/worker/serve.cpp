#include "engine/worker/serve.h"

#include "engine/common/json_safe.h"

#include "engine/cuda/device.h"
#include "engine/cuda/driver.h"
#include "engine/report/verdict.h"
#include "engine/worker/protocol.h"

#include <fmt/format.h>

#include <istream>
#include <ostream>

namespace tkm::worker {
namespace {

using nlohmann::json;

void send(std::ostream& out, const json& message)
{
    // Invalid UTF-8 in a learner's source must not throw while answering.
    out << message.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
    out.flush();
}

// The devices answer is a report-shaped object (schema, device = the first GPU, verdict "pass") plus the list
// "devices"; without a GPU verdict "error" with error.kind "no-gpu" or "no-driver" and the sentence.
json devicesMessage(const json& id)
{
    json rep = {{"schema", report::kSchema},
                {"engine_version", TKM_ENGINE_VERSION},
                {"created", report::utcNow()},
                {"devices", json::array()}};
    auto list = cuda::listDevices();
    if (!list || list->empty()) {
        const std::string kind = list ? "no-gpu" : std::string(engine::errorKindName(list.error().kind));
        const std::string message = list ? "No NVIDIA GPU was found." : list.error().message;
        rep["verdict"] = report::Verdict::Error;
        rep["summary"] = message;
        rep["error"] = {{"kind", kind}, {"message", message}};
        return {{"id", id}, {"type", "report"}, {"report", rep}};
    }
    for (const auto& d : *list) {
        json dj = runner::toReportDevice(d);
        dj["ordinal"] = d.ordinal;
        dj["arch"] = d.arch();
        dj["memory_clock_khz"] = d.memoryClockKhz;
        dj["bus_width_bits"] = d.busWidthBits;
        rep["devices"].push_back(std::move(dj));
    }
    rep["device"] = rep["devices"][0];
    rep["verdict"] = report::Verdict::Pass;
    rep["summary"] = fmt::format("{} GPU(s) found.", list->size());
    return {{"id", id}, {"type", "report"}, {"report", rep}};
}

} // namespace

int serve(std::istream& in, std::ostream& out, runner::RunnerOptions options)
{
    runner::Runner runner(std::move(options));
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        // parseJson caps the nesting depth: a hostile line cannot exhaust the stack or memory.
        engine::JsonParseResult parsed = engine::parseJson(line);
        if (!parsed.ok()) {
            send(out, errorMessage(nullptr, fmt::format("request line {} is not valid JSON: {}", lineNo,
                                                        engine::describe(*parsed.error))));
            continue;
        }
        const json req = std::move(parsed.value);
        if (!req.is_object()) {
            send(out, errorMessage(nullptr, fmt::format("request line {} is not a JSON object", lineNo)));
            continue;
        }
        const json id = req.contains("id") ? req["id"] : json(nullptr);
        if (!req.contains("id")) {
            send(out, errorMessage(nullptr, "request field \"id\" is missing"));
            continue;
        }
        if (!id.is_string() && !id.is_number()) {
            send(out, errorMessage(nullptr, "request field \"id\" must be a string or a number"));
            continue;
        }
        if (!req.contains("op") || !req["op"].is_string()) {
            send(out, errorMessage(id, "request field \"op\" is missing (one of run, compile, devices, warm, ping)"));
            continue;
        }
        const std::string op = req["op"].get<std::string>();
        if (op == "ping") {
            send(out, {{"id", id}, {"type", "pong"}, {"engine_version", TKM_ENGINE_VERSION}});
            continue;
        }
        if (op == "devices") {
            send(out, devicesMessage(id));
            continue;
        }
        if (op == "warm") {
            const std::string exercise =
                req.contains("exercise") && req["exercise"].is_string() ? req["exercise"].get<std::string>() : "";
            const report::RunReport report =
                runner.warm(exercise, [&](const runner::Progress& p) { send(out, progressMessage(id, p)); });
            send(out, reportMessage(id, report));
            continue;
        }
        if (op != "run" && op != "compile") {
            send(out, errorMessage(
                          id, fmt::format("unknown op \"{}\" (expected run, compile, devices, warm or ping)", op)));
            continue;
        }
        auto job = jobFromRequest(req);
        if (!job) {
            send(out, errorMessage(id, job.error().message));
            continue;
        }
        const report::RunReport report =
            runner.run(*job, [&](const runner::Progress& p) { send(out, progressMessage(id, p)); });
        send(out, reportMessage(id, report));
        if (runner.mustExit()) {
            return kStickyExit;
        }
    }
    return 0;
}

} // namespace tkm::worker
