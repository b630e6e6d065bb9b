#pragma once
// QScintilla views of code: a read-only listing whose lines the learner picks (walkthrough, spot the bug), and the
// shared look of every code view (font, margins, palette).

#include <Qsci/qsciscintilla.h>

#include <QString>

namespace tkm::app {

/// Applies the lexer for `language`, the palette colours, line numbers and the current-line highlight.
void configureCodeView(QsciScintilla *view, const QString &language);

/// Markers shared by the code views (QScintilla marker numbers).
enum CodeMarker {
  kMarkerNote = 1,      ///< margin dot: this line has a note
  kMarkerRight = 2,     ///< green line background: a right pick
  kMarkerWrong = 3,     ///< red line background: a wrong pick
  kMarkerSelected = 4,  ///< accent line background: the line whose note is shown
  kMarkerError = 5,     ///< margin symbol: a compile error
  kMarkerWarning = 6,   ///< margin symbol: a compile warning
  kMarkerErrorLine = 7  ///< faint red line background under a compile error
};

/// Defines the markers above with colours for the view's palette.
void defineCodeMarkers(QsciScintilla *view);
/// Lines of `view` that carry `marker` (a CodeMarker) [1-based, ascending].
QList<int> markedLines(const QsciScintilla *view, int marker);

/// A read-only listing: clicking a line, or Enter / Space on the current line, activates it.
class ListingView : public QsciScintilla {
  Q_OBJECT
public:
  explicit ListingView(QWidget *parent = nullptr);

  /// Shows `code` highlighted as `language` ("python", "cuda", …).
  void setListing(const QString &code, const QString &language);
  /// The line holding the cursor [1-based].
  int currentLineNumber() const;
  /// Moves the cursor to `line` [1-based] and scrolls it into view.
  void setCurrentLineNumber(int line);
  /// The viewport point at the middle of `line` [1-based], for tests that click.
  QPoint pointOfLine(int line) const;
  /// Number of lines in the listing.
  int lineCount() const { return lines(); }
  /// The line [0-based] whose row holds the viewport point `point`, also right of the line's text and over the
  /// margin; -1 above the first or below the last row.
  int rowAt(const QPoint &point) const;

signals:
  /// The learner clicked `line` or pressed Enter/Space on it [1-based].
  void lineActivated(int line);
  /// The cursor moved to `line` [1-based] (click or arrow keys).
  void currentLineChanged(int line);

protected:
  void mouseReleaseEvent(QMouseEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;
  void changeEvent(QEvent *event) override;

private:
  QString m_language;
  int m_lastLine = -1;
};

} // namespace tkm::app
