#include "app/instructor/packmanager.h"

#include "app/common/qtconvert.h"
#include "app/instructor/instructormode.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tkm::app {

PackManagerDialog::PackManagerDialog(InstructorMode* mode, QWidget* parent) : QDialog(parent), m_mode(mode)
{
    setWindowTitle(tr("Packs"));
    resize(760, 380);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Packs carry modules an instructor wrote or changed. Their modules join the course "
                                "list; a module with a built-in module's id replaces it."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_tree = new QTreeWidget(this);
    m_tree->setHeaderLabels({tr("Id"), tr("Title"), tr("Author"), tr("Modules"), tr("Created")});
    m_tree->setRootIsDecorated(false);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    layout->addWidget(m_tree, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* import = buttons->addButton(tr("Import…"), QDialogButtonBox::ActionRole);
    m_export = buttons->addButton(tr("Export…"), QDialogButtonBox::ActionRole);
    m_remove = buttons->addButton(tr("Remove…"), QDialogButtonBox::DestructiveRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(import, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Import pack"), QString(),
                                                          tr("Triton Kernel Mastery pack (*.tkmpack)"));
        if (!file.isEmpty() && m_mode->importPack(file))
            refresh();
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString id = selectedId();
        const QString file = QFileDialog::getSaveFileName(this, tr("Export pack"), id + QStringLiteral(".tkmpack"),
                                                          tr("Triton Kernel Mastery pack (*.tkmpack)"));
        if (!file.isEmpty())
            m_mode->exportPack(id, file.endsWith(QLatin1String(".tkmpack")) ? file : file + QStringLiteral(".tkmpack"));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (m_mode->removePack(selectedId()))
            refresh();
    });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this] {
        m_export->setEnabled(!selectedId().isEmpty());
        m_remove->setEnabled(!selectedId().isEmpty());
    });
    refresh();
}

void PackManagerDialog::refresh()
{
    m_tree->clear();
    std::vector<std::string> problems;
    for (const packs::PackInfo& pack : m_mode->store().list(&problems)) {
        QStringList modules;
        for (const std::string& m : pack.modules)
            modules << qs(m);
        auto* item = new QTreeWidgetItem(m_tree, {qs(pack.id), qs(pack.title), qs(pack.author),
                                                  modules.join(QStringLiteral(", ")), qs(pack.created)});
        item->setToolTip(0, qs(pack.folder));
    }
    for (const std::string& problem : problems) {
        auto* item = new QTreeWidgetItem(m_tree, {tr("(broken)"), qs(problem)});
        item->setDisabled(true);
    }
    m_tree->setCurrentItem(m_tree->topLevelItem(0));
    m_export->setEnabled(!selectedId().isEmpty());
    m_remove->setEnabled(!selectedId().isEmpty());
}

QString PackManagerDialog::selectedId() const
{
    const QTreeWidgetItem* item = m_tree->currentItem();
    return item && !item->isDisabled() ? item->text(0) : QString();
}

} // namespace tkm::app
