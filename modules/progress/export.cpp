#include "modules/progress/export.h"

#include "modules/progress/detail/sql.h"
#include "modules/progress/store.h"

#include <SQLiteCpp/Transaction.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sstream>
#include <tuple>

namespace tkm::progress {
namespace {

/// Everything, read in one transaction.
struct Snapshot
{
    std::vector<QuizAnswer> quiz;
    std::vector<SpotPick> picks;
    std::vector<DragAttempt> drags;
    std::vector<StepCompletion> steps;
    std::vector<HelpView> help;
    std::vector<KernelRun> runs; // oldest first
    std::vector<TimeSpan> spans;
    std::optional<Position> position;
};

template <class T> bool take(Expected<T>&& from, T& to, Error& error)
{
    if (!from) {
        error = from.error();
        return false;
    }
    to = std::move(*from);
    return true;
}

Expected<Snapshot> snapshot(const Store& store, bool withBodies)
{
    try {
        // A read transaction: every query below sees the same committed state.
        SQLite::Transaction tx(store.database(), SQLite::TransactionBehavior::DEFERRED);
        Snapshot s;
        Error error;
        std::vector<KernelRun> newestFirst;
        if (!take(store.quizAnswers(), s.quiz, error) || !take(store.spotPicks(), s.picks, error) ||
            !take(store.dragAttempts(), s.drags, error) || !take(store.stepCompletions(), s.steps, error) ||
            !take(store.helpViews(), s.help, error) || !take(store.runHistory(), newestFirst, error) ||
            !take(store.timeSpans(), s.spans, error) || !take(store.position(), s.position, error)) {
            return error;
        }
        for (auto it = newestFirst.rbegin(); it != newestFirst.rend(); ++it) {
            if (!withBodies) {
                s.runs.push_back(*it);
                continue;
            }
            auto whole = store.run(it->id);
            if (!whole) {
                return whole.error();
            }
            s.runs.push_back(std::move(*whole));
        }
        std::stable_sort(s.runs.begin(), s.runs.end(), [](const KernelRun& a, const KernelRun& b) {
            return std::tie(a.atMs, a.id) < std::tie(b.atMs, b.id);
        });
        return s;
    } catch (const SQLite::Exception& e) {
        return detail::sqliteError("export the progress", e);
    }
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (char c : text) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    return out + "\"";
}

std::string number(double value)
{
    std::ostringstream os;
    os.precision(10);
    os << value;
    return os.str();
}

template <class T> std::string optText(const std::optional<T>& value)
{
    if (!value) {
        return {};
    }
    if constexpr (std::is_floating_point_v<T>) {
        return number(*value);
    } else {
        return std::to_string(*value);
    }
}

/// One CSV row, in csvHeader() column order.
struct CsvRow
{
    int64_t atMs = 0;
    int64_t id = 0;
    std::string kind, moduleId, activityId, item, correct, score, verdict, medianMs, gbps, readBytes, storedBytes,
        device, seconds, detail, track;

