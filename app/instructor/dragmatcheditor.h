#pragma once
// Instructor editor of a drag-match: prompt, targets and items (each item's right target).

#include "app/instructor/activityeditor.h"

#include <string>

namespace tkm::app {

/// Drag-match: prompt, targets (id, text), items (id, text, target, explanation).
class DragMatchEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit DragMatchEditor(QWidget *parent = nullptr);
  /// A small valid content for a new activity of this kind, with id `id` (what "Add" starts from).
  static course::Activity newActivity(const std::string &id);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The targets table (id, text).
  QTableWidget *targets() const { return m_targets; }
  /// The items table (id, text, target, explanation).
  QTableWidget *items() const { return m_items; }

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void readTables();
  void fillItems();
  course::DragMatch m_match;
  QPlainTextEdit *m_prompt = nullptr;
  QTableWidget *m_targets = nullptr;
  QTableWidget *m_items = nullptr;
};

} // namespace tkm::app
