#include "modules/course/grading.h"

#include <algorithm>
#include <set>

namespace tkm::course {

QuizGrade gradeQuiz(const Question& question, const std::vector<int>& selected)
{
    QuizGrade grade;
    const int count = static_cast<int>(question.choices.size());
    std::set<int> picked;
    for (const int index : selected) {
        if (index < 0 || index >= count || !picked.insert(index).second) {
            ++grade.ignoredIndices;
        }
    }
    grade.choices.reserve(question.choices.size());
    for (int i = 0; i < count; ++i) {
        const Choice& choice = question.choices[static_cast<std::size_t>(i)];
        ChoiceFeedback feedback;
        feedback.selected = picked.count(i) > 0;
        feedback.correct = choice.correct;
        feedback.explanation = choice.explanation;
        if (feedback.correct && !feedback.selected) {
            ++grade.missedCorrect;
        }
        if (!feedback.correct && feedback.selected) {
            ++grade.selectedWrong;
        }
        grade.choices.push_back(std::move(feedback));
    }
    // A single-answer question with several ticks cannot be right even if one of them is.
    const bool tooMany = !question.multiple && picked.size() > 1;
    grade.correct = !picked.empty() && !tooMany && grade.missedCorrect == 0 && grade.selectedWrong == 0;
    return grade;
}

SpotGrade gradeSpotTheBug(const SpotTheBug& item, int clickedLine)
{
    SpotGrade grade;
    grade.clickedLine = clickedLine;
    grade.bugLines = item.bugLines;
    const int lineCount = static_cast<int>(std::count(item.code.begin(), item.code.end(), '\n')) +
                          (item.code.empty() || item.code.back() == '\n' ? 0 : 1);
    grade.inListing = clickedLine >= 1 && clickedLine <= lineCount;
    grade.correct = std::find(item.bugLines.begin(), item.bugLines.end(), clickedLine) != item.bugLines.end();
    if (grade.correct) {
        grade.message = "Right: line " + std::to_string(clickedLine) + " is where the bug is.";
    } else if (!grade.inListing) {
        grade.message = "Line " + std::to_string(clickedLine) + " is not in the listing; click a line of the code.";
    } else {
        grade.message = "Not line " + std::to_string(clickedLine) + ": read what each line computes and try another.";
    }
    return grade;
}

DragGrade gradeDragMatch(const DragMatch& activity, const std::map<std::string, std::string>& placement)
{
    DragGrade grade;
    auto targetExists = [&activity](const std::string& id) {
        return std::any_of(activity.targets.begin(), activity.targets.end(),
                           [&id](const DragTarget& t) { return t.id == id; });
    };
    for (const auto& [itemId, targetId] : placement) {
        const bool itemExists = std::any_of(activity.items.begin(), activity.items.end(),
                                            [&itemId](const DragItem& i) { return i.id == itemId; });
        if (!itemExists || !targetExists(targetId)) {
            ++grade.unknownIds;
        }
    }
    for (const DragItem& item : activity.items) {
        DragItemGrade g;
        g.itemId = item.id;
        g.correctTarget = item.target;
        g.explanation = item.explanation;
        if (const auto it = placement.find(item.id); it != placement.end() && targetExists(it->second)) {
            g.placedTarget = it->second;
        }
        g.correct = g.placedTarget == item.target;
        if (g.placedTarget.empty()) {
            ++grade.unplaced;
        }
        if (g.correct) {
            ++grade.correctCount;
        }
        grade.items.push_back(std::move(g));
    }
    grade.allCorrect = !activity.items.empty() && grade.correctCount == static_cast<int>(activity.items.size());
    return grade;
}

} // namespace tkm::course
