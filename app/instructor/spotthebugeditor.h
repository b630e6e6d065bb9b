#pragma once
// Instructor editor of a spot-the-bug item: the listing with its faulty lines marked in the margin.

#include "app/instructor/activityeditor.h"

#include <string>

namespace tkm::app {

class BugListingEdit;

/// Spot the bug: the listing (click the margin to mark faulty lines), why, fix, fixed listing.
class SpotTheBugEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit SpotTheBugEditor(QWidget *parent = nullptr);
  /// A small valid content for a new activity of this kind, with id `id` (what "Add" starts from).
  static course::Activity newActivity(const std::string &id);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// Marks or unmarks `line` [1-based] as faulty (as a click in the margin does).
  void toggleBugLine(int line);
  /// The faulty lines marked now [1-based, sorted].
  std::vector<int> bugLines() const;
  /// The listing editor.
  QWidget *listing() const;

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void updateBugLabel();
  std::optional<course::SpotTheBugRun> m_run;
  QComboBox *m_language = nullptr;
  BugListingEdit *m_code = nullptr;
  QLabel *m_bugLabel = nullptr;
  QPlainTextEdit *m_why = nullptr;
  QPlainTextEdit *m_fix = nullptr;
  QPlainTextEdit *m_fixed = nullptr;
  QLabel *m_runLabel = nullptr;
};

} // namespace tkm::app
