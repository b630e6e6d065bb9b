#include "app/progress/reportdata.h"

#include "engine/report/figures.h"

#include <QCoreApplication>

#include <cmath>

namespace tkm::app {
namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QDateTime utcFromMs(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

QList<BaselineFigures> baselinesOf(const std::optional<report::RunReport>& report)
{
    QList<BaselineFigures> out;
    if (!report)
        return out;
    for (const report::BaselineInfo& b : report->baselines) {
        const bool measured = b.dramReadBytes && b.storedBytes;
        out.append({qs(b.name), b.medianMs, measured ? std::optional<double>(report::bytesMoved(b)) : std::nullopt});
    }
    return out;
}

std::optional<SolutionFigures> storedSolution(const std::vector<progress::ActivityValue>& values)
{
    std::optional<SolutionFigures> out;
    for (const auto& v : values) {
        if (v.key == kSolutionMedianKey && v.value.is_number() && v.value.get<double>() > 0) {
            out = out.value_or(SolutionFigures{});
            out->medianMs = v.value.get<double>();
        }
    }
    for (const auto& v : values)
        if (out && v.key == kSolutionBytesKey && v.value.is_number())
            out->dramBytes = v.value.get<double>();
    return out;
}

} // namespace

int ReportData::modulesComplete() const
{
    int n = 0;
    for (const auto& m : modules)
        n += m.complete ? 1 : 0;
    return n;
}

int ReportData::exercisesPassed() const
{
    int n = 0;
    for (const auto& e : exercises)
        n += e.passed ? 1 : 0;
    return n;
}

std::optional<double> ReportData::quizAccuracy() const
{
    int answers = 0;
    int right = 0;
    for (const auto& m : modules) {
        answers += m.quizAnswers;
        right += m.quizCorrectAnswers;
    }
    if (answers == 0)
        return std::nullopt;
    return static_cast<double>(right) / answers;
}

progress::Expected<ReportData> collectReportData(const progress::Store& store,
                                                 const std::vector<progress::ModuleOutline>& course,
                                                 const QString& learnerName,
                                                 const QMap<QString, SolutionFigures>& solutions)
{
    ReportData data;
    data.learnerName = learnerName;
    data.generatedUtc = QDateTime::currentDateTimeUtc();
    auto modules = progress::courseProgress(store, course);
    if (!modules)
        return modules.error();
    data.modules = std::move(*modules);
    auto review = progress::reviewList(store, course);
    if (!review)
        return review.error();
    data.review = std::move(*review);
    auto device = store.latestDevice();
    if (!device)
        return device.error();
    data.device = qs(*device);
    auto range = store.recordedRange();
    if (!range)
        return range.error();
    if (range->has_value()) {
        data.firstUtc = utcFromMs((*range)->first);
        data.lastUtc = utcFromMs((*range)->second);
    }
    for (const auto& m : data.modules) {
        data.secondsSpent += m.secondsSpent;
        for (const auto& a : m.activities) {
            if (a.kind != course::ActivityKind::Exercise)
                continue;
            ExerciseRow row;
            row.moduleId = qs(m.moduleId);
            row.activityId = qs(a.activityId);
            row.title = qs(a.title);
            row.runs = a.attempts;
            row.passed = a.bestRun.has_value();
            const progress::Scope scope{m.moduleId, a.activityId};
            auto history = store.runHistory(scope);
            if (!history)
                return history.error();
            if (!history->empty())
                row.lastVerdict = history->front().verdict;
            for (const progress::KernelRun& run : *history) {
                const QString track = run.track == "triton" ? QStringLiteral("Triton") : QStringLiteral("CUDA");
                if (!row.tracks.contains(track))
                    row.tracks << track;
            }
            if (a.bestRun) {
                auto whole = store.run(a.bestRun->id);
                if (!whole)
                    return whole.error();
                row.baselines = baselinesOf(whole->report);
                row.best = std::move(*whole);
            }
            auto help = store.helpViews(scope);
            if (!help)
                return help.error();
            for (const auto& h : *help) {
                row.hintsViewed += h.kind == progress::HelpKind::Hint ? 1 : 0;
                row.solutionViewed = row.solutionViewed || h.kind == progress::HelpKind::Solution;
            }
            const auto solution = solutions.find(row.moduleId + QLatin1Char('/') + row.activityId);
            if (solution != solutions.end()) {
                row.solution = *solution;
            } else {
                auto values = store.activityValues(scope);
                if (!values)
                    return values.error();
                row.solution = storedSolution(*values);
            }
            data.exercises.push_back(std::move(row));
        }
    }
    return data;
}

QString formatDuration(double seconds)
{
    const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    if (total < 60)
        return QStringLiteral("%1 s").arg(total);
    const long long minutes = total / 60;
    if (minutes < 60)
        return QStringLiteral("%1 min").arg(minutes);
    return QStringLiteral("%1 h %2 min").arg(minutes / 60).arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

QString formatFraction(double fraction)
{
    return QStringLiteral("%1 %").arg(std::lround(fraction * 100.0));
}

} // namespace tkm::app
