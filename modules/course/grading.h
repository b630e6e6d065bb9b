#pragma once
// Grading of the self-checking activities (quiz, spot-the-bug, drag-match). Qt-free, pure functions:
// the app shows the feedback, the progress store records `correct`.

#include "modules/course/model.h"

#include <map>
#include <string>
#include <vector>

namespace tkm::course {

/// Feedback on one choice of a graded question.
struct ChoiceFeedback
{
    bool selected = false;   ///< the learner ticked it
    bool correct = false;    ///< it is a right answer
    std::string explanation; ///< the choice's explanation (always shown after answering)

    /// Whether the learner's decision on this choice was right (ticked a correct one or left a wrong one).
    bool decidedRight() const { return selected == correct; }
};

/// Result of grading one question.
struct QuizGrade
{
    bool correct = false;                ///< exactly the correct choices were selected
    int missedCorrect = 0;               ///< correct choices left unselected
    int selectedWrong = 0;               ///< wrong choices selected
    int ignoredIndices = 0;              ///< selected indices outside the choice list (ignored) or repeated
    std::vector<ChoiceFeedback> choices; ///< one per choice, in the question's order
};

/// Grades `selected` (0-based choice indices) against the question. A single-answer question (multiple=false)
/// with more than one selection is wrong. Out-of-range and repeated indices are ignored and counted.
QuizGrade gradeQuiz(const Question& question, const std::vector<int>& selected);

/// Result of clicking a line in a spot-the-bug listing.
struct SpotGrade
{
    bool correct = false;      ///< the clicked line is one of the faulty lines
    int clickedLine = 0;       ///< [1-based] as given
    bool inListing = false;    ///< the clicked line exists in the listing
    std::vector<int> bugLines; ///< [1-based] the faulty lines (to highlight after answering)
    std::string message;       ///< one sentence for the learner ("Right: line 7 is …" / "Not this line: …")
};

/// Grades one click on `clickedLine` [1-based line of item.code].
SpotGrade gradeSpotTheBug(const SpotTheBug& item, int clickedLine);

/// Feedback on one drag-match item.
struct DragItemGrade
{
    std::string itemId;        ///< the item
    std::string placedTarget;  ///< where the learner put it (empty when not placed)
    std::string correctTarget; ///< where it belongs
    bool correct = false;      ///< placed on its target
    std::string explanation;   ///< the item's explanation
};

/// Result of grading a drag-match placement.
struct DragGrade
{
    bool allCorrect = false;          ///< every item placed on its target
    int correctCount = 0;             ///< items on their target
    int unplaced = 0;                 ///< items the learner did not place
    int unknownIds = 0;               ///< placement entries whose item or target id does not exist (ignored)
    std::vector<DragItemGrade> items; ///< one per item, in the activity's order
};

/// Grades `placement` (item id → target id) against the activity.
DragGrade gradeDragMatch(const DragMatch& activity, const std::map<std::string, std::string>& placement);

} // namespace tkm::course
