#include "engine/runner/deep_check.h"

#include "engine/common/paths.h"
#include "engine/problem/instance.h"
#include "engine/runner/diagnose.h"
#include "engine/runner/subprocess.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace tkm::runner {
namespace {

bool executable(const std::filesystem::path& p)
{
    return !p.empty() && ::access(p.c_str(), X_OK) == 0;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

// The learner's line numbers named in `text` ("in /tmp/kernel.cu:14", "in kernel.cu:14:vector_add"), in order.
std::vector<int> linesIn(const std::string& text, const std::string& sourceName)
{
    static const std::regex loc(R"(in (\S+?):(\d+))");
    const std::string base = std::filesystem::path(sourceName).filename().string();
    std::vector<int> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), loc); it != std::sregex_iterator(); ++it) {
        if (std::filesystem::path((*it)[1].str()).filename().string() != base)
            continue;
        const int line = std::stoi((*it)[2]);
        if (std::find(out.begin(), out.end(), line) == out.end())
            out.push_back(line);
    }
    return out;
}

std::string lineWords(const std::vector<int>& lines)
{
    if (lines.empty())
        return std::string();
    std::string s = lines.size() == 1 ? " at line " : " at lines ";
    for (size_t i = 0; i < lines.size(); ++i)
        s += (i == 0 ? "" : (i + 1 == lines.size() ? " and " : ", ")) + std::to_string(lines[i]);
    return s;
}

// A racecheck report: "Race reported between Write access at k+0x90 in kernel.cu:9 / and Read access at k+0xb0 in
// kernel.cu:12 [248 hazards]".
std::string raceSentence(const std::string& text, const std::string& sourceName)
{
    static const std::regex access(R"((Read|Write) access at .*? in (\S+?):(\d+))");
    static const std::regex hazards(R"(\[(\d+) hazards?\])");
    const std::string base = std::filesystem::path(sourceName).filename().string();
    std::vector<std::string> parts;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), access); it != std::sregex_iterator(); ++it) {
        std::string kind = (*it)[1] == "Write" ? "a write" : "a read";
        const bool ours = std::filesystem::path((*it)[2].str()).filename().string() == base;
        parts.push_back(kind + (ours ? " at line " + (*it)[3].str() : " in " + (*it)[2].str() + ":" + (*it)[3].str()));
    }
    std::smatch h;
    const std::string count = std::regex_search(text, h, hazards) ? " (" + h[1].str() + " hazards)" : std::string();
    if (parts.size() < 2)
        return "A shared-memory race" + count + lineWords(linesIn(text, sourceName)) +
               ": threads of one block touch the same shared-memory word without a barrier between them.";
    return fmt::format("A shared-memory race between {} and {} of other threads{}: nothing orders them, so the "
                       "result depends on which warp runs first even when this run's values came out right. Put a "
                       "__syncthreads() between the two accesses.",
                       parts[0], parts[1], count);
}

// A racecheck hazard report ("Potential WAR hazard detected at __shared__ 0x50d in block (4,0,0) :" then
// "Read Thread (99,0,0) at vector_add+0x1e0 in race.cu:11" and "Write Thread (67,0,0) at … in race.cu:12").
std::string hazardSentence(const std::string& head, const std::vector<std::string>& detail,
                           const std::string& sourceName)
{
    static const std::regex kind(R"(Potential (RAW|WAR|WAW) hazard)");
    static const std::regex block(R"(in block (\([0-9,]+\)))");
    static const std::regex access(R"((Read|Write) Thread (\([0-9,]+\)) at .*? in (\S+?):(\d+))");
    std::smatch m;
    const std::string what = std::regex_search(head, m, kind)
                                 ? (m[1] == "RAW"   ? "read-after-write"
                                    : m[1] == "WAR" ? "write-after-read"
                                                    : "write-after-write")
                                 : "data";
    const std::string where = std::regex_search(head, m, block) ? " in block " + m[1].str() : std::string();
    const std::string base = std::filesystem::path(sourceName).filename().string();
    std::vector<std::string> parts;
    for (const std::string& d : detail) {
        if (!std::regex_search(d, m, access))
            continue;
        const bool ours = std::filesystem::path(m[3].str()).filename().string() == base;
        parts.push_back(fmt::format("a {} at line {} by thread {}", m[1] == "Read" ? "read" : "write",
                                    ours ? m[4].str() : m[3].str() + ":" + m[4].str(), m[2].str()));
    }
    const std::string between =
        parts.size() >= 2 ? " between " + parts[0] + " and " + parts[1] : (parts.empty() ? "" : ": " + parts[0]);
    return fmt::format("A shared-memory race ({} hazard{}){}: nothing orders the two accesses, so the result "
                       "depends on which warp runs first even when this run's values came out right. Put a "
                       "__syncthreads() between them.",
                       what, where, between);
}

