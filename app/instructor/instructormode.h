#pragma once
// Instructor mode: a toggle (View → Instructor mode, remembered) that turns the centre of the main window into the
// instructor page for the activity chosen in the course list. Edits are saved into the user's pack
// ("my-modules" in <app-data>/packs, docs/packs.md), never over the built-in content; editing a built-in module
// copies it into that pack first; "Restore built-in course" removes the copies. The window's course is the
// effective course (built-in modules with the enabled packs applied), so imported packs show in the navigator.
// Also: File → Export pack…, Import pack…, Manage packs…; the Edit menu's Undo/Redo; unsaved-change prompts.

#include "modules/packs/archive.h"
#include "modules/packs/store.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <vector>

class QAction;
class QMenu;

namespace tkm::app {

class InstructorPage;
class Shell;

/// Answer to "save the changes?".
enum class UnsavedChoice { Save, Discard, Cancel };

/// The instructor-mode controller of one main window.
class InstructorMode : public QObject
{
    Q_OBJECT
public:
    /// Id of the pack that receives the instructor's edits and new modules.
    static constexpr const char* kUserPackId = "my-modules";

    /// Hooks into `window` (course loader, menus, navigator, close); `builtinRoot` is the built-in content root;
    /// packs live in `<dataDir>/packs` (default: appDataDir()).
    InstructorMode(Shell* window, const QString& builtinRoot, const QString& dataDir = {});
    ~InstructorMode() override;

    /// Whether instructor mode is on.
    bool isActive() const { return m_active; }
    /// Turns instructor mode on or off (remembered); leaving asks about unsaved changes. Returns the new state.
    bool setActive(bool active);
    /// Turns instructor mode on when it was on in the last session (call after the course loaded).
    void restoreFromSettings();

    /// The editor page.
    InstructorPage* page() const { return m_page; }
    /// The pack store of this profile.
    packs::PackStore store() const;
    /// Where module `moduleId` of the window's course comes from (empty packId: built-in).
    packs::ModuleOrigin originOf(const QString& moduleId) const;
    /// The View-menu toggle.
    QAction* toggleAction() const { return m_toggle; }

    /// Reloads the window's course (built-in + packs) and re-opens the activity shown before.
    bool reloadCourse();
    /// Saves the edited module into its pack (a built-in module is copied into the user's pack first). Refuses,
    /// with a message, while the loader reports errors. Returns whether it saved.
    bool save();
    /// Throws away the unsaved changes of the edited module.
    void revert();
    /// Asks what to do with unsaved changes before `what` ("switching to another module"); true when it may go on.
    bool maybeSave(const QString& what);

    /// Creates a module in the user's pack (one lesson to start from) and opens it. Errors go to the message handler.
    bool createModule(const QString& id, const QString& title);
    /// Deletes the edited module from its pack (a pack module, not a built-in one), after confirmation.
    bool deleteModule();
    /// Moves the edited pack module `delta` places in its pack's order (the course order of added modules).
    bool moveModule(int delta);
    /// Restores the built-in version of the edited module (removes the copies in packs), after confirmation.
    bool restoreBuiltinModule();
    /// Restores the whole built-in course: removes every pack copy of a built-in module, after confirmation.
    /// Modules that packs add stay. Returns the number of copies removed, or -1 when cancelled or failed.
    int restoreBuiltinCourse();

    /// Writes pack `packId` to `file` (.tkmpack). Errors go to the message handler too.
    bool exportPack(const QString& packId, const QString& file);
    /// Imports a .tkmpack: validates first; refusals are shown with their message; a name clash is asked.
    bool importPack(const QString& file);
    /// Removes an installed pack after confirmation.
    bool removePack(const QString& packId);
    /// Opens the pack manager dialog.
    void showPackManager();

    /// Test hooks: answer the unsaved-changes prompt, confirmations, the import clash question, and receive the
    /// messages that would be shown in a message box (title, text).
    void setUnsavedHandler(std::function<UnsavedChoice(const QString& question)> handler);
    void setConfirmHandler(std::function<bool(const QString& question)> handler); ///< see setUnsavedHandler
    void setClashHandler(std::function<packs::ClashChoice(const packs::PackInfo& installed,
                                                          const packs::PackInfo& incoming)>
                             handler);                                                              ///< see above
    void setMessageHandler(std::function<void(const QString& title, const QString& text)> handler); ///< see above

signals:
    /// "Edit exercise…" in an exercise activity (absolute exercise folder); the exercise editor opens it.
    void editExerciseRequested(const QString& exerciseDir);
    /// Instructor mode was turned on or off.
    void activeChanged(bool active);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenus();
    void updateActions();
    void onActivityChosen(int module, int activity);
    void openInPage(int module, int activity);
    void onEditExercise(const QString& exerciseDir);
    QString originText(const packs::ModuleOrigin& origin) const;
    bool ensureUserPack();
    int moduleIndex(const std::string& moduleId) const;
    void message(const QString& title, const QString& text);
    bool confirm(const QString& question);
    void exportPackInteractive();
    void importPackInteractive();
    void newModuleInteractive();

    Shell* m_window;
    QString m_root;
    QString m_dataDir;
    InstructorPage* m_page = nullptr;
    bool m_active = false;
    std::vector<packs::ModuleOrigin> m_origins;
    QPair<int, int> m_shown{-1, -1};
    QAction* m_toggle = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_instructorMenu = nullptr;
    QList<QAction*> m_modeActions;
    QAction* m_save = nullptr;
    QAction* m_deleteModule = nullptr;
    QAction* m_restoreModule = nullptr;
    std::function<UnsavedChoice(const QString&)> m_unsaved;
    std::function<bool(const QString&)> m_confirm;
    std::function<packs::ClashChoice(const packs::PackInfo&, const packs::PackInfo&)> m_clash;
    std::function<void(const QString&, const QString&)> m_message;
};

} // namespace tkm::app
