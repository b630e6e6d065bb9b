#pragma once
// Instructor editor of an exercise activity: the module entry; the spec is edited in the exercise editor (exercise/).

#include "app/instructor/activityeditor.h"

#include <string>

namespace tkm::app {

/// Exercise activity: what the module entry says; the spec itself is edited in the exercise editor.
class ExerciseActivityEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit ExerciseActivityEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;

signals:
  /// "Edit exercise…" was pressed on the exercise folder (absolute path).
  void editExerciseRequested(const QString &exerciseDir);

protected:
  void doLoad(const course::Activity &activity) override;

private:
  QString m_folder;
  QLabel *m_summary = nullptr;
  QPushButton *m_edit = nullptr;
};

} // namespace tkm::app
