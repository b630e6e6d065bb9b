// Instructor mode, packs half: export, import (validated, with the name-clash question), removal, the pack
// manager and the interactive File-menu flows (new module, export, import). The mode itself is instructormode.cpp.
#include "app/instructor/instructormode.h"

#include "app/common/qtconvert.h"
#include "app/common/shell.h"
#include "app/instructor/instructorpage.h"
#include "app/instructor/packmanager.h"

#include <QDate>
#include <QEvent>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>

#include "modules/course/loader.h"
#include "modules/course/writer.h"

namespace tkm::app {

namespace {

QString errorText(const engine::Error& error)
{
    return error.detail.empty() ? qs(error.message) : qs(error.message) + QStringLiteral("\n\n") + qs(error.detail);
}

} // namespace

bool InstructorMode::exportPack(const QString& packId, const QString& file)
{
    auto pack = store().find(packId.toStdString());
    if (!pack)
        return message(tr("Not exported"), errorText(pack.error())), false;
    if (engine::Status s = packs::exportPack(pack->folder, file.toStdString()); !s)
        return message(tr("Not exported"), errorText(s.error())), false;
    m_window->statusBar()->showMessage(tr("Exported “%1” to %2.").arg(qs(pack->title), file), 6000);
    return true;
}

bool InstructorMode::importPack(const QString& file)
{
    if (!maybeSave(tr("importing a pack")))
        return false;
    packs::ImportOptions options;
    options.ask = [this](const packs::PackInfo& installed, const packs::PackInfo& incoming) {
        return m_clash(installed, incoming);
    };
    auto result = packs::importPack(file.toStdString(), store(), options);
    if (!result) {
        message(tr("Pack not imported"), errorText(result.error()));
        return false;
    }
    if (m_page->hasModule())
        m_page->markSaved(m_page->module());
    m_window->loadCourse(m_root);
    if (m_active)
        openInPage(std::max(0, moduleIndex(m_page->savedModule().id)), 0);
    else
        m_window->openLastActivity();
    m_window->statusBar()->showMessage(
        tr("Imported “%1” (%n module(s))%2.", nullptr, static_cast<int>(result->pack.modules.size()))
            .arg(qs(result->pack.title), result->renamed    ? tr(" as %1").arg(qs(result->pack.id))
                                         : result->replaced ? tr(", replacing the installed one")
                                                            : QString()),
        8000);
    return true;
}

bool InstructorMode::removePack(const QString& packId)
{
    if (!confirm(tr("Remove the pack “%1” and every module in it?").arg(packId)))
        return false;
    if (engine::Status s = store().remove(packId.toStdString()); !s)
        return message(tr("Pack not removed"), errorText(s.error())), false;
    if (m_page->hasModule())
        m_page->markSaved(m_page->module());
    m_window->loadCourse(m_root);
    if (m_active)
        openInPage(0, 0);
    else
        m_window->openActivity(0, 0);
    return true;
}

void InstructorMode::showPackManager()
{
    PackManagerDialog dialog(this, m_window);
    dialog.exec();
}

void InstructorMode::exportPackInteractive()
{
    std::vector<packs::PackInfo> installed = store().list();
    if (installed.empty()) {
        message(tr("No pack to export"), tr("Save an edited or new module in instructor mode first: it goes into your "
                                            "pack “%1”.")
                                             .arg(QLatin1String(kUserPackId)));
        return;
    }
    QString id = qs(installed.front().id);
    if (installed.size() > 1) {
        QStringList ids;
        for (const auto& p : installed)
            ids << qs(p.id);
        bool ok = false;
        id = QInputDialog::getItem(m_window, tr("Export pack"), tr("Pack:"), ids, 0, false, &ok);
        if (!ok)
            return;
    }
    const QString file = QFileDialog::getSaveFileName(m_window, tr("Export pack"), id + QStringLiteral(".tkmpack"),
                                                      tr("Triton Kernel Mastery pack (*.tkmpack)"));
    if (!file.isEmpty())
        exportPack(id, file.endsWith(QLatin1String(".tkmpack")) ? file : file + QStringLiteral(".tkmpack"));
}

void InstructorMode::importPackInteractive()
{
    const QString file = QFileDialog::getOpenFileName(m_window, tr("Import pack"), QString(),
                                                      tr("Triton Kernel Mastery pack (*.tkmpack)"));
    if (!file.isEmpty())
        importPack(file);
}

void InstructorMode::newModuleInteractive()
{
    bool ok = false;
    const QString title = QInputDialog::getText(m_window, tr("New module"), tr("Title of the new module:"),
                                                QLineEdit::Normal, QString(), &ok);
    if (!ok || title.trimmed().isEmpty())
        return;
    QString id = title.toLower();
    id.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    id = id.remove(QRegularExpression(QStringLiteral("^-+|-+$"))).left(48);
    id = QInputDialog::getText(m_window, tr("New module"), tr("Module id ([a-z0-9-], unique in the course):"),
                               QLineEdit::Normal, id, &ok);
    if (ok)
        createModule(id.trimmed(), title.trimmed());
}

void InstructorMode::message(const QString& title, const QString& text)
{
    if (m_message)
        m_message(title, text);
}

bool InstructorMode::confirm(const QString& question)
{
    return !m_confirm || m_confirm(question);
}

void InstructorMode::setUnsavedHandler(std::function<UnsavedChoice(const QString&)> handler)
{
    m_unsaved = std::move(handler);
}
void InstructorMode::setConfirmHandler(std::function<bool(const QString&)> handler)
{
    m_confirm = std::move(handler);
}
void InstructorMode::setClashHandler(
    std::function<packs::ClashChoice(const packs::PackInfo&, const packs::PackInfo&)> handler)
{
    m_clash = std::move(handler);
}
void InstructorMode::setMessageHandler(std::function<void(const QString&, const QString&)> handler)
{
    m_message = std::move(handler);
}

} // namespace tkm::app
