#pragma once
// Instructor editor of a lesson page (minutes, Markdown body, callouts).

#include "app/instructor/activityeditor.h"

#include <string>

namespace tkm::app {

/// Lesson page: minutes, Markdown body, callout insertion.
class LessonEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit LessonEditor(QWidget *parent = nullptr);
  /// A small valid content for a new activity of this kind, with id `id` (what "Add" starts from).
  static course::Activity newActivity(const std::string &id);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The Markdown editor.
  QPlainTextEdit *markdownEdit() const { return m_markdown; }
  /// Inserts a callout of `kind` ("PROBE", …) at the cursor.
  void insertCallout(const QString &kind);

protected:
  void doLoad(const course::Activity &activity) override;

private:
  QSpinBox *m_minutes = nullptr;
  QPlainTextEdit *m_markdown = nullptr;
};

} // namespace tkm::app