    std::string line() const
    {
        const std::string fields[] = {
            kind,    std::to_string(id), moduleId,  activityId, item,        formatUtc(atMs), correct, score,
            verdict, medianMs,           gbps,      readBytes,  storedBytes, device,          seconds, detail,
            track};
        std::string out;
        for (size_t i = 0; i < std::size(fields); ++i) {
            out += i == 0 ? csvField(fields[i]) : "," + csvField(fields[i]);
        }
        return out + "\r\n";
    }
};

CsvRow rowFor(std::string kind, int64_t id, const ActivityRef& where, int64_t atMs)
{
    CsvRow r;
    r.kind = std::move(kind);
    r.id = id;
    r.moduleId = where.moduleId;
    r.activityId = where.activityId;
    r.atMs = atMs;
    return r;
}

nlohmann::json refJson(const ActivityRef& where, int64_t id, int64_t atMs)
{
    return {{"id", id},
            {"module_id", where.moduleId},
            {"activity_id", where.activityId},
            {"at_ms", atMs},
            {"time_utc", formatUtc(atMs)}};
}

template <class T> nlohmann::json optJson(const std::optional<T>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json();
}

} // namespace

std::string formatUtc(int64_t atMs)
{
    const std::time_t seconds = static_cast<std::time_t>(atMs >= 0 ? atMs / 1000 : (atMs - 999) / 1000);
    const int millis = static_cast<int>(atMs - static_cast<int64_t>(seconds) * 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
    return buffer;
}

std::string_view csvHeader()
{
    return "kind,id,module_id,activity_id,item,time_utc,correct,score,verdict,median_ms,achieved_gbps,"
           "dram_read_bytes,stored_bytes,device,seconds,detail,track";
}

Expected<std::string> exportCsv(const Store& store)
{
    auto snap = snapshot(store, false);
    if (!snap) {
        return snap.error();
    }
    std::vector<CsvRow> rows;
    for (const QuizAnswer& q : snap->quiz) {
        CsvRow r = rowFor("quiz", q.id, q.where, q.atMs);
        r.item = q.questionId;
        r.correct = q.correct ? "1" : "0";
        r.detail = detail::intsToJson(q.choices);
        rows.push_back(std::move(r));
    }
    for (const SpotPick& p : snap->picks) {
        CsvRow r = rowFor("spot-the-bug", p.id, p.where, p.atMs);
        r.correct = p.correct ? "1" : "0";
        r.detail = detail::intsToJson(p.lines);
        rows.push_back(std::move(r));
    }
    for (const DragAttempt& d : snap->drags) {
        CsvRow r = rowFor("drag-match", d.id, d.where, d.atMs);
        r.correct = d.correctCount == d.itemCount ? "1" : "0";
        r.score = std::to_string(d.correctCount) + "/" + std::to_string(d.itemCount);
        r.detail = d.placement.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        rows.push_back(std::move(r));
    }
    for (const StepCompletion& s : snap->steps) {
        CsvRow r = rowFor("step-through", s.id, s.where, s.atMs);
        r.score = std::to_string(s.stepCount) + " steps";
        rows.push_back(std::move(r));
    }
    for (const HelpView& h : snap->help) {
        CsvRow r = rowFor(h.kind == HelpKind::Solution ? "solution" : "hint", h.id, h.where, h.atMs);
        r.item = h.kind == HelpKind::Solution ? std::string() : std::to_string(h.hintIndex);
        rows.push_back(std::move(r));
    }
    for (const KernelRun& k : snap->runs) {
        CsvRow r = rowFor("kernel-run", k.id, k.where, k.atMs);
        r.item = k.exerciseId;
        r.correct = k.verdict == report::Verdict::Pass ? "1" : "0";
        r.verdict = report::verdictName(k.verdict);
        r.medianMs = optText(k.medianMs);
        r.gbps = optText(k.achievedGbps);
        r.readBytes = optText(k.dramReadBytes);
        r.storedBytes = optText(k.storedBytes);
        r.device = k.device;
        r.detail = k.meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        r.track = k.track;
        rows.push_back(std::move(r));
    }
    for (const TimeSpan& t : snap->spans) {
        CsvRow r = rowFor("time", t.id, t.where, t.startMs);
        r.seconds = number(static_cast<double>(t.endMs - t.startMs) / 1000.0);
        rows.push_back(std::move(r));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const CsvRow& a, const CsvRow& b) { return a.atMs < b.atMs; });
    std::string out = std::string(csvHeader()) + "\r\n";
    for (const CsvRow& r : rows) {
        out += r.line();
    }
    return out;
}

Expected<nlohmann::json> exportJson(const Store& store, const ExportOptions& options)
{
    auto snap = snapshot(store, options.includeRunBodies);
    if (!snap) {
        return snap.error();
    }
    nlohmann::json doc = {{"schema", "tkm-progress-export/1"},
                          {"schema_version", store.openReport().schemaVersion},
                          {"exported_utc", formatUtc(detail::nowMs())},
                          {"database", store.path().string()}};
    auto& quiz = doc["quiz_answers"] = nlohmann::json::array();
    for (const QuizAnswer& q : snap->quiz) {
        auto j = refJson(q.where, q.id, q.atMs);
        j["question_id"] = q.questionId;
        j["choices"] = q.choices;
        j["correct"] = q.correct;
        quiz.push_back(std::move(j));
    }
    auto& picks = doc["spot_picks"] = nlohmann::json::array();
    for (const SpotPick& p : snap->picks) {
        auto j = refJson(p.where, p.id, p.atMs);
        j["lines"] = p.lines;
        j["correct"] = p.correct;
        picks.push_back(std::move(j));
    }
    auto& drags = doc["drag_attempts"] = nlohmann::json::array();
    for (const DragAttempt& d : snap->drags) {
        auto j = refJson(d.where, d.id, d.atMs);
        j["placement"] = d.placement;
        j["correct_count"] = d.correctCount;
        j["item_count"] = d.itemCount;
        drags.push_back(std::move(j));
    }
    auto& steps = doc["step_completions"] = nlohmann::json::array();
    for (const StepCompletion& s : snap->steps) {
        auto j = refJson(s.where, s.id, s.atMs);
        j["step_count"] = s.stepCount;
        steps.push_back(std::move(j));
    }
    auto& help = doc["help_views"] = nlohmann::json::array();
    for (const HelpView& h : snap->help) {
        auto j = refJson(h.where, h.id, h.atMs);
        j["kind"] = h.kind == HelpKind::Solution ? "solution" : "hint";
        j["hint_index"] = h.hintIndex;
        help.push_back(std::move(j));
    }
    auto& runs = doc["kernel_runs"] = nlohmann::json::array();
    for (const KernelRun& k : snap->runs) {
        auto j = refJson(k.where, k.id, k.atMs);
        j["exercise_id"] = k.exerciseId;
        j["meta"] = k.meta;
        j["verdict"] = k.verdict;
        j["median_ms"] = optJson(k.medianMs);
        j["achieved_gbps"] = optJson(k.achievedGbps);
        j["dram_read_bytes"] = optJson(k.dramReadBytes);
        j["stored_bytes"] = optJson(k.storedBytes);
        j["ideal_bytes"] = optJson(k.idealBytes);
        j["ceiling_gbps"] = optJson(k.ceilingGbps);
        j["device"] = k.device;
        j["track"] = k.track;
        if (options.includeRunBodies) {
            j["source"] = k.source;
            j["report"] = k.report ? nlohmann::json(*k.report) : nlohmann::json();
        }
        runs.push_back(std::move(j));
    }
    auto& spans = doc["time_spans"] = nlohmann::json::array();
    for (const TimeSpan& t : snap->spans) {
        spans.push_back({{"id", t.id},
                         {"module_id", t.where.moduleId},
                         {"activity_id", t.where.activityId},
                         {"start_ms", t.startMs},
                         {"end_ms", t.endMs},
                         {"start_utc", formatUtc(t.startMs)},
                         {"seconds", static_cast<double>(t.endMs - t.startMs) / 1000.0}});
    }
    doc["position"] = snap->position ? nlohmann::json{{"module_id", snap->position->where.moduleId},
                                                      {"activity_id", snap->position->where.activityId},
                                                      {"at_ms", snap->position->atMs}}
                                     : nlohmann::json();
    return doc;
}

} // namespace tkm::progress
