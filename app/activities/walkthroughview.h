#pragma once
// Code walkthrough: the listings (e.g. Triton beside its CUDA mirror) with per-line notes; selecting a line shows
// its note. Lines with a note carry a dot in the margin; "Next note" walks them in order.

#include "app/activities/activityview.h"

#include <QList>
#include <QSet>

class QLabel;

namespace tkm::app {

class ListingView;
class MarkdownView;

/// Walkthrough view.
class WalkthroughView : public ActivityView {
  Q_OBJECT
public:
  WalkthroughView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);

  /// Shows the note of `line` [1-based] in pane `pane` [0-based] (selects the line).
  void selectLine(int pane, int line);
  /// Jumps to the next line with a note (across panes); returns false after the last.
  bool nextNote();
  /// The listing of a pane.
  ListingView *listing(int pane) const { return m_listings.value(pane); }
  /// The note shown (Markdown).
  QString noteText() const;
  /// Number of notes read so far.
  int notesSeen() const { return static_cast<int>(m_seen.size()); }

  bool canRun() const override { return true; }
  /// Run = next note.
  void run() override { nextNote(); }
  void reset() override;

private:
  void showNote(int pane, int line);

  QList<ListingView *> m_listings;
  MarkdownView *m_note = nullptr;
  QLabel *m_noteTitle = nullptr;
  QSet<QPair<int, int>> m_seen;
  int m_totalNotes = 0;
  int m_pane = 0;
  int m_line = 0;
};

} // namespace tkm::app