// Findings that say the same (tool, kind of report, lines) are one finding: a race or an out-of-bounds read is
// reported once per thread, byte or address.
std::string dedupeKey(const report::DeepCheckFinding& f, const std::string& head)
{
    static const std::regex numbers(R"(0x[0-9a-fA-F]+|\([0-9, ]+\))");
    std::string key = f.tool + "|" + std::regex_replace(head, numbers, "#") + "|";
    for (int l : f.lines)
        key += std::to_string(l) + ",";
    return key;
}

struct Block
{
    std::string headline;
    std::vector<std::string> detail;
};

bool isNoise(std::string_view line)
{
    for (std::string_view p : {"COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY",
                               "Target application", "Saved host backtrace", "Program hit", "Host Frame"})
        if (startsWith(line, p))
            return true;
    return false;
}

} // namespace

std::filesystem::path findComputeSanitizer()
{
    if (const char* env = std::getenv("TKM_COMPUTE_SANITIZER"); env && *env)
        return executable(env) ? std::filesystem::path(env) : std::filesystem::path();
    const auto inToolkit = engine::cudaRoot() / "bin" / "compute-sanitizer";
    if (executable(inToolkit))
        return inToolkit;
    if (const char* path = std::getenv("PATH")) {
        std::stringstream ss(path);
        std::string dir;
        while (std::getline(ss, dir, ':')) {
            const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / "compute-sanitizer";
            if (executable(candidate))
                return candidate;
        }
    }
    return {};
}

std::vector<report::DeepCheckFinding> parseSanitizerLog(std::string_view tool, std::string_view log,
                                                        const std::string& sourceName)
{
    std::vector<Block> blocks;
    std::istringstream in{std::string(log)};
    std::string line;
    while (std::getline(in, line)) {
        if (!startsWith(line, "========="))
            continue;
        std::string body = line.substr(9);
        if (body.find_first_not_of(' ') == std::string::npos)
            continue;
        const bool indented = body.size() > 1 && body[0] == ' ' && body[1] == ' ';
        const size_t start = body.find_first_not_of(' ');
        body = body.substr(start);
        if (!indented) {
            if (isNoise(body)) {
                blocks.push_back({}); // ends the previous report; an empty block is dropped below
                continue;
            }
            blocks.push_back(Block{body, {}});
        } else if (!blocks.empty() && !blocks.back().headline.empty()) {
            blocks.back().detail.push_back(body);
        }
    }
    std::vector<report::DeepCheckFinding> out;
    std::vector<std::string> keys;
    std::vector<int> repeats;
    for (const Block& b : blocks) {
        if (b.headline.empty())
            continue;
        report::DeepCheckFinding f;
        f.tool = std::string(tool);
        std::string head = b.headline;
        f.severity = "error";
        for (std::string_view p : {"Error: ", "ERROR: "})
            if (startsWith(head, p))
                head = head.substr(p.size());
        for (std::string_view p : {"Warning: ", "WARNING: "})
            if (startsWith(head, p)) {
                head = head.substr(p.size());
                f.severity = "warning";
            }
        std::string all = head;
        for (const auto& d : b.detail)
            all += "\n" + d;
        f.raw = b.headline;
        for (const auto& d : b.detail)
            f.raw += "\n    " + d;
        f.lines = linesIn(all, sourceName);
        if (startsWith(head, "Race reported")) {
            f.message = raceSentence(all, sourceName);
        } else if (startsWith(head, "Potential ") && head.find(" hazard") != std::string::npos) {
            f.message = hazardSentence(head, b.detail, sourceName);
        } else {
            f.message = head + lineWords(f.lines);
            for (const auto& d : b.detail)
                if (startsWith(d, "by thread") || startsWith(d, "Address") || startsWith(d, "Access") ||
                    startsWith(d, "and is"))
                    f.message += "; " + d;
            f.message += ".";
        }
        const std::string key = dedupeKey(f, head);
        if (auto it = std::find(keys.begin(), keys.end(), key); it != keys.end()) {
            ++repeats[static_cast<size_t>(it - keys.begin())];
            continue;
        }
        keys.push_back(key);
        repeats.push_back(0);
        out.push_back(std::move(f));
    }
    for (size_t i = 0; i < out.size(); ++i)
        if (repeats[i] > 0)
            out[i].message += fmt::format(" ({} more report{} like it.)", repeats[i], repeats[i] == 1 ? "" : "s");
    return out;
}

