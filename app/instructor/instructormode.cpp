#include "app/instructor/instructormode.h"

#include "app/common/paths.h"
#include "app/common/qtconvert.h"
#include "app/common/shell.h"
#include "app/course/coursenavigator.h"
#include "app/instructor/instructorpage.h"
#include "app/instructor/packmanager.h"

#include <QAction>
#include <QCloseEvent>
#include <QDate>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

#include "modules/course/loader.h"
#include "modules/course/writer.h"

namespace tkm::app {

namespace fs = std::filesystem;

namespace {

constexpr char kEnabledKey[] = "instructor/enabled";
constexpr char kAuthorKey[] = "instructor/author";
constexpr char kPageId[] = "instructor";

QString errorText(const engine::Error& error)
{
    return error.detail.empty() ? qs(error.message) : qs(error.message) + QStringLiteral("\n\n") + qs(error.detail);
}

} // namespace

InstructorMode::InstructorMode(Shell* window, const QString& builtinRoot, const QString& dataDir)
    : QObject(window), m_window(window), m_root(builtinRoot), m_dataDir(dataDir.isEmpty() ? appDataDir() : dataDir)
{
    m_unsaved = [this](const QString& question) {
        const auto answer =
            QMessageBox::question(m_window, tr("Unsaved changes"), question,
                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        return answer == QMessageBox::Save      ? UnsavedChoice::Save
               : answer == QMessageBox::Discard ? UnsavedChoice::Discard
                                                : UnsavedChoice::Cancel;
    };
    m_confirm = [this](const QString& question) {
        return QMessageBox::question(m_window, tr("Please confirm"), question) == QMessageBox::Yes;
    };
    m_clash = [this](const packs::PackInfo& installed, const packs::PackInfo& incoming) {
        QMessageBox box(
            QMessageBox::Question, tr("A pack with this id is installed"),
            tr("The pack “%1” (id %2) is already installed. Replace it with the imported “%3”, or keep both "
               "(the imported one gets a new id)?")
                .arg(qs(installed.title), qs(installed.id), qs(incoming.title)),
            QMessageBox::Cancel, m_window);
        QPushButton* replace = box.addButton(tr("Replace"), QMessageBox::DestructiveRole);
        QPushButton* both = box.addButton(tr("Keep both"), QMessageBox::AcceptRole);
        box.exec();
        return box.clickedButton() == replace ? packs::ClashChoice::Replace
               : box.clickedButton() == both  ? packs::ClashChoice::KeepBoth
                                              : packs::ClashChoice::Cancel;
    };
    m_message = [this](const QString& title, const QString& text) { QMessageBox::warning(m_window, title, text); };

    m_window->setCourseLoader([this](const QString& root) {
        packs::EffectiveCourse effective = store().effectiveCourse(root.toStdString());
        m_origins = effective.origins;
        course::CourseLoadResult result;
        result.course = std::move(effective.course);
        result.diagnostics = std::move(effective.diagnostics);
        return result;
    });

    m_page = new InstructorPage;
    // "New exercise…" starts from the built-in vector add: a spec, starter, solution, reference and bug variant
    // that already validate. Drafts live in the data folder until the module is saved into a pack.
    m_page->setExerciseTemplate(m_root + QStringLiteral("/02-vector-add/exercises/vector-add"),
                                m_dataDir + QStringLiteral("/exercise-drafts"));
    m_window->addPage(QLatin1String(kPageId), tr("Instructor editor"), m_page);
    // addPage put a "show page" entry in the View menu; the mode toggle below replaces it.
    if (QMenu* view = m_window->menu(MenuId::View); view && !view->actions().isEmpty())
        view->removeAction(view->actions().constLast());
    connect(m_page, &InstructorPage::saveRequested, this, [this] { save(); });
    connect(m_page, &InstructorPage::editExerciseRequested, this, &InstructorMode::onEditExercise);
    connect(m_page, &InstructorPage::statusMessage, this,
            [this](const QString& text) { m_window->statusBar()->showMessage(text, 6000); });
    connect(m_page, &InstructorPage::modifiedChanged, this, [this] { updateActions(); });
    connect(m_page, &InstructorPage::activityShown, this, [this](int a) {
        if (m_shown.first >= 0 && a < static_cast<int>(m_page->savedModule().activities.size()))
            m_window->navigator()->selectActivity(m_shown.first, a);
    });
    connect(m_window->navigator(), &CourseNavigator::activityChosen, this, &InstructorMode::onActivityChosen);
    m_window->installEventFilter(this);
    buildMenus();
    updateActions();
}

InstructorMode::~InstructorMode() = default;

packs::PackStore InstructorMode::store() const
{
    return packs::PackStore(m_dataDir.toStdString());
}

void InstructorMode::buildMenus()
{
    QMenu* view = m_window->menu(MenuId::View);
    m_toggle = new QAction(tr("&Instructor mode"), this);
    m_toggle->setCheckable(true);
    m_toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_toggle->setToolTip(tr("Edit the course: every activity opens in an editor with a live preview."));
    view->addSeparator();
    view->addAction(m_toggle);
    connect(m_toggle, &QAction::triggered, this, [this](bool on) { setActive(on); });

    m_editMenu = new QMenu(tr("&Edit"), m_window);
    m_window->menuBar()->insertMenu(m_window->menu(MenuId::Navigate)->menuAction(), m_editMenu);
    QAction* undo = m_page->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_page->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    m_editMenu->addAction(undo);
    m_editMenu->addAction(redo);
    // Text fields keep their own Ctrl+Z while focused; the menu undoes whole edits of the module.
    undo->setShortcutContext(Qt::WindowShortcut);
    redo->setShortcutContext(Qt::WindowShortcut);

    m_instructorMenu = new QMenu(tr("&Instructor"), m_window);
    m_window->menuBar()->insertMenu(m_window->menu(MenuId::Help)->menuAction(), m_instructorMenu);
    m_save = m_instructorMenu->addAction(tr("&Save module"), this, [this] { save(); });
    m_save->setShortcut(QKeySequence::Save);
    QAction* revertAction = m_instructorMenu->addAction(tr("Re&vert unsaved changes"), this, [this] {
        if (confirm(tr("Throw away the unsaved changes to “%1”?").arg(qs(m_page->module().title))))
            revert();
    });
    m_instructorMenu->addSeparator();
    QAction* newModule = m_instructorMenu->addAction(tr("&New module…"), this, [this] { newModuleInteractive(); });
    m_deleteModule = m_instructorMenu->addAction(tr("&Delete module…"), this, [this] { deleteModule(); });
    QAction* up = m_instructorMenu->addAction(tr("Move module &up"), this, [this] { moveModule(-1); });
    QAction* down = m_instructorMenu->addAction(tr("Move module do&wn"), this, [this] { moveModule(+1); });
    m_instructorMenu->addSeparator();
    m_restoreModule =
        m_instructorMenu->addAction(tr("Restore the built-in &module…"), this, [this] { restoreBuiltinModule(); });
    m_instructorMenu->addAction(tr("Restore the &built-in course…"), this, [this] { restoreBuiltinCourse(); });
    m_modeActions = {undo, redo, m_save, revertAction, newModule, m_deleteModule, up, down, m_restoreModule};

    QMenu* file = m_window->menu(MenuId::File);
    QAction* first = file->actions().value(0);
    QAction* importAction = new QAction(tr("&Import pack…"), this);
    connect(importAction, &QAction::triggered, this, [this] { importPackInteractive(); });
    QAction* exportAction = new QAction(tr("&Export pack…"), this);
    connect(exportAction, &QAction::triggered, this, [this] { exportPackInteractive(); });
    QAction* manage = new QAction(tr("&Manage packs…"), this);
    connect(manage, &QAction::triggered, this, [this] { showPackManager(); });
    file->insertActions(first, {importAction, exportAction, manage});
    file->insertSeparator(first);
}

void InstructorMode::updateActions()
{
    for (QAction* a : m_modeActions)
        a->setEnabled(m_active);
    if (!m_active)
        return;
    const packs::ModuleOrigin origin = originOf(qs(m_page->savedModule().id));
    m_save->setEnabled(m_page->hasModule());
    m_deleteModule->setEnabled(m_page->hasModule() && !origin.packId.empty() && !origin.overridesBuiltin);
    m_restoreModule->setEnabled(origin.overridesBuiltin);
}

bool InstructorMode::setActive(bool active)
{
    if (active == m_active) {
        m_toggle->setChecked(m_active);
        return m_active;
    }
    if (!active && !maybeSave(tr("leaving instructor mode"))) {
        m_toggle->setChecked(true);
        return m_active;
    }
    m_active = active;
    m_toggle->setChecked(active);
    QSettings().setValue(QLatin1String(kEnabledKey), active);
    const QPair<int, int> current = m_window->navigator()->currentActivity();
    if (active) {
        openInPage(std::max(0, current.first), std::max(0, current.second));
    } else {
        m_shown = {-1, -1};
        if (current.first >= 0)
            m_window->openActivity(current.first, current.second);
    }
    updateActions();
    emit activeChanged(active);
    return m_active;
}

void InstructorMode::restoreFromSettings()
{
    if (QSettings().value(QLatin1String(kEnabledKey), false).toBool())
        setActive(true);
}

packs::ModuleOrigin InstructorMode::originOf(const QString& moduleId) const
{
    for (const packs::ModuleOrigin& o : m_origins)
        if (qs(o.moduleId) == moduleId)
            return o;
    return {moduleId.toStdString(), {}, false};
}

int InstructorMode::moduleIndex(const std::string& moduleId) const
{
    const course::Course* c = m_window->course();
    for (int i = 0; c && i < static_cast<int>(c->modules.size()); ++i)
        if (c->modules[i].id == moduleId)
            return i;
    return -1;
}

QString InstructorMode::originText(const packs::ModuleOrigin& origin) const
{
    if (origin.packId.empty())
        return tr("Built-in module. Saving copies it into your pack “%1”; the built-in course itself never changes.")
            .arg(QLatin1String(kUserPackId));
    return origin.overridesBuiltin
               ? tr("Your edited copy (pack “%1”) of a built-in module. Instructor → Restore the built-in module "
                    "brings the original back.")
                     .arg(qs(origin.packId))
               : tr("From pack “%1”.").arg(qs(origin.packId));
}

void InstructorMode::onActivityChosen(int module, int activity)
{
    if (!m_active)
        return;
    const course::Course* c = m_window->course();
    if (!c || module < 0 || module >= static_cast<int>(c->modules.size()))
        return;
    if (m_page->hasModule() && module == m_shown.first) {
        m_shown.second = activity;
        m_page->selectActivity(activity);
        m_window->showPage(QLatin1String(kPageId));
        return;
    }
    const std::string chosen = c->modules[module].id;
    if (!maybeSave(tr("switching to another module"))) {
        m_window->navigator()->selectActivity(m_shown.first, m_shown.second);
        m_window->showPage(QLatin1String(kPageId));
        return;
    }
    // Saving reloads the course: find the chosen module again.
    openInPage(std::max(0, moduleIndex(chosen)), activity);
}

void InstructorMode::onEditExercise(const QString& exerciseDir)
{
    // The exercise editor writes into the folder it is given: it must be a pack's copy, never built-in content.
    const QString packs = qs(store().packsDir());
    if (exerciseDir.startsWith(packs + QLatin1Char('/'))) {
        emit editExerciseRequested(exerciseDir);
        return;
    }
    const int index = m_page->currentActivity();
    if (index < 0)
        return;
    const std::string activityId = m_page->module().activities[index].id;
    if (!confirm(tr("The exercise is edited in your pack: saving “%1” first copies it there (the built-in course never "
                    "changes). Save now?")
                     .arg(qs(m_page->module().title))) ||
        !save())
        return;
    const course::Activity* copy = m_page->module().findActivity(activityId);
    if (copy && copy->kind == course::ActivityKind::Exercise)
        emit editExerciseRequested(qs(copy->source));
}

void InstructorMode::openInPage(int module, int activity)
{
    const course::Course* c = m_window->course();
    if (!c || c->modules.empty())
        return;
    module = std::clamp(module, 0, static_cast<int>(c->modules.size()) - 1);
    const course::Module& m = c->modules[module];
    m_shown = {module, activity};
    m_page->openModule(m, activity, originText(originOf(qs(m.id))));
    m_window->navigator()->selectActivity(module, m_page->currentActivity());
    m_window->showPage(QLatin1String(kPageId));
    updateActions();
}

bool InstructorMode::maybeSave(const QString& what)
{
    if (!m_active || !m_page->isModified())
        return true;
    const UnsavedChoice choice =
        m_unsaved(tr("“%1” has unsaved changes. Save them before %2?").arg(qs(m_page->module().title), what));
    if (choice == UnsavedChoice::Cancel)
        return false;
    if (choice == UnsavedChoice::Save)
        return save();
    revert();
    return true;
}

void InstructorMode::revert()
{
    if (m_page->hasModule())
        m_page->openModule(m_page->savedModule(), m_page->currentActivity(),
                           originText(originOf(qs(m_page->savedModule().id))));
    updateActions();
}

bool InstructorMode::reloadCourse()
{
    const QPair<int, int> current = m_window->navigator()->currentActivity();
    const course::Course* before = m_window->course();
    const std::string moduleId = before && current.first >= 0 ? before->modules[current.first].id : std::string();
    if (!m_window->loadCourse(m_root))
        return false;
    const int module = moduleIndex(moduleId);
    const int m = module >= 0 ? module : 0;
    if (m_active)
        return true; // the caller re-opens the page
    m_window->openActivity(m, module >= 0 ? current.second : 0) || m_window->openActivity(m, 0);
    return true;
}

bool InstructorMode::ensureUserPack()
{
    packs::PackStore s = store();
    if (s.contains(kUserPackId))
        return true;
    QString author = QSettings().value(QLatin1String(kAuthorKey)).toString();
    if (author.isEmpty())
        author = qEnvironmentVariable("USER");
    auto created = s.create(kUserPackId, tr("My modules").toStdString(), author.toStdString(),
                            QDate::currentDate().toString(Qt::ISODate).toStdString());
    if (!created) {
        message(tr("Cannot create your pack"), errorText(created.error()));
        return false;
    }
    return true;
}

bool InstructorMode::save()
{
    if (!m_active || !m_page->hasModule())
        return false;
    m_page->validateNow();
    if (m_page->hasErrors()) {
        message(tr("Not saved"), tr("The module has problems the learner's app would refuse (listed under the editor, "
                                    "marked on their fields). Fix them, then save; nothing was lost."));
        return false;
    }
    const course::Module edited = m_page->module();
    const course::Module saved = m_page->savedModule();
    const packs::ModuleOrigin origin = originOf(qs(saved.id));
    packs::PackStore s = store();
    fs::path dest;
    if (origin.packId.empty()) {
        if (!ensureUserPack())
            return false;
        auto copied = s.copyBuiltinModule(saved.folder, kUserPackId);
        if (!copied) {
            message(tr("Not saved"), errorText(copied.error()));
            return false;
        }
        dest = *copied;
    } else {
        dest = saved.folder;
    }
    if (engine::Status written = course::writeModule(edited, dest); !written) {
        message(tr("Not saved"), errorText(written.error()));
        return false;
    }
    // Activity files the module no longer names go (only inside the pack copy; exercise folders stay).
    std::vector<fs::path> now;
    for (const course::ModuleFile& f : course::moduleFiles(edited))
        now.push_back(f.relative);
    for (std::size_t i = 0; i < saved.activities.size(); ++i) {
        const course::Activity& a = saved.activities[i];
        const fs::path rel = course::activityRelativePath(saved, i);
        if (a.kind != course::ActivityKind::Exercise && std::find(now.begin(), now.end(), rel) == now.end()) {
            std::error_code ec;
            fs::remove(dest / rel, ec);
        }
    }
    const int activity = m_page->currentActivity();
    m_page->markSaved(edited);
    if (!m_window->loadCourse(m_root))
        return false;
    const int module = moduleIndex(edited.id);
    if (module >= 0)
        openInPage(module, activity);
    m_window->statusBar()->showMessage(tr("Saved “%1” in %2.").arg(qs(edited.title), qs(dest)), 6000);
    return true;
}

bool InstructorMode::createModule(const QString& id, const QString& title)
{
    if (!maybeSave(tr("creating a module")) || !ensureUserPack())
        return false;
    packs::PackStore s = store();
    auto pack = s.find(kUserPackId);
    if (!pack)
        return message(tr("Module not created"), errorText(pack.error())), false;
    const std::string folderName = id.toStdString();
    if (!packs::isValidModuleFolderName(folderName) || moduleIndex(folderName) >= 0 ||
        fs::exists(pack->folder / folderName)) {
        message(tr("Module not created"),
                tr("“%1” cannot be the id of a new module: it is taken or not of the form [a-z0-9-]. Choose another.")
                    .arg(id));
        return false;
    }
    const course::Course* c = m_window->course();
    course::Module m = InstructorPage::newModuleTemplate(folderName, title.toStdString(),
                                                         c ? static_cast<int>(c->modules.size()) + 1 : 1);
    m.folder = pack->folder / folderName;
    if (engine::Status written = course::writeModule(m, m.folder); !written)
        return message(tr("Module not created"), errorText(written.error())), false;
    pack->modules.push_back(folderName);
    if (engine::Status status = packs::writeManifest(*pack); !status)
        return message(tr("Module not created"), errorText(status.error())), false;
    if (!m_window->loadCourse(m_root))
        return false;
    const int index = moduleIndex(folderName);
    if (index < 0) {
        message(tr("Module not created"), tr("The new module did not load; see the course problems."));
        return false;
    }
    if (!m_active)
        setActive(true);
    openInPage(index, 0);
    return true;
}

bool InstructorMode::deleteModule()
{
    const course::Module saved = m_page->savedModule();
    const packs::ModuleOrigin origin = originOf(qs(saved.id));
    if (origin.packId.empty() || origin.overridesBuiltin) {
        message(tr("Not deleted"),
                origin.packId.empty() ? tr("Built-in modules cannot be deleted; the built-in course never changes.")
                                      : tr("This is your copy of a built-in module: use Restore the built-in module."));
        return false;
    }
    if (!confirm(tr("Delete the module “%1” from pack “%2”? Its files are removed.")
                     .arg(qs(saved.title), qs(origin.packId))))
        return false;
    if (engine::Status s = store().removeModule(origin.packId, saved.folder.filename().string()); !s)
        return message(tr("Not deleted"), errorText(s.error())), false;
    m_page->markSaved(m_page->module()); // nothing left to save
    m_window->loadCourse(m_root);
    openInPage(0, 0);
    return true;
}

bool InstructorMode::moveModule(int delta)
{
    const course::Module saved = m_page->savedModule();
    const packs::ModuleOrigin origin = originOf(qs(saved.id));
    if (origin.packId.empty() || origin.overridesBuiltin)
        return message(tr("Not moved"), tr("Built-in modules keep their place; modules you add can be moved.")), false;
    auto pack = store().find(origin.packId);
    if (!pack)
        return message(tr("Not moved"), errorText(pack.error())), false;
    auto& list = pack->modules;
    const auto it = std::find(list.begin(), list.end(), saved.folder.filename().string());
    const long at = it - list.begin();
    if (it == list.end() || at + delta < 0 || at + delta >= static_cast<long>(list.size()))
        return false;
    if (!maybeSave(tr("moving the module")))
        return false;
    std::swap(list[at], list[at + delta]);
    if (engine::Status s = packs::writeManifest(*pack); !s)
        return message(tr("Not moved"), errorText(s.error())), false;
    m_window->loadCourse(m_root);
    openInPage(moduleIndex(saved.id), m_page->currentActivity());
    return true;
}

bool InstructorMode::restoreBuiltinModule()
{
    const course::Module saved = m_page->savedModule();
    if (!originOf(qs(saved.id)).overridesBuiltin)
        return false;
    if (!confirm(tr("Restore the built-in “%1”? Your edited copy is deleted.").arg(qs(saved.title))))
        return false;
    auto removed = store().restoreBuiltin(saved.id);
    if (!removed)
        return message(tr("Not restored"), errorText(removed.error())), false;
    m_page->markSaved(m_page->module());
    m_window->loadCourse(m_root);
    openInPage(moduleIndex(saved.id), m_page->currentActivity());
    return true;
}

int InstructorMode::restoreBuiltinCourse()
{
    QStringList edited;
    for (const packs::ModuleOrigin& o : m_origins)
        if (o.overridesBuiltin)
            edited << qs(o.moduleId);
    if (edited.isEmpty()) {
        message(tr("Nothing to restore"), tr("No built-in module has an edited copy: the course is the built-in one."));
        return 0;
    }
    if (!confirm(tr("Restore the built-in course? Your edited copies of %1 are deleted. Modules you added stay.")
                     .arg(edited.join(QStringLiteral(", ")))))
        return -1;
    int removed = 0;
    packs::PackStore s = store();
    for (const QString& id : edited) {
        auto r = s.restoreBuiltin(id.toStdString());
        if (!r)
            return message(tr("Not restored"), errorText(r.error())), -1;
        removed += *r;
    }
    const std::string shown = m_page->savedModule().id;
    if (m_page->hasModule())
        m_page->markSaved(m_page->module());
    m_window->loadCourse(m_root);
    if (m_active)
        openInPage(std::max(0, moduleIndex(shown)), m_page->currentActivity());
    else
        m_window->openActivity(0, 0);
    m_window->statusBar()->showMessage(tr("Restored %n built-in module(s).", nullptr, removed), 6000);
    return removed;
}

bool InstructorMode::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::Close && !maybeSave(tr("closing the window"))) {
        event->ignore();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace tkm::app
