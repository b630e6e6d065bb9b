#pragma once
// The exercise spec as a form: one section per part of exercise.json (general, hints, parameters with their shapes,
// dtypes, roles and generators, meta-parameters, launch, reference, cases, performance case, tolerances, ideal bytes
// and FLOPs, bug variants with their expected diagnosis, baselines, reset_to_zero, autotune, other fields). Every
// field is bound to the JSON pointer it edits; the form never changes the document itself: it asks its edit handler
// (the editor pushes an undoable command). Errors and warnings are shown on the field their pointer names.

#include "app/instructor/exercise/exercisedocument.h"
#include "app/instructor/exercise/specfields.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <string>

class QFormLayout;
class QLabel;
class QVBoxLayout;
class QGroupBox;

namespace tkm::app {

/// The form over an ExerciseDocument.
class SpecForm : public QWidget {
  Q_OBJECT
public:
  /// Receives a requested change: set `pointer` to `value` (discarded: remove it); `what` names it for the undo
  /// history ("Change /params/0/dtype").
  using EditHandler = std::function<void(const std::string &pointer, const SpecJson &value, const QString &what)>;

  explicit SpecForm(QWidget *parent = nullptr);

  /// Shows `document` (not owned; must outlive the form) and rebuilds every section.
  void setDocument(const ExerciseDocument *document);
  /// Where edits go.
  void setEditHandler(EditHandler handler) { m_edit = std::move(handler); }
  /// Forgets the document and the handler (their owner is going away; a last focus-out commits nothing).
  void detach()
  {
    m_doc = nullptr;
    m_edit = nullptr;
  }
  /// Re-creates every section from the document (after a structural change: an item added or removed).
  void rebuild();
  /// Updates every field's text from the document (after a value change or an undo).
  void refreshValues();

  /// Shows `messages` (pointer → sentence) on the fields they concern, replacing earlier ones of the same
  /// `severity` ("error" or "warning"); a pointer with no field of its own goes to the nearest field above it, then
  /// to its section, then to the banner at the top.
  void setMessages(const QString &severity, const QHash<QString, QString> &messages);
  /// The message shown on the field or section that owns `pointer` (empty when none).
  QString messageAt(const QString &pointer) const;
  /// The editing widget of the field that owns `pointer` (nearest registered ancestor), or nullptr.
  QWidget *fieldWidget(const QString &pointer) const;
  /// Scrolls to the field (or section) that owns `pointer` and focuses it; false when there is none.
  bool focusField(const QString &pointer);
  /// Every pointer that has a field, in form order (for tests).
  QStringList fieldPointers() const { return m_order; }

private:
  struct Field {
    FieldKind kind = FieldKind::Text;
    bool optional = false;
    QPointer<QWidget> editor;
    QPointer<QLabel> message;
  };

  // Sections.
  void buildGeneral();
  void buildHints();
  void buildParams();
  void buildMeta();
  void buildLaunch();
  void buildReference();
  void buildCases();
  void buildPerformance();
  void buildTolerance();
  void buildCost();
  void buildBugs();
  void buildTriton();
  /// One card per bug variant of `arrayPointer` ("/bugs", "/triton/bugs") and an Add button (new files get
  /// `extension`).
  void bugCards(QGroupBox *box, const std::string &arrayPointer, const std::string &extension);
  void buildBaselines();
  void buildRest();

  QGroupBox *section(const QString &title, const std::string &pointer, const QString &help);
  QFormLayout *card(QGroupBox *box, const QString &title, const std::string &arrayPointer, std::size_t index);
  void addButton(QGroupBox *box, const QString &text, const std::function<void()> &onClick);
  void field(QFormLayout *form, const QString &label, const std::string &pointer, FieldKind kind, bool optional,
             const QStringList &choices = {});
  void caseFields(QFormLayout *form, const std::string &pointer);
  void generatorFields(QFormLayout *form, const std::string &pointer);
  void commit(const std::string &pointer);
  void commitChoice(const std::string &pointer, const QString &value);
  void request(const std::string &pointer, const SpecJson &value);
  void appendItem(const std::string &arrayPointer, const SpecJson &item);
  void removeItem(const std::string &arrayPointer, std::size_t index);
  QString ownerOf(const QString &pointer) const;
  void showMessage(const QString &owner, const QString &text, const QString &severity);

  const ExerciseDocument *m_doc = nullptr;
  EditHandler m_edit;
  QVBoxLayout *m_layout = nullptr;
  QLabel *m_banner = nullptr;
  QWidget *m_body = nullptr;
  QHash<QString, Field> m_fields;
  QHash<QString, QPointer<QWidget>> m_sections; ///< sections (group boxes) and array items (cards)
  QStringList m_order;
  QHash<QString, QHash<QString, QString>> m_messages; ///< severity → pointer → message
  QHash<QString, QString> m_shown;                    ///< owner pointer → text shown
};

} // namespace tkm::app
