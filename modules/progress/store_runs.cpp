// Store: kernel runs — recording, history, one run with its source, comparison, best run — and the run-report reader.
#include "engine/report/figures.h"
#include "modules/progress/store.h"

#include "modules/progress/detail/sql.h"

#include <SQLiteCpp/Statement.h>

namespace tkm::progress {
using detail::readQuery;
using detail::writeTransaction;

namespace {

// Column order shared by every run query; the long columns (source, report) come last and only when asked for.
constexpr std::string_view kRunColumns = "id, module_id, activity_id, exercise_id, meta, verdict, median_ms, "
                                         "achieved_gbps, dram_read_bytes, stored_bytes, ideal_bytes, ceiling_gbps, "
                                         "device, at_ms, "
                                         // The track is the report's `language` (reports before it are CUDA).
                                         "coalesce(CASE WHEN json_valid(report) THEN json_extract(report, "
                                         "'$.language') END, 'cuda')";
constexpr std::string_view kRunBodyColumns = ", source, report";

std::optional<double> optDouble(const SQLite::Column& c)
{
    return c.isNull() ? std::nullopt : std::optional<double>(c.getDouble());
}

std::optional<int64_t> optInt(const SQLite::Column& c)
{
    return c.isNull() ? std::nullopt : std::optional<int64_t>(c.getInt64());
}

// The stored report text read once into the typed report; absent for "{}", text that is not a run report, or a
// report of a newer schema this build cannot read (the run's figures are in their own columns either way).
std::optional<report::RunReport> reportOrNone(const std::string& text)
{
    const nlohmann::json j = detail::jsonOrNull(text);
    if (!j.is_object() || !j.contains("schema")) {
        return std::nullopt;
    }
    try {
        return j.get<report::RunReport>();
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

KernelRun runFromRow(SQLite::Statement& q, bool withBody)
{
    KernelRun run;
    run.id = q.getColumn(0).getInt64();
    run.where = {q.getColumn(1).getString(), q.getColumn(2).getString()};
    run.exerciseId = q.getColumn(3).getString();
    run.meta = detail::jsonOrNull(q.getColumn(4).getString());
    // The column holds the report's wire names (a name of no verdict reads as an engine error).
    run.verdict = report::verdictFromName(q.getColumn(5).getString()).value_or(report::Verdict::Error);
    run.medianMs = optDouble(q.getColumn(6));
    run.achievedGbps = optDouble(q.getColumn(7));
    run.dramReadBytes = optInt(q.getColumn(8));
    run.storedBytes = optInt(q.getColumn(9));
    run.idealBytes = optInt(q.getColumn(10));
    run.ceilingGbps = optDouble(q.getColumn(11));
    run.device = q.getColumn(12).getString();
    run.atMs = q.getColumn(13).getInt64();
    run.track = q.getColumn(14).getString();
    if (withBody) {
        run.source = q.getColumn(15).getString();
        run.report = reportOrNone(q.getColumn(16).getString());
    }
    return run;
}

template <class T> void bindOptional(SQLite::Statement& s, int index, const std::optional<T>& value)
{
    if (value) {
        s.bind(index, *value);
    } else {
        s.bind(index);
    }
}

std::optional<int64_t> bytesOf(const std::optional<double>& v)
{
    return v ? std::optional<int64_t>(static_cast<int64_t>(*v + 0.5)) : std::nullopt;
}

} // namespace

std::optional<double> KernelRun::ceilingFraction() const
{
    if (!achievedGbps || !ceilingGbps || *ceilingGbps <= 0.0) {
        return std::nullopt;
    }
    return *achievedGbps / *ceilingGbps;
}

std::optional<double> KernelRun::dramEfficiency() const
{
    auto real = [](const std::optional<int64_t>& v) {
        return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
    };
    return report::dramEfficiency(real(idealBytes), real(dramReadBytes), real(storedBytes));
}

KernelRun kernelRunFromReport(ActivityRef where, std::string source, const report::RunReport& report)
{
    KernelRun run;
    run.where = std::move(where);
    run.source = std::move(source);
    run.exerciseId = report.exercise ? report.exercise->id : std::string();
    run.verdict = report.verdict;
    run.device = report.device ? report.device->name : std::string();
    if (!report.language.empty()) {
        run.track = report.language;
    }
    if (!report.meta.empty()) {
        run.meta = report.meta;
    }
    if (report.timing) {
        run.medianMs = report.timing->medianMs;
        run.achievedGbps = report.timing->achievedGbps;
    }
    if (report.traffic) {
        // Traffic figures only count when the profiler ran (traffic.available).
        if (report.traffic->available) {
            run.dramReadBytes = report.traffic->dramReadBytes;
            run.storedBytes = report.traffic->storedBytes;
        }
        run.idealBytes = bytesOf(report.traffic->idealBytes);
    }
    if (report.ceilings) {
        run.ceilingGbps = report.ceilings->measuredCopyGbps.value_or(report.ceilings->theoreticalGbps);
    }
    run.report = report;
    return run;
}

Expected<int64_t> Store::recordKernelRun(const KernelRun& run)
{
    if (run.where.moduleId.empty() || run.where.activityId.empty()) {
        return Error{ErrorKind::BadInput, "A kernel run needs its module id and activity id.", {}};
    }
    return writeTransaction(*m_db, "record the kernel run", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO kernel_runs(module_id, activity_id, exercise_id, source, meta, "
                                        "verdict, median_ms, achieved_gbps, dram_read_bytes, stored_bytes, "
                                        "ideal_bytes, ceiling_gbps, device, report, at_ms) "
                                        "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insert.bind(1, run.where.moduleId);
        insert.bind(2, run.where.activityId);
        insert.bind(3, run.exerciseId);
        insert.bind(4, run.source);
        insert.bind(5, (run.meta.is_object() ? run.meta : nlohmann::json::object()).dump());
        insert.bind(6, std::string(report::verdictName(run.verdict)));
        bindOptional(insert, 7, run.medianMs);
        bindOptional(insert, 8, run.achievedGbps);
        bindOptional(insert, 9, run.dramReadBytes);
        bindOptional(insert, 10, run.storedBytes);
        bindOptional(insert, 11, run.idealBytes);
        bindOptional(insert, 12, run.ceilingGbps);
        insert.bind(13, run.device);
        insert.bind(14, run.report ? nlohmann::json(*run.report).dump() : std::string("{}"));
        insert.bind(15, detail::stampOrNow(run.atMs));
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<std::vector<KernelRun>> Store::runHistory(const Scope& scope) const
{
    return readQuery("read the run history", [&] {
        SQLite::Statement query(*m_db, "SELECT " + std::string(kRunColumns) + " FROM kernel_runs" +
                                           detail::scopeWhere(scope) + " ORDER BY at_ms DESC, id DESC");
        detail::bindScope(query, scope);
        std::vector<KernelRun> out;
        while (query.executeStep()) {
            out.push_back(runFromRow(query, false));
        }
        return out;
    });
}

Expected<KernelRun> Store::run(int64_t runId) const
{
    auto found = readQuery("read the kernel run", [&]() -> std::optional<KernelRun> {
        SQLite::Statement query(*m_db, "SELECT " + std::string(kRunColumns) + std::string(kRunBodyColumns) +
                                           " FROM kernel_runs WHERE id = ?");
        query.bind(1, runId);
        if (!query.executeStep()) {
            return std::nullopt;
        }
        return runFromRow(query, true);
    });
    if (!found) {
        return found.error();
    }
    if (!*found) {
        return Error{ErrorKind::NotFound,
                     "Kernel run " + std::to_string(runId) + " is not in the history (was the exercise reset?).",
                     {}};
    }
    return std::move(**found);
}

Expected<std::pair<KernelRun, KernelRun>> Store::compareRuns(int64_t firstId, int64_t secondId) const
{
    auto first = run(firstId);
    if (!first) {
        return first.error();
    }
    auto second = run(secondId);
    if (!second) {
        return second.error();
    }
    if (first->where.moduleId != second->where.moduleId || first->where.activityId != second->where.activityId) {
        return Error{ErrorKind::BadInput,
                     "Runs " + std::to_string(firstId) + " and " + std::to_string(secondId) +
                         " belong to different exercises; pick two runs of the same exercise to compare.",
                     {}};
    }
    return std::pair<KernelRun, KernelRun>(std::move(*first), std::move(*second));
}

Expected<std::optional<KernelRun>> Store::bestRun(const ActivityRef& where) const
{
    return readQuery("find the best run", [&]() -> std::optional<KernelRun> {
        SQLite::Statement query(*m_db, "SELECT " + std::string(kRunColumns) +
                                           " FROM kernel_runs WHERE module_id = ? AND activity_id = ? AND verdict = "
                                           "'pass' ORDER BY median_ms IS NULL, median_ms, at_ms LIMIT 1");
        query.bind(1, where.moduleId);
        query.bind(2, where.activityId);
        if (!query.executeStep()) {
            return std::nullopt;
        }
        return runFromRow(query, false);
    });
}

Expected<std::string> Store::latestDevice() const
{
    return readQuery("find the device of the latest run", [&] {
        SQLite::Statement query(*m_db, "SELECT device FROM kernel_runs WHERE device != '' "
                                       "ORDER BY at_ms DESC, id DESC LIMIT 1");
        return query.executeStep() ? query.getColumn(0).getString() : std::string();
    });
}

} // namespace tkm::progress