int chooseDeepCheckCase(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                        const std::vector<int>& indices, const std::vector<report::CaseInfo>& cases)
{
    for (size_t k = 0; k < cases.size() && k < indices.size(); ++k)
        if (cases[k].verdict == report::CaseVerdict::Fail || cases[k].verdict == report::CaseVerdict::Fault)
            return indices[k];
    if (job.deepCheckCase && *job.deepCheckCase >= 0 && *job.deepCheckCase < static_cast<int>(spec.cases.size()))
        return *job.deepCheckCase;
    for (const int ci : indices) {
        auto inst = problem::instantiate(spec, spec.cases[ci], meta, ci);
        if (inst && inst->launch.grid[0] * inst->launch.grid[1] * inst->launch.grid[2] > 1)
            return ci;
    }
    return indices.empty() ? 0 : indices.back();
}

report::DeepCheckInfo deepCheck(const Job& job, int caseIndex, const std::string& caseName,
                                const std::filesystem::path& probeExecutable, double timeoutS,
                                const ProgressFn& progress)
{
    report::DeepCheckInfo info;
    info.caseName = caseName;
    const auto sanitizer = findComputeSanitizer();
    if (sanitizer.empty()) {
        info.unavailableReason = "The deep check needs NVIDIA's compute-sanitizer, which was not found (it comes with "
                                 "the CUDA toolkit, in " +
                                 (engine::cudaRoot() / "bin").string() +
                                 "; or set TKM_COMPUTE_SANITIZER to its path). The cases above ran as usual.";
        info.summary = info.unavailableReason;
        return info;
    }
    ProbeRequest req;
    req.job = job;
    req.caseIndex = caseIndex;
    req.plain = true;
    const std::string request = toJson(req).dump() + "\n";
    std::vector<std::string> failed;
    int n = 0;
    for (const char* tool : kDeepCheckTools) {
        ++n;
        if (progress)
            progress({"deep-check", n, 4, fmt::format("deep check: {} on “{}”", tool, caseName), caseName});
        char logPath[] = "/tmp/tkm-deep-check-XXXXXX";
        const int fd = ::mkstemp(logPath);
        if (fd < 0) {
            failed.push_back(fmt::format("{} (no temporary file)", tool));
            continue;
        }
        ::close(fd);
        std::vector<std::string> args{"--tool", tool, "--print-limit", "20", "--show-backtrace", "no",
                                      "--log-file", logPath};
        if (std::string(tool) == "racecheck")
            args.insert(args.end(), {"--racecheck-report", "hazard"});
        args.insert(args.end(), {probeExecutable.string(), "--probe"});
        auto proc = Subprocess::spawn(sanitizer, args, false);
        std::string out;
        bool timedOut = false;
        if (proc) {
            (void)proc->write(request);
            proc->closeStdin();
            const auto deadline =
                std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeoutS * 1000));
            std::string line;
            for (;;) {
                const ReadResult rr = proc->readLine(line, deadline);
                if (rr == ReadResult::Line) {
                    out += line + "\n";
                    continue;
                }
                if (rr == ReadResult::Timeout) {
                    timedOut = true;
                    proc->kill();
                }
                break;
            }
            proc->wait();
        }
        std::ifstream logFile(logPath);
        std::stringstream logText;
        logText << logFile.rdbuf();
        std::filesystem::remove(logPath);
        const ProbeResult pr = probeResultFromJson(nlohmann::json::parse(out, nullptr, false).is_object()
                                                       ? nlohmann::json::parse(out)
                                                       : nlohmann::json::object());
        if (!proc || timedOut || (!pr.ran && !pr.faulted)) {
            failed.push_back(fmt::format("{} ({})", tool,
                                         !proc      ? proc.error().message
                                         : timedOut ? fmt::format("stopped after {:.0f} s", timeoutS)
                                                    : (pr.message.empty() ? "the probe did not run" : pr.message)));
            continue;
        }
        info.tools.push_back(tool);
        for (auto& f : parseSanitizerLog(tool, logText.str(), job.sourceName))
            info.findings.push_back(std::move(f));
    }
    info.available = !info.tools.empty();
    std::string failedText;
    for (const auto& f : failed)
        failedText += (failedText.empty() ? "" : ", ") + f;
    if (!info.available) {
        info.unavailableReason = "compute-sanitizer could not run the case: " + failedText + ".";
        info.summary = info.unavailableReason;
        return info;
    }
    if (info.findings.empty()) {
        info.summary = fmt::format("Deep check of “{}”: compute-sanitizer's {} found nothing.", caseName,
                                   fmt::join(info.tools, ", "));
    } else {
        info.summary = fmt::format("Deep check of “{}”: {} problem{} found; first ({}): {}", caseName,
                                   info.findings.size(), info.findings.size() == 1 ? "" : "s",
                                   info.findings.front().tool, info.findings.front().message);
    }
    if (!failed.empty())
        info.summary += " Not run: " + failedText + ".";
    return info;
}

} // namespace tkm::runner
