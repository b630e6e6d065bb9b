#pragma once
// The progress store: one SQLite database per learner that records every attempt, kernel run, help view and
// minute spent, and answers the app's questions (resume position, run history, figures for the dashboard).
// Completion rules and the review list are in completion.h, raw exports in export.h; docs/progress.md documents
// the rules, the tables and the guarantees.
//
// Guarantees: WAL journal, synchronous=FULL, every write one IMMEDIATE transaction — a killed process loses at most
// the write in flight; a second process on the same file waits up to the busy timeout for the write lock.
// A file that is not a database or fails `PRAGMA quick_check` is renamed to `<file>.corrupt-YYYYMMDD-HHMM`
// (UTC) and a fresh database is created in its place (OpenReport says where the old one went); a file from a newer
// schema is refused (ErrorKind::TooNew) and left byte-for-byte unchanged.
// A Store is not thread-safe: use one per thread (several may share one file).

#include "modules/progress/records.h"
#include "modules/progress/result.h"
#include "modules/progress/schema.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace SQLite {
class Database;
}

namespace tkm::progress {

/// What open() found and did.
struct OpenReport
{
    std::filesystem::path path;       ///< the database file
    bool created = false;             ///< a new, empty database was created (first start, or after moving aside)
    int foundVersion = 0;             ///< schema version of the file before migrating (0: new or empty)
    int schemaVersion = 0;            ///< schema version now (kSchemaVersion)
    std::filesystem::path movedAside; ///< where an unreadable old file was moved; empty when none was
    std::string notice;               ///< sentence for the learner when something was moved aside; else empty
    bool wal = false;                 ///< the journal is in WAL mode (false only on file systems without it)
};

/// Options of open().
struct OpenOptions
{
    int busyTimeoutMs = 5000; ///< [ms] how long a write waits for another process's lock before ErrorKind::Busy
};

/// The progress database of one learner.
class Store
{
public:
    /// Opens (creating the folder and file if needed) and migrates the database at `file`. Errors: TooNew (file
    /// untouched), Io (folder not creatable, file not openable or not movable), Busy, Sqlite.
    static Expected<Store> open(const std::filesystem::path& file, const OpenOptions& options = {});

    Store(Store&& other) noexcept;            ///< takes over the connection
    Store& operator=(Store&& other) noexcept; ///< takes over the connection
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;
    ~Store(); ///< closes the connection

    const OpenReport& openReport() const { return m_report; }           ///< what open() found and did
    const std::filesystem::path& path() const { return m_report.path; } ///< the database file

    // ---- writes: one transaction each; a returned id is the new row's id ----
    Expected<int64_t> recordQuizAnswer(const QuizAnswer& answer);       ///< one quiz answer
    Expected<int64_t> recordSpotPick(const SpotPick& pick);             ///< one spot-the-bug pick
    Expected<int64_t> recordDragAttempt(const DragAttempt& attempt);    ///< one drag-match submission
    Expected<int64_t> recordStepCompletion(const StepCompletion& done); ///< a step-through finished
    Expected<int64_t> recordHelpView(const HelpView& view);             ///< a hint or solution shown
    Expected<int64_t> recordKernelRun(const KernelRun& run);            ///< a kernel run with source and report
    /// Starts a stretch of time in an activity (end = start); extend it with extendTimeSpan() while it stays open.
    Expected<int64_t> beginTimeSpan(const ActivityRef& where, int64_t startMs = 0);
    /// Moves the end of a stretch to endMs [ms since epoch] (0 = now; never before its start). NotFound when the
    /// span is gone (its activity was reset meanwhile).
    Expected<void> extendTimeSpan(int64_t spanId, int64_t endMs = 0);
    /// Records `seconds` [s] spent in an activity, ending at endMs (0 = now).
    Expected<int64_t> addTimeSpent(const ActivityRef& where, double seconds, int64_t endMs = 0);
    /// Remembers the activity shown last (resume point); replaces the previous one.
    Expected<void> setPosition(const ActivityRef& where, int64_t atMs = 0);
    /// Sets one view-state value of an activity (replaces the previous value of that key); a null `value` removes
    /// the key. BadInput for an empty id or key.
    Expected<void> setActivityValue(const ActivityRef& where, const std::string& key, const nlohmann::json& value);

    // ---- reads: oldest first unless stated ----
    Expected<std::vector<QuizAnswer>> quizAnswers(const Scope& scope = {}) const;         ///< quiz answers
    Expected<std::vector<SpotPick>> spotPicks(const Scope& scope = {}) const;             ///< spot-the-bug picks
    Expected<std::vector<DragAttempt>> dragAttempts(const Scope& scope = {}) const;       ///< drag-match attempts
    Expected<std::vector<StepCompletion>> stepCompletions(const Scope& scope = {}) const; ///< step-throughs done
    Expected<std::vector<HelpView>> helpViews(const Scope& scope = {}) const;             ///< hints/solutions seen
    Expected<std::vector<TimeSpan>> timeSpans(const Scope& scope = {}) const;             ///< time stretches
    Expected<double> secondsSpent(const Scope& scope = {}) const; ///< [s] sum of the time stretches in scope
    Expected<std::optional<Position>> position() const;           ///< resume point; nullopt when none
    /// View-state values in scope, ordered by module, activity and key.
    Expected<std::vector<ActivityValue>> activityValues(const Scope& scope = {}) const;
    /// Kernel runs in scope, newest first, without source and report (see run()).
    Expected<std::vector<KernelRun>> runHistory(const Scope& scope = {}) const;
    /// One run with its source and full report; NotFound for an unknown id.
    Expected<KernelRun> run(int64_t runId) const;
    /// Two runs of the same exercise, both whole, for a side-by-side view; BadInput when they are of different
    /// exercises, NotFound when either is missing.
    Expected<std::pair<KernelRun, KernelRun>> compareRuns(int64_t firstId, int64_t secondId) const;
    /// The fastest passing run of an activity (lowest median_ms; a passing run without timing counts last),
    /// without source and report; nullopt when none passed.
    Expected<std::optional<KernelRun>> bestRun(const ActivityRef& where) const;

    /// [ms since epoch, UTC] of the first and the last record of any kind; nullopt for an empty store.
    Expected<std::optional<std::pair<int64_t, int64_t>>> recordedRange() const;
    /// Device name of the latest kernel run that ran on a GPU; empty when none did.
    Expected<std::string> latestDevice() const;

    // ---- resets (the app asks for confirmation first) ----
    /// Deletes every record of one activity: attempts, runs (with their sources), help views, time.
    /// The resume point stays.
    Expected<void> resetActivity(const ActivityRef& where);
    /// Deletes every record of one module; clears the resume point when it lies in that module.
    Expected<void> resetModule(const std::string& moduleId);
    /// Deletes every record and the resume point. The file and its schema stay.
    Expected<void> resetAll();

    // ---- maintenance ----
    /// `PRAGMA integrity_check` result: "ok" for a sound file, else SQLite's list of problems.
    Expected<std::string> integrityCheck() const;
    /// The connection, for tests and for export.h (no other caller should need it).
    SQLite::Database& database() const { return *m_db; }

private:
    Store(std::unique_ptr<SQLite::Database> db, OpenReport report);

    std::unique_ptr<SQLite::Database> m_db;
    OpenReport m_report;
};

} // namespace tkm::progress
