#include "modules/progress/completion.h"

#include "modules/progress/store.h"

#include <map>
#include <set>
#include <tuple>

namespace tkm::progress {
namespace {

using course::ActivityKind;

/// Every record of one module, fetched once and grouped by activity.
struct ModuleRecords
{
    std::map<std::string, std::vector<QuizAnswer>> quiz;
    std::map<std::string, std::vector<SpotPick>> picks;
    std::map<std::string, std::vector<DragAttempt>> drags;
    std::map<std::string, std::vector<StepCompletion>> steps;
    std::map<std::string, std::vector<KernelRun>> runs; // oldest first
    std::map<std::string, double> seconds;              // [s]
    std::set<std::string> markedDone;                   // activities whose stored state is done
};

template <class T> std::map<std::string, std::vector<T>> byActivity(std::vector<T> rows)
{
    std::map<std::string, std::vector<T>> out;
    for (auto& row : rows) {
        out[row.where.activityId].push_back(std::move(row));
    }
    return out;
}

template <class T>
const std::vector<T>& rowsOf(const std::map<std::string, std::vector<T>>& map, const std::string& activityId)
{
    static const std::vector<T> kNone;
    const auto it = map.find(activityId);
    return it == map.end() ? kNone : it->second;
}

Expected<ModuleRecords> fetch(const Store& store, const std::string& moduleId)
{
    const Scope scope{moduleId, {}};
    auto quiz = store.quizAnswers(scope);
    auto picks = store.spotPicks(scope);
    auto drags = store.dragAttempts(scope);
    auto steps = store.stepCompletions(scope);
    auto runs = store.runHistory(scope);
    auto spans = store.timeSpans(scope);
    auto values = store.activityValues(scope);
    for (const Error* e :
         {quiz ? nullptr : &quiz.error(), picks ? nullptr : &picks.error(), drags ? nullptr : &drags.error(),
          steps ? nullptr : &steps.error(), runs ? nullptr : &runs.error(), spans ? nullptr : &spans.error(),
          values ? nullptr : &values.error()}) {
        if (e) {
            return *e;
        }
    }
    ModuleRecords r;
    r.quiz = byActivity(std::move(*quiz));
    r.picks = byActivity(std::move(*picks));
    r.drags = byActivity(std::move(*drags));
    r.steps = byActivity(std::move(*steps));
    std::vector<KernelRun> oldestFirst(runs->rbegin(), runs->rend());
    r.runs = byActivity(std::move(oldestFirst));
    for (const TimeSpan& span : *spans) {
        r.seconds[span.where.activityId] += static_cast<double>(span.endMs - span.startMs) / 1000.0;
    }
    for (const ActivityValue& v : *values) {
        if (v.key == kStateKey && v.value.is_number_integer() && v.value.get<int64_t>() >= 2) {
            r.markedDone.insert(v.where.activityId);
        }
    }
    return r;
}

// Same order as Store::bestRun: timed runs before untimed ones, then fastest, then earliest.
std::optional<KernelRun> fastestPass(const std::vector<KernelRun>& runs)
{
    const KernelRun* best = nullptr;
    auto key = [](const KernelRun& r) {
        return std::make_tuple(!r.medianMs.has_value(), r.medianMs.value_or(0.0), r.atMs);
    };
    for (const KernelRun& r : runs) {
        if (r.verdict == report::Verdict::Pass && (!best || key(r) < key(*best))) {
            best = &r;
        }
    }
    return best ? std::optional<KernelRun>(*best) : std::nullopt;
}

ActivityProgress activityProgress(const ActivityOutline& a, const ModuleRecords& r, ModuleProgress& m)
{
    ActivityProgress p;
    p.activityId = a.id;
    p.kind = a.kind;
    p.title = a.title;
    p.itemsTotal = 1;
    const auto spent = r.seconds.find(a.id);
    p.secondsSpent = spent == r.seconds.end() ? 0.0 : spent->second;
    const bool opened = spent != r.seconds.end();
    switch (a.kind) {
    case ActivityKind::Lesson:
    case ActivityKind::Walkthrough:
        p.itemsDone = r.markedDone.count(a.id) ? 1 : 0;
        break;
    case ActivityKind::Quiz: {
        const auto& answers = rowsOf(r.quiz, a.id);
        const std::set<std::string> known(a.questionIds.begin(), a.questionIds.end());
        std::set<std::string> right;
        for (const QuizAnswer& q : answers) {
            if (!known.count(q.questionId)) {
                continue; // a question since removed from the content
            }
            ++p.attempts;
            ++m.quizAnswers;
            if (q.correct) {
                ++m.quizCorrectAnswers;
                right.insert(q.questionId);
            }
        }
        p.itemsDone = right.size() == known.size() ? 1 : 0;
        m.questionsTotal += static_cast<int>(known.size());
        m.questionsRight += static_cast<int>(right.size());
        break;
    }
    case ActivityKind::SpotTheBug: {
        const auto& picks = rowsOf(r.picks, a.id);
        p.attempts = static_cast<int>(picks.size());
        for (const SpotPick& pick : picks) {
            p.itemsDone = pick.correct ? 1 : p.itemsDone;
        }
        ++m.bugsTotal;
        m.bugsFound += p.itemsDone;
        break;
    }
    case ActivityKind::DragMatch: {
        const auto& drags = rowsOf(r.drags, a.id);
        p.attempts = static_cast<int>(drags.size());
        for (const DragAttempt& d : drags) {
            p.itemsDone = d.correctCount == d.itemCount ? 1 : p.itemsDone;
        }
        break;
    }
    case ActivityKind::StepThrough:
        p.attempts = static_cast<int>(rowsOf(r.steps, a.id).size());
        p.itemsDone = p.attempts > 0 ? 1 : 0;
        break;
    case ActivityKind::Exercise: {
        const auto& runs = rowsOf(r.runs, a.id);
        p.attempts = static_cast<int>(runs.size());
        p.bestRun = fastestPass(runs);
        p.itemsDone = p.bestRun ? 1 : 0;
        ++m.exercisesTotal;
        m.exercisesPassed += p.itemsDone;
        break;
    }
    }
    p.started = opened || p.attempts > 0;
    p.complete = p.itemsDone == p.itemsTotal;
    return p;
}

} // namespace

bool isGradedVerdict(report::Verdict verdict)
{
    using report::Verdict;
    return verdict == Verdict::Pass || verdict == Verdict::Fail || verdict == Verdict::Fault ||
           verdict == Verdict::Timeout || verdict == Verdict::CompileError;
}

double ModuleProgress::fraction() const
{
    return itemsTotal == 0 ? 1.0 : static_cast<double>(itemsDone) / itemsTotal;
}

std::optional<double> ModuleProgress::quizAccuracy() const
{
    if (quizAnswers == 0) {
        return std::nullopt;
    }
    return static_cast<double>(quizCorrectAnswers) / quizAnswers;
}

Expected<ModuleProgress> moduleProgress(const Store& store, const ModuleOutline& module)
{
    auto records = fetch(store, module.id);
    if (!records) {
        return records.error();
    }
    ModuleProgress m;
    m.moduleId = module.id;
    m.title = module.title;
    for (const ActivityOutline& a : module.activities) {
        ActivityProgress p = activityProgress(a, *records, m);
        m.itemsDone += p.itemsDone;
        m.itemsTotal += p.itemsTotal;
        m.secondsSpent += p.secondsSpent;
        m.activities.push_back(std::move(p));
    }
    m.complete = m.itemsDone == m.itemsTotal;
    return m;
}

Expected<std::vector<ModuleProgress>> courseProgress(const Store& store, const std::vector<ModuleOutline>& course)
{
    std::vector<ModuleProgress> out;
    for (const ModuleOutline& module : course) {
        auto m = moduleProgress(store, module);
        if (!m) {
            return m.error();
        }
        out.push_back(std::move(*m));
    }
    return out;
}

Expected<std::vector<ModuleReview>> reviewList(const Store& store, const std::vector<ModuleOutline>& course)
{
    std::vector<ModuleReview> out;
    for (const ModuleOutline& module : course) {
        auto records = fetch(store, module.id);
        if (!records) {
            return records.error();
        }
        const ModuleRecords& r = *records;
        ModuleReview review{module.id, module.title, {}};
        for (const ActivityOutline& a : module.activities) {
            ReviewItem item;
            item.activityId = a.id;
            item.activityTitle = a.title;
            switch (a.kind) {
            case ActivityKind::Quiz:
                for (size_t index = 0; index < a.questionIds.size(); ++index) {
                    const std::string& questionId = a.questionIds[index];
                    ReviewItem q = item;
                    q.reason = ReviewReason::QuestionMissed;
                    q.questionId = questionId;
                    q.questionNumber = static_cast<int>(index) + 1;
                    bool latestWrong = false;
                    for (const QuizAnswer& answer : rowsOf(r.quiz, a.id)) {
                        if (answer.questionId == questionId) {
                            latestWrong = !answer.correct;
                            q.misses += answer.correct ? 0 : 1;
                            q.lastAtMs = answer.atMs;
                        }
                    }
                    if (latestWrong) {
                        review.items.push_back(std::move(q));
                    }
                }
                break;
            case ActivityKind::SpotTheBug: {
                const auto& picks = rowsOf(r.picks, a.id);
                if (!picks.empty() && !picks.back().correct) {
                    item.reason = ReviewReason::BugNotSpotted;
                    for (const SpotPick& pick : picks) {
                        item.misses += pick.correct ? 0 : 1;
                    }
                    item.lastAtMs = picks.back().atMs;
                    review.items.push_back(std::move(item));
                }
                break;
            }
            case ActivityKind::DragMatch: {
                const auto& drags = rowsOf(r.drags, a.id);
                if (!drags.empty() && drags.back().correctCount != drags.back().itemCount) {
                    item.reason = ReviewReason::DragMatchNotRight;
                    for (const DragAttempt& d : drags) {
                        item.misses += d.correctCount == d.itemCount ? 0 : 1;
                    }
                    item.lastAtMs = drags.back().atMs;
                    review.items.push_back(std::move(item));
                }
                break;
            }
            case ActivityKind::Exercise: {
                const auto& runs = rowsOf(r.runs, a.id);
                const KernelRun* lastGraded = nullptr;
                for (const KernelRun& run : runs) {
                    if (isGradedVerdict(run.verdict)) {
                        ++item.misses;
                        lastGraded = &run;
                    }
                }
                if (lastGraded && !fastestPass(runs)) {
                    item.reason = ReviewReason::ExerciseNotPassed;
                    item.lastVerdict = lastGraded->verdict;
                    item.lastAtMs = lastGraded->atMs;
                    review.items.push_back(std::move(item));
                }
                break;
            }
            case ActivityKind::Lesson:
            case ActivityKind::Walkthrough:
            case ActivityKind::StepThrough:
                break; // nothing to get wrong
            }
        }
        if (!review.items.empty()) {
            out.push_back(std::move(review));
        }
    }
    return out;
}

std::string_view reviewReasonLabel(ReviewReason reason)
{
    switch (reason) {
    case ReviewReason::QuestionMissed:
        return "question missed";
    case ReviewReason::BugNotSpotted:
        return "bug not spotted";
    case ReviewReason::DragMatchNotRight:
        return "drag-match not yet right";
    case ReviewReason::ExerciseNotPassed:
        return "exercise not passed";
    }
    return "review";
}

} // namespace tkm::progress
