#pragma once
// Drag-match: items dragged with the mouse from the pool onto targets (a target takes several), or placed with the
// keyboard (select an item, then press the target's number, or pick it in "Move to" and press Place). Check marks
// each item right or wrong and shows its explanation. The pool's order is shuffled per attempt and recorded; the
// placement is stored as it changes, so a revisit (also after a restart) shows what the learner left.

#include "app/activities/activityview.h"

#include <QListWidget>
#include <QMap>

class QComboBox;
class QLabel;
class QMimeData;
class QPushButton;

namespace tkm::app {

class MarkdownView;

/// A list that items are dragged from and dropped onto; `targetId` is empty for the pool.
class DropList : public QListWidget {
  Q_OBJECT
public:
  DropList(const QString &targetId, QWidget *parent = nullptr);
  /// The target this list stands for (empty = the pool of unplaced items).
  const QString &targetId() const { return m_targetId; }
  /// MIME type carrying an item id.
  static QString mimeType();
  /// The drag payload of an item id (what a mouse drag carries).
  static QMimeData *mimeFor(const QString &itemId);
  /// Small preferred size (160 × 96 px): the boxes grow with the space they get; QListWidget's default (256 × 192)
  /// would make a course's seven boxes overflow the view.
  QSize sizeHint() const override { return {160, 96}; }

signals:
  /// An item (by id) was dropped on this list.
  void itemDropped(const QString &itemId, const QString &targetId);
  /// The learner pressed a number key (1-9 = target, 0 = back to the pool) on the selected item.
  void placeByKey(const QString &itemId, int targetNumber);

protected:
  void startDrag(Qt::DropActions supportedActions) override;
  void dragEnterEvent(QDragEnterEvent *event) override;
  void dragMoveEvent(QDragMoveEvent *event) override;
  void dropEvent(QDropEvent *event) override;
  void keyPressEvent(QKeyEvent *event) override;

private:
  QString m_targetId;
};

/// Drag-match view.
class DragMatchView : public ActivityView {
  Q_OBJECT
public:
  DragMatchView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);

  /// Places an item on a target (empty target = back to the pool); false for unknown ids.
  bool place(const QString &itemId, const QString &targetId);
  /// Checks the placement; returns whether every item is on its target.
  bool check();
  /// Where each item is (item id → target id; unplaced items absent).
  const QMap<QString, QString> &placement() const { return m_placement; }
  /// The pool list and the target lists (for tests that drag).
  DropList *pool() const { return m_pool; }
  /// The list of a target.
  DropList *targetList(const QString &targetId) const { return m_targets.value(targetId); }
  /// The "Move to" combo of the keyboard path.
  QComboBox *moveToCombo() const { return m_moveTo; }
  /// The feedback text (Markdown).
  QString feedbackText() const;
  /// The order the items are listed in [indices of the content's item list]: the attempt's shuffled order.
  const QList<int> &itemOrder() const { return m_order; }

  bool canRun() const override { return true; }
  /// Run = Check.
  void run() override { check(); }
  void reset() override;

private:
  void rebuild();
  bool showGrade(bool record);
  void drawOrder(bool fresh);
  void restoreAttempt();
  void storePlacement();
  void placeSelectedFromCombo();
  QString selectedItemId() const;

  DropList *m_pool = nullptr;
  QMap<QString, DropList *> m_targets;
  QMap<QString, QString> m_placement;
  QList<int> m_order; ///< items in the order shown [content indices]
  QMap<QString, bool> m_checked; ///< item id → right, after Check (cleared by any move)
  QComboBox *m_moveTo = nullptr;
  QPushButton *m_place = nullptr;
  QPushButton *m_check = nullptr;
  MarkdownView *m_feedback = nullptr;
  QString m_lastSelected;
};

} // namespace tkm::app
