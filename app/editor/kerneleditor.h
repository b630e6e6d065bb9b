#pragma once
// The learner's kernel editor: QScintilla with CUDA C++ or Triton (Python) highlighting, line numbers,
// current-line marker, brace matching, auto-indent (Python: one level more after a `:`; CUDA: a `}` alone on its
// line takes the indentation of its `{`), undo history, find/replace, word wrap, and compile diagnostics as
// margin markers, squiggles under their source ranges (hover shows the message and its notes) and, for errors,
// inline annotations on their lines.

#include <Qsci/qsciscintilla.h>

#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

namespace tkm::app {

class FindReplaceDialog;

/// A range of the kernel text [1-based lines and columns; end column one past the last character].
struct EditorRange {
  int line = 0;      ///< first line
  int column = 0;    ///< first column
  int endLine = 0;   ///< last line (0: same as `line`)
  int endColumn = 0; ///< one past the last column (0: to the end of the word at `column`)
};

/// One compile diagnostic placed in the editor.
struct EditorDiagnostic {
  int line = 0;              ///< [1-based]
  int column = 0;            ///< [1-based]; 0 when unknown
  QString severity;          ///< "error", "warning" or "note"
  QString message;           ///< the compiler's message
  QList<EditorRange> ranges; ///< ranges to squiggle (empty: the word at line:column)
  QStringList notes;         ///< attached notes ("line 4: `x` got its shape [32] here"), shown on hover
};

/// Kernel editor for CUDA C++ or Triton.
class KernelEditor : public QsciScintilla {
  Q_OBJECT
public:
  explicit KernelEditor(QWidget *parent = nullptr);
  ~KernelEditor() override;

  /// Highlights and indents as `language`: "cuda" (default) or "python" (Triton).
  void setLanguage(const QString &language);
  /// The language set by setLanguage.
  QString language() const { return m_language; }
  /// Soft-wraps long lines at the window's edge (off by default).
  void setWordWrap(bool on);
  /// Whether long lines wrap.
  bool wordWrap() const;

  /// Marks every diagnostic: a margin symbol, a tinted line and the message as an annotation under the line.
  void setDiagnostics(const QList<EditorDiagnostic> &diagnostics);
  /// Removes every marker and annotation of setDiagnostics.
  void clearDiagnostics();
  /// Lines that carry an error marker [1-based, ascending].
  QList<int> errorLines() const;
  /// Annotation text under `line` [1-based] (empty when none).
  QString annotationText(int line) const;
  /// What hovering `line`, `column` [1-based] shows: the messages and notes of the diagnostics whose squiggle
  /// covers that place (empty when none).
  QString hoverText(int line, int column) const;
  /// Whether a squiggle covers `line`, `column` [1-based].
  bool hasSquiggle(int line, int column) const;
  /// Tints `lines` [1-based] (the lines a generated line came from); an empty list clears the tint.
  void setHighlightedLines(const QList<int> &lines);
  /// Lines tinted by setHighlightedLines [1-based, ascending].
  QList<int> highlightedLines() const;
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
  void onCharAdded(int ch);
  void squiggle(const EditorDiagnostic &d, int indicator);
  QList<EditorDiagnostic> m_diagnostics;
  QString m_language = QStringLiteral("cuda");
  QPointer<FindReplaceDialog> m_find;
  int m_annotationError = 0;
  int m_annotationWarning = 0;
};

} // namespace tkm::app
