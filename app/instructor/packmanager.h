#pragma once
// The pack manager (File → Manage packs…): the packs installed in this profile, with import, export and removal.

#include <QDialog>

class QPushButton;
class QTreeWidget;

namespace tkm::app {

class InstructorMode;

/// Lists installed packs (id, title, author, modules, created); buttons act through the InstructorMode.
class PackManagerDialog : public QDialog {
  Q_OBJECT
public:
  PackManagerDialog(InstructorMode *mode, QWidget *parent = nullptr);
  /// Re-reads the installed packs.
  void refresh();
  /// The pack list (one top-level item per pack; column 0 holds the id).
  QTreeWidget *packs() const { return m_tree; }

private:
  QString selectedId() const;
  InstructorMode *m_mode;
  QTreeWidget *m_tree = nullptr;
  QPushButton *m_export = nullptr;
  QPushButton *m_remove = nullptr;
};

} // namespace tkm::app
