#pragma once
// Find / replace for a QScintilla editor (plain text or regular expression, case, whole words, wrap).

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QsciScintilla;

namespace tkm::app {

/// Non-modal find / replace dialog bound to one editor.
class FindReplaceDialog : public QDialog {
  Q_OBJECT
public:
  explicit FindReplaceDialog(QsciScintilla *editor, QWidget *parent = nullptr);

  /// Sets the search text and selects it.
  void setFindText(const QString &text);
  /// Finds the next (or previous) match from the cursor; returns whether one was found.
  bool find(bool forward = true);
  /// Replaces the current match (if the selection is one) and finds the next; returns whether one was replaced.
  bool replaceOne();
  /// Replaces every match in the document as one undo step; returns the count.
  int replaceAll();
  /// The replacement text field.
  QLineEdit *replaceEdit() const { return m_replace; }

private:
  bool selectionMatches() const;

  QsciScintilla *m_editor;
  QLineEdit *m_find;
  QLineEdit *m_replace;
  QCheckBox *m_case;
  QCheckBox *m_word;
  QCheckBox *m_regex;
  QLabel *m_status;
};

} // namespace tkm::app
