// A stand-in for `tkm-run --serve` that misbehaves on request, to test the worker client's deadline, restart,
// cancel and crash handling without a GPU. The job's "source" picks the behaviour:
//   ok        report verdict pass             sleep     progress (case 1 of 3), then hangs
//   crash     abort() mid-job                 fault     report verdict fault, then exit status 3
//   diagnose  progress "diagnose", 1.2 s of work, then report pass
//   child     starts a child in its own process group's reach (prints its pid as progress text), then hangs
//   chatty    a progress message every 0.3 s for 2.1 s (a slow job that keeps talking), then report pass
#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>

using nlohmann::json;

namespace {

void send(const json& j)
{
    std::cout << j.dump() << '\n' << std::flush;
}

json report(const std::string& verdict)
{
    return {{"schema", "tkm-run-report/1"},
            {"engine_version", "fake"},
            {"created", "2026-11-30T00:00:00Z"},
            {"verdict", verdict},
            {"summary", "fake " + verdict}};
}

} // namespace

int main()
{
    std::string line;
    while (std::getline(std::cin, line)) {
        const json req = json::parse(line, nullptr, false);
        if (req.is_discarded() || !req.is_object()) {
            send({{"id", nullptr}, {"type", "error"}, {"message", "bad json"}});
            continue;
        }
        const json id = req.value("id", json());
        const std::string op = req.value("op", std::string());
        if (op == "ping") {
            send({{"id", id}, {"type", "pong"}});
            continue;
        }
        const std::string what = req.value("source", std::string());
        send({{"id", id}, {"type", "progress"}, {"stage", "compile"}, {"text", "compiling"}});
        if (what == "sleep") {
            send({{"id", id},
                  {"type", "progress"},
                  {"stage", "case"},
                  {"case", 1},
                  {"of", 3},
                  {"text", "checking case 1 of 3"},
                  {"case_name", "one element"}});
            ::sleep(600);
        } else if (what == "crash") {
            std::abort();
        } else if (what == "fault") {
            send({{"id", id}, {"type", "report"}, {"report", report("fault")}});
            return 3;
        } else if (what == "diagnose") {
            send({{"id", id}, {"type", "progress"}, {"stage", "diagnose"}, {"text", "re-running"}});
            ::usleep(1200 * 1000);
            send({{"id", id}, {"type", "report"}, {"report", report("pass")}});
        } else if (what == "chatty") {
            for (int i = 1; i <= 7; ++i) {
                ::usleep(300 * 1000);
                send({{"id", id}, {"type", "progress"}, {"stage", "case"}, {"case", i}, {"of", 7}, {"text", "case"}});
            }
            send({{"id", id}, {"type", "report"}, {"report", report("pass")}});
        } else if (what == "child") {
            const pid_t child = ::fork();
            if (child == 0) {
                ::sleep(600);
                ::_exit(0);
            }
            send({{"id", id}, {"type", "progress"}, {"stage", "case"}, {"text", std::to_string(child)}});
            ::sleep(600);
        } else {
            send({{"id", id}, {"type", "report"}, {"report", report("pass")}});
        }
    }
    return 0;
}
