#pragma once
// Instructor editor of a code walkthrough: panes and their per-line notes.

#include "app/instructor/activityeditor.h"

#include <string>

namespace tkm::app {

/// Code walkthrough: panes (label, language, code) with per-line notes.
class WalkthroughEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit WalkthroughEditor(QWidget *parent = nullptr);
  /// A small valid content for a new activity of this kind, with id `id` (what "Add" starts from).
  static course::Activity newActivity(const std::string &id);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The notes table of the shown pane (columns: line, note).
  QTableWidget *notes() const { return m_notes; }

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void showPane(int index);
  void readForm();
  course::Walkthrough m_walkthrough;
  int m_current = -1;
  ItemListPanel *m_list = nullptr;
  QLineEdit *m_label = nullptr;
  QComboBox *m_language = nullptr;
  QPlainTextEdit *m_code = nullptr;
  QTableWidget *m_notes = nullptr;
  QWidget *m_form = nullptr;
};

} // namespace tkm::app
