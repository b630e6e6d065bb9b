#include "modules/progress/schema.h"

#include "modules/progress/detail/sql.h"

#include <SQLiteCpp/Statement.h>

#include <array>
#include <string>

namespace tkm::progress {
namespace {

// Version 0 → 1: the first schema. Kept verbatim: a version-1 file in the wild has exactly these tables.
constexpr std::string_view kToV1 = R"sql(
CREATE TABLE quiz_answers(
  id INTEGER PRIMARY KEY,
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  question_id TEXT NOT NULL,
  choices TEXT NOT NULL,
  correct INTEGER NOT NULL CHECK(correct IN (0, 1)),
  at_ms INTEGER NOT NULL);
CREATE TABLE spot_picks(
  id INTEGER PRIMARY KEY,
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  lines TEXT NOT NULL,
  correct INTEGER NOT NULL CHECK(correct IN (0, 1)),
  at_ms INTEGER NOT NULL);
CREATE TABLE drag_attempts(
  id INTEGER PRIMARY KEY,
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  placement TEXT NOT NULL,
  correct_count INTEGER NOT NULL,
  item_count INTEGER NOT NULL,
  at_ms INTEGER NOT NULL);
CREATE TABLE step_completions(
  id INTEGER PRIMARY KEY,
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  step_count INTEGER NOT NULL,
  at_ms INTEGER NOT NULL);
CREATE TABLE help_views(
  id INTEGER PRIMARY KEY,
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK(kind IN ('hint', 'solution')),
  hint_index INTEGER NOT NULL,
  at_ms INTEGER NOT NULL);
CREATE TABLE kernel_runs(
  id INTEGER PRIMARY KEY,
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  exercise_id TEXT NOT NULL,
  source TEXT NOT NULL,
  meta TEXT NOT NULL,
  verdict TEXT NOT NULL,
  median_ms REAL,
  achieved_gbps REAL,
  dram_read_bytes INTEGER,
  stored_bytes INTEGER,
  device TEXT NOT NULL,
  report TEXT NOT NULL,
  at_ms INTEGER NOT NULL);
CREATE INDEX kernel_runs_by_activity ON kernel_runs(module_id, activity_id, at_ms);
CREATE TABLE position(
  id INTEGER PRIMARY KEY CHECK(id = 1),
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  at_ms INTEGER NOT NULL);
)sql";

// Version 1 → 2: time spent per activity; the dashboard's "% of ceiling" and "DRAM efficiency" need the ideal
// bytes and the bandwidth ceiling of each run as columns, recovered for old runs from the report they stored.
constexpr std::string_view kToV2 = R"sql(
CREATE TABLE time_spans(
  id INTEGER PRIMARY KEY,
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL CHECK(end_ms >= start_ms));
CREATE INDEX time_spans_by_activity ON time_spans(module_id, activity_id);
ALTER TABLE kernel_runs ADD COLUMN ideal_bytes INTEGER;
ALTER TABLE kernel_runs ADD COLUMN ceiling_gbps REAL;
UPDATE kernel_runs SET
  ideal_bytes = json_extract(report, '$.traffic.ideal_bytes'),
  ceiling_gbps = coalesce(json_extract(report, '$.ceilings.measured_copy_gbps'),
                          json_extract(report, '$.ceilings.theoretical_gbps'))
  WHERE json_valid(report);
CREATE INDEX quiz_answers_by_activity ON quiz_answers(module_id, activity_id);
CREATE INDEX spot_picks_by_activity ON spot_picks(module_id, activity_id);
CREATE INDEX drag_attempts_by_activity ON drag_attempts(module_id, activity_id);
CREATE INDEX step_completions_by_activity ON step_completions(module_id, activity_id);
CREATE INDEX help_views_by_activity ON help_views(module_id, activity_id);
)sql";

// Version 2 → 3: the app's per-activity view state (navigator state, quiz flags, chosen meta-parameters, hints
// shown): small named JSON values, one row per (activity, key), so they follow the database, not the machine.
constexpr std::string_view kToV3 = R"sql(
CREATE TABLE activity_values(
  module_id TEXT NOT NULL,
  activity_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  PRIMARY KEY(module_id, activity_id, key));
)sql";

constexpr std::array<std::string_view, kSchemaVersion> kMigrations = {kToV1, kToV2, kToV3};

} // namespace

std::string_view migrationSql(int from)
{
    if (from < 0 || from >= kSchemaVersion) {
        return {};
    }
    return kMigrations[static_cast<size_t>(from)];
}

int schemaVersionOf(SQLite::Database& db)
{
    return db.execAndGet("PRAGMA user_version").getInt();
}

Expected<int> migrate(SQLite::Database& db, int target)
{
    if (target > kSchemaVersion) {
        target = kSchemaVersion;
    }
    int found = -1;
    for (;;) {
        try {
            // IMMEDIATE: a second process opening the same file waits here, then sees the new version and stops.
            SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
            const int version = schemaVersionOf(db);
            if (found < 0) {
                found = version;
            }
            if (version > kSchemaVersion) {
                return Error{ErrorKind::TooNew,
                             "This progress database was written by a newer version of Triton Kernel Mastery "
                             "(schema " +
                                 std::to_string(version) + "; this version reads up to " +
                                 std::to_string(kSchemaVersion) +
                                 "). Update the app, or use another database with --db PATH. The file was not "
                                 "changed.",
                             {}};
            }
            if (version >= target) {
                return found; // the transaction rolls back: nothing was written
            }
            db.exec(std::string(migrationSql(version)));
            db.exec("PRAGMA user_version = " + std::to_string(version + 1));
            tx.commit();
        } catch (const SQLite::Exception& e) {
            return detail::sqliteError("upgrade the progress database schema", e);
        }
    }
}

} // namespace tkm::progress
