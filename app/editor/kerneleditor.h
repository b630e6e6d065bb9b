#pragma once
// The learner's kernel editor: QScintilla with CUDA C++ highlighting, line numbers, current-line marker, brace
// matching, auto-indent, undo history, find/replace, and compile diagnostics as margin markers plus inline
// annotations on their lines.

#include <Qsci/qsciscintilla.h>

#include <QList>
#include <QPointer>
#include <QString>

namespace tkm::app {

class FindReplaceDialog;

/// One compile diagnostic placed in the editor.
struct EditorDiagnostic {
  int line = 0;     ///< [1-based]
  int column = 0;   ///< [1-based]; 0 when unknown
  QString severity; ///< "error", "warning" or "note"
  QString message;  ///< NVRTC's message
};

/// CUDA C++ kernel editor.
class KernelEditor : public QsciScintilla {
  Q_OBJECT
public:
  explicit KernelEditor(QWidget *parent = nullptr);
  ~KernelEditor() override;

  /// Marks every diagnostic: a margin symbol, a tinted line and the message as an annotation under the line.
  void setDiagnostics(const QList<EditorDiagnostic> &diagnostics);
  /// Removes every marker and annotation of setDiagnostics.
  void clearDiagnostics();
  /// Lines that carry an error marker [1-based, ascending].
  QList<int> errorLines() const;
  /// Annotation text under `line` [1-based] (empty when none).
  QString annotationText(int line) const;
  /// Puts the cursor on `line`, `column` [1-based] and focuses the editor.
  void goToPosition(int line, int column);
  /// Replaces the whole text as one undoable step (Reset to starter, load the solution).
  void replaceAllText(const QString &text);
  /// Opens the find / replace dialog with the selection as the search text.
  void showFindReplace();
  /// The find / replace dialog (created on first use).
  FindReplaceDialog *findReplaceDialog();

protected:
  void changeEvent(QEvent *event) override;

private:
  void applyTheme();
  QList<EditorDiagnostic> m_diagnostics;
  QPointer<FindReplaceDialog> m_find;
  int m_annotationError = 0;
  int m_annotationWarning = 0;
};

} // namespace tkm::app
