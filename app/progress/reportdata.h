#pragma once
// Everything the dashboard and the exported report show, gathered from the progress store in one place:
// per-module progress and scores, each exercise's best run (with its baselines) against the solution, the review
// list, dates, device and time spent.

#include "modules/progress/completion.h"
#include "modules/progress/store.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace tkm::app {

/// Keys of the exercise's activity values (progress::Store::setActivityValue) where the app keeps the solution's
/// figures measured by "Compare with the solution": median [ms] and DRAM read + stored [bytes].
inline constexpr char kSolutionMedianKey[] = "solution/median_ms";
inline constexpr char kSolutionBytesKey[] = "solution/dram_bytes";

/// The solution's figures for one exercise, measured on the learner's device (the app runs the solution once).
struct SolutionFigures
{
    double medianMs = 0.0;           ///< [ms] the solution's median time
    std::optional<double> dramBytes; ///< [bytes] DRAM read + stored by the solution, when measured
};

/// A baseline of a run report (`baselines[]`, docs/run-report.md).
struct BaselineFigures
{
    QString name;                    ///< e.g. "unfused", "cuBLAS"
    double medianMs = 0.0;           ///< [ms]
    std::optional<double> dramBytes; ///< [bytes] read + stored, when measured
};

/// One exercise in the report.
struct ExerciseRow
{
    QString moduleId;                        ///< module id
    QString activityId;                      ///< activity id
    QString title;                           ///< exercise title
    int runs = 0;                            ///< kernel runs recorded
    bool passed = false;                     ///< a run passed
    std::optional<report::Verdict> lastVerdict; ///< verdict of the latest run (absent without runs)
    QStringList tracks;                      ///< tracks its runs used ("Triton", "CUDA"), newest first
    std::optional<progress::KernelRun> best; ///< fastest passing run (with its report)
    QList<BaselineFigures> baselines;        ///< baselines measured with the best run
    std::optional<SolutionFigures> solution; ///< the solution's figures, when known
    int hintsViewed = 0;                     ///< hints shown
    bool solutionViewed = false;             ///< the solution was shown
};

/// The whole report.
struct ReportData
{
    QString learnerName;                           ///< from settings (may be empty)
    QString device;                                ///< GPU of the latest run ("" when no run reached a GPU)
    QDateTime generatedUtc;                        ///< when the data was gathered
    QDateTime firstUtc;                            ///< first record (invalid for an empty store)
    QDateTime lastUtc;                             ///< last record (invalid for an empty store)
    std::vector<progress::ModuleProgress> modules; ///< in course order
    std::vector<progress::ModuleReview> review;    ///< weak topics, grouped by module
    std::vector<ExerciseRow> exercises;            ///< every exercise of the course, in course order
    double secondsSpent = 0.0;                     ///< [s] over the whole course

    int modulesComplete() const;                ///< modules with every item done
    int exercisesPassed() const;                ///< exercises with a passing run
    std::optional<double> quizAccuracy() const; ///< right answers / answers over all modules
};

/// Gathers the report from the store. `solutions` maps "module/activity" to the solution's figures; an exercise
/// missing there takes the figures stored under kSolutionMedianKey / kSolutionBytesKey, when any.
/// Errors are the store's (a sentence for the learner).
progress::Expected<ReportData> collectReportData(const progress::Store& store,
                                                 const std::vector<progress::ModuleOutline>& course,
                                                 const QString& learnerName,
                                                 const QMap<QString, SolutionFigures>& solutions = {});

/// "3 h 05 min", "12 min", "40 s" for [s].
QString formatDuration(double seconds);
/// "75 %" for a fraction [0, 1].
QString formatFraction(double fraction);

} // namespace tkm::app
