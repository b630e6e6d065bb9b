#include "modules/progress/store.h"

#include "modules/progress/detail/sql.h"

#include <SQLiteCpp/Statement.h>
#include <sqlite3.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <ctime>
#include <system_error>

namespace tkm::progress {
namespace fs = std::filesystem;
using detail::readQuery;
using detail::writeTransaction;

namespace {

/// What a look at an existing file found.
enum class Probe { Sound, Corrupt };

/// UTC "YYYYMMDD-HHMM" for the name of a moved-aside file.
std::string utcStamp()
{
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y%m%d-%H%M", &tm);
    return buffer;
}

fs::path withSuffix(const fs::path& file, const std::string& suffix)
{
    return fs::path(file.string() + suffix);
}

Error tooNew(const fs::path& file, int version)
{
    return Error{ErrorKind::TooNew,
                 "The progress database " + file.string() +
                     " was written by a newer version of Triton Kernel Mastery (schema " + std::to_string(version) +
                     "; this version reads up to " + std::to_string(kSchemaVersion) +
                     "). Update the app, or use another database with --db PATH. The file was not changed.",
                 {}};
}

Error foreign(const fs::path& file)
{
    return Error{ErrorKind::BadInput,
                 "The file " + file.string() +
                     " is an SQLite database of another program, not a progress database. Choose another path with "
                     "--db PATH; the file was not changed.",
                 {}};
}

// user_version straight from the database header (offset 60, big-endian), without SQLite: a refused file then
// gets no -wal or -shm beside it. nullopt when the file does not start with the SQLite header.
std::optional<int32_t> headerUserVersion(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::array<unsigned char, 64> header{};
    if (!in.read(reinterpret_cast<char*>(header.data()), header.size()) ||
        std::memcmp(header.data(), "SQLite format 3", 16) != 0) {
        return std::nullopt;
    }
    const uint32_t v = (uint32_t(header[60]) << 24) | (uint32_t(header[61]) << 16) | (uint32_t(header[62]) << 8) |
                       uint32_t(header[63]);
    return static_cast<int32_t>(v);
}

// Whether the tables that schema `version` has are there (another program may set user_version 1–3 too).
bool hasTablesOf(SQLite::Database& db, int version)
{
    static constexpr std::array<std::pair<int, const char*>, 4> kTables = {
        {{1, "kernel_runs"}, {1, "quiz_answers"}, {2, "time_spans"}, {3, "activity_values"}}};
    for (const auto& [since, table] : kTables) {
        if (version >= since && !db.tableExists(table)) {
            return false;
        }
    }
    return true;
}

// Reads the file read-only, so a refused (too new) file is never touched: not even switched to WAL.
Expected<Probe> probeExisting(const fs::path& file, int busyTimeoutMs, std::string& why)
{
    if (const auto version = headerUserVersion(file)) {
        if (*version > kSchemaVersion) {
            return tooNew(file, *version);
        }
        if (*version < 0) {
            return foreign(file);
        }
    }
    try {
        SQLite::Database db(file.string(), SQLite::OPEN_READONLY, busyTimeoutMs);
        const int version = schemaVersionOf(db);
        if (version > kSchemaVersion) {
            return tooNew(file, version);
        }
        const std::string check = db.execAndGet("PRAGMA quick_check").getString();
        if (check != "ok") {
            why = check;
            return Probe::Corrupt;
        }
        if (version < 0 || (version == 0 && db.execAndGet("SELECT count(*) FROM sqlite_schema").getInt() > 0) ||
            !hasTablesOf(db, version)) {
            return foreign(file);
        }
        return Probe::Sound;
    } catch (const SQLite::Exception& e) {
        const int primary = e.getErrorCode() & 0xff;
        if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
            why = e.what();
            return Probe::Corrupt;
        }
        return detail::sqliteError("open the progress database " + file.string(), e);
    }
}

// Renames the file (and its WAL, whose frames belong to it) to <file>.corrupt-<stamp>[-N]; drops the -shm index.
Expected<fs::path> moveAside(const fs::path& file)
{
    const std::string base = file.string() + ".corrupt-" + utcStamp();
    fs::path aside = base;
    for (int n = 2; fs::exists(aside) && n < 1000; ++n) {
        aside = base + "-" + std::to_string(n);
    }
    std::error_code ec;
    fs::rename(file, aside, ec);
    if (ec) {
        return Error{ErrorKind::Io,
                     "The progress database " + file.string() + " is damaged and could not be moved aside (" +
                         ec.message() + "). Move or delete it yourself, or start with another file using --db PATH.",
                     {}};
    }
    for (const char* side : {"-wal", "-journal"}) {
        if (fs::exists(withSuffix(file, side))) {
            fs::rename(withSuffix(file, side), withSuffix(aside, side), ec);
        }
    }
    fs::remove(withSuffix(file, "-shm"), ec);
    return aside;
}

} // namespace

Store::Store(std::unique_ptr<SQLite::Database> db, OpenReport report) : m_db(std::move(db)), m_report(std::move(report))
{
}

