#pragma once
// The store's schema and its migrations. The schema version lives in SQLite's `PRAGMA user_version`:
//   0  empty file (no tables yet)
//   1  attempts (quiz, spot-the-bug, drag-match, step-through), help views, kernel runs, resume position
//   2  adds time_spans (time spent per activity), kernel_runs.ideal_bytes / ceiling_gbps (backfilled from each
//      run's stored report) and per-activity indexes on every attempt table
//   3  adds activity_values (the app's per-activity view state: navigator state, quiz flags, meta-parameters)
// Migration N→N+1 runs in its own IMMEDIATE transaction that also sets user_version, so a crash leaves either
// version N or N+1, and two processes opening one file at once migrate it once. docs/progress.md lists the tables.

#include "modules/progress/result.h"

#include <string_view>

namespace SQLite {
class Database;
}

namespace tkm::progress {

/// The schema version this code writes and reads; a file with a higher user_version is refused, not altered.
inline constexpr int kSchemaVersion = 3;

/// The SQL that takes a version-`from` database to version from+1 (from in [0, kSchemaVersion)); the DDL of every
/// earlier version stays here so tests can build a database of that version and migrate it.
std::string_view migrationSql(int from);

/// Runs the migrations from the file's user_version up to `target` (≤ kSchemaVersion), one transaction each.
/// Returns the version found before migrating. Errors: TooNew when the file's version exceeds kSchemaVersion
/// (nothing is changed), Busy when another process holds the write lock past the busy timeout, Sqlite otherwise.
Expected<int> migrate(SQLite::Database& db, int target = kSchemaVersion);

/// The file's `PRAGMA user_version`.
int schemaVersionOf(SQLite::Database& db);

} // namespace tkm::progress
