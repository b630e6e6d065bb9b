#pragma once
// Instructor editor of a step-through: the diagram, its parameters and the steps' states.

#include "app/instructor/activityeditor.h"

#include <string>

namespace tkm::app {

/// Step-through: diagram, parameters, steps (title, text, state as JSON).
class StepThroughEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit StepThroughEditor(QWidget *parent = nullptr);
  /// A small valid content for a new activity of this kind, with id `id` (what "Add" starts from).
  static course::Activity newActivity(const std::string &id);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The step list.
  ItemListPanel *steps() const { return m_list; }
  /// The state editor of the shown step (JSON text).
  QPlainTextEdit *stateEdit() const { return m_state; }

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void showStep(int index);
  void readForm();
  bool parseJsonInto(QPlainTextEdit *edit, nlohmann::json &out);
  course::StepThrough m_steps;
  int m_current = -1;
  QComboBox *m_diagram = nullptr;
  QPlainTextEdit *m_params = nullptr;
  QLabel *m_fieldsHint = nullptr;
  ItemListPanel *m_list = nullptr;
  QLineEdit *m_title = nullptr;
  QPlainTextEdit *m_text = nullptr;
  QPlainTextEdit *m_state = nullptr;
  QWidget *m_form = nullptr;
};

} // namespace tkm::app