Store::Store(Store&& other) noexcept = default;
Store& Store::operator=(Store&& other) noexcept = default;
Store::~Store() = default;

Expected<Store> Store::open(const fs::path& file, const OpenOptions& options)
{
    OpenReport report;
    report.path = file;
    std::error_code ec;
    if (file.has_parent_path() && !fs::exists(file.parent_path())) {
        fs::create_directories(file.parent_path(), ec);
        if (ec) {
            return Error{ErrorKind::Io,
                         "Could not create the folder " + file.parent_path().string() + " for the progress database (" +
                             ec.message() + "). Choose a writable place with --db PATH.",
                         {}};
        }
    }
    if (fs::is_directory(file)) {
        return Error{ErrorKind::BadInput,
                     file.string() + " is a folder; give the path of a database file, e.g. " +
                         (file / "progress.db").string() + ".",
                     {}};
    }
    const auto size = fs::file_size(file, ec);
    if (!ec && size > 0) {
        std::string why;
        const bool hadWal = fs::exists(withSuffix(file, "-wal"));
        const bool hadShm = fs::exists(withSuffix(file, "-shm"));
        auto probe = probeExisting(file, options.busyTimeoutMs, why);
        if (!probe) {
            // A read-only look at a WAL database may create -wal and -shm beside it: a refused file keeps none.
            if (!hadWal && fs::file_size(withSuffix(file, "-wal"), ec) == 0 && !ec) {
                fs::remove(withSuffix(file, "-wal"), ec);
                if (!hadShm) {
                    fs::remove(withSuffix(file, "-shm"), ec);
                }
            }
            return probe.error();
        }
        if (*probe == Probe::Corrupt) {
            auto aside = moveAside(file);
            if (!aside) {
                return aside.error();
            }
            report.movedAside = *aside;
            report.notice = "The progress database " + file.string() + " could not be read (" + why +
                            "), so it was moved to " + aside->string() +
                            " and a new, empty one was started. Keep the old file if you want to recover it.";
        }
    }
    try {
        auto db = std::make_unique<SQLite::Database>(file.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                                                     options.busyTimeoutMs);
        // WAL: readers never block the writer; FULL: a commit is on disk before the call returns.
        report.wal = db->execAndGet("PRAGMA journal_mode = WAL").getString() == "wal";
        db->exec("PRAGMA synchronous = FULL");
        auto found = migrate(*db);
        if (!found) {
            return found.error();
        }
        report.foundVersion = *found;
        report.created = *found == 0;
        report.schemaVersion = schemaVersionOf(*db);
        return Store(std::move(db), std::move(report));
    } catch (const SQLite::Exception& e) {
        return detail::sqliteError("open the progress database " + file.string(), e);
    }
}

Expected<int64_t> Store::beginTimeSpan(const ActivityRef& where, int64_t startMs)
{
    const int64_t start = detail::stampOrNow(startMs);
    return writeTransaction(*m_db, "record the time spent", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO time_spans(module_id, activity_id, start_ms, end_ms) "
                                        "VALUES(?, ?, ?, ?)");
        insert.bind(1, where.moduleId);
        insert.bind(2, where.activityId);
        insert.bind(3, start);
        insert.bind(4, start);
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<void> Store::extendTimeSpan(int64_t spanId, int64_t endMs)
{
    const int64_t end = detail::stampOrNow(endMs);
    auto changed = writeTransaction(*m_db, "record the time spent", [&] {
        SQLite::Statement update(*m_db, "UPDATE time_spans SET end_ms = max(start_ms, end_ms, ?) WHERE id = ?");
        update.bind(1, end);
        update.bind(2, spanId);
        return update.exec();
    });
    if (!changed) {
        return changed.error();
    }
    if (*changed == 0) {
        return Error{ErrorKind::NotFound, "Time span " + std::to_string(spanId) + " no longer exists.", {}};
    }
    return {};
}

Expected<int64_t> Store::addTimeSpent(const ActivityRef& where, double seconds, int64_t endMs)
{
    if (!(seconds >= 0.0)) {
        return Error{ErrorKind::BadInput, "Time spent must be zero or more seconds.", {}};
    }
    const int64_t end = detail::stampOrNow(endMs);
    const auto start = end - static_cast<int64_t>(seconds * 1000.0 + 0.5);
    return writeTransaction(*m_db, "record the time spent", [&] {
        SQLite::Statement insert(*m_db, "INSERT INTO time_spans(module_id, activity_id, start_ms, end_ms) "
                                        "VALUES(?, ?, ?, ?)");
        insert.bind(1, where.moduleId);
        insert.bind(2, where.activityId);
        insert.bind(3, start);
        insert.bind(4, end);
        insert.exec();
        return m_db->getLastInsertRowid();
    });
}

Expected<void> Store::setPosition(const ActivityRef& where, int64_t atMs)
{
    const int64_t at = detail::stampOrNow(atMs);
    return writeTransaction(*m_db, "remember where you were", [&] {
        SQLite::Statement upsert(*m_db, "INSERT INTO position(id, module_id, activity_id, at_ms) VALUES(1, ?, ?, ?) "
                                        "ON CONFLICT(id) DO UPDATE SET module_id = excluded.module_id, "
                                        "activity_id = excluded.activity_id, at_ms = excluded.at_ms");
        upsert.bind(1, where.moduleId);
        upsert.bind(2, where.activityId);
        upsert.bind(3, at);
        upsert.exec();
    });
}

Expected<std::vector<TimeSpan>> Store::timeSpans(const Scope& scope) const
{
    return readQuery("read the time spent", [&] {
        SQLite::Statement query(*m_db, "SELECT id, module_id, activity_id, start_ms, end_ms FROM time_spans" +
                                           detail::scopeWhere(scope) + " ORDER BY start_ms, id");
        detail::bindScope(query, scope);
        std::vector<TimeSpan> out;
        while (query.executeStep()) {
            out.push_back(TimeSpan{query.getColumn(0).getInt64(),
                                   {query.getColumn(1).getString(), query.getColumn(2).getString()},
                                   query.getColumn(3).getInt64(),
                                   query.getColumn(4).getInt64()});
        }
        return out;
    });
}

Expected<double> Store::secondsSpent(const Scope& scope) const
{
    return readQuery("read the time spent", [&] {
        SQLite::Statement query(*m_db, "SELECT coalesce(sum(end_ms - start_ms), 0) FROM time_spans" +
                                           detail::scopeWhere(scope));
        detail::bindScope(query, scope);
        query.executeStep();
        return static_cast<double>(query.getColumn(0).getInt64()) / 1000.0;
    });
}

Expected<std::optional<Position>> Store::position() const
{
    return readQuery("read where you were", [&]() -> std::optional<Position> {
        SQLite::Statement query(*m_db, "SELECT module_id, activity_id, at_ms FROM position WHERE id = 1");
        if (!query.executeStep()) {
            return std::nullopt;
        }
        return Position{{query.getColumn(0).getString(), query.getColumn(1).getString()},
                        query.getColumn(2).getInt64()};
    });
}

Expected<std::optional<std::pair<int64_t, int64_t>>> Store::recordedRange() const
{
    return readQuery("read the dates of your progress", [&]() -> std::optional<std::pair<int64_t, int64_t>> {
        std::string sql = "SELECT min(first), max(last) FROM (";
        for (std::string_view table : detail::kActivityTables) {
            const bool spans = table == "time_spans";
            if (table == "activity_values") {
                continue; // view state, not a record of study
            }
            if (table != detail::kActivityTables[0]) {
                sql += " UNION ALL ";
            }
            sql += spans ? "SELECT min(start_ms) AS first, max(end_ms) AS last FROM time_spans"
                         : "SELECT min(at_ms) AS first, max(at_ms) AS last FROM " + std::string(table);
        }
        SQLite::Statement query(*m_db, sql + ")");
        if (!query.executeStep() || query.getColumn(0).isNull()) {
            return std::nullopt;
        }
        return std::make_pair(query.getColumn(0).getInt64(), query.getColumn(1).getInt64());
    });
}

Expected<void> Store::resetActivity(const ActivityRef& where)
{
    if (where.moduleId.empty() || where.activityId.empty()) {
        return Error{ErrorKind::BadInput, "Resetting an activity needs its module id and activity id.", {}};
    }
    return writeTransaction(*m_db, "reset the activity", [&] {
        for (std::string_view table : detail::kActivityTables) {
            SQLite::Statement del(*m_db,
                                  "DELETE FROM " + std::string(table) + " WHERE module_id = ? AND activity_id = ?");
            del.bind(1, where.moduleId);
            del.bind(2, where.activityId);
            del.exec();
        }
    });
}

Expected<void> Store::resetModule(const std::string& moduleId)
{
    if (moduleId.empty()) {
        return Error{ErrorKind::BadInput, "Resetting a module needs its module id.", {}};
    }
    return writeTransaction(*m_db, "reset the module", [&] {
        for (std::string_view table : detail::kActivityTables) {
            SQLite::Statement del(*m_db, "DELETE FROM " + std::string(table) + " WHERE module_id = ?");
            del.bind(1, moduleId);
            del.exec();
        }
        SQLite::Statement del(*m_db, "DELETE FROM position WHERE module_id = ?");
        del.bind(1, moduleId);
        del.exec();
    });
}

Expected<void> Store::resetAll()
{
    return writeTransaction(*m_db, "reset all progress", [&] {
        for (std::string_view table : detail::kActivityTables) {
            m_db->exec("DELETE FROM " + std::string(table));
        }
        m_db->exec("DELETE FROM position");
    });
}

Expected<std::string> Store::integrityCheck() const
{
    return readQuery("check the progress database", [&] {
        SQLite::Statement query(*m_db, "PRAGMA integrity_check");
        std::string out;
        while (query.executeStep()) {
            if (!out.empty()) {
                out += '\n';
            }
            out += query.getColumn(0).getString();
        }
        return out;
    });
}

} // namespace tkm::progress
