#pragma once
// Instructor editor of a quiz: questions and their choices (the answer key).

#include "app/instructor/activityeditor.h"

#include <string>

namespace tkm::app {

/// Quiz: questions (id, prompt, single/multiple, code, follow-up) and their choices (correct, text, explanation).
class QuizEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit QuizEditor(QWidget *parent = nullptr);
  /// A small valid content for a new activity of this kind, with id `id` (what "Add" starts from).
  static course::Activity newActivity(const std::string &id);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The question list.
  ItemListPanel *questions() const { return m_list; }
  /// The choices table of the shown question (columns: correct, text, explanation).
  QTableWidget *choices() const { return m_choices; }
  /// The prompt editor of the shown question.
  QPlainTextEdit *promptEdit() const { return m_prompt; }
  /// Adds a question (two empty choices) after the last one and shows it.
  void addQuestion();
  /// Adds an empty choice to the shown question.
  void addChoice();

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void showQuestion(int index);
  void readForm();
  void readChoices();
  void refreshChoices();
  course::Quiz m_quiz;
  int m_current = -1;
  ItemListPanel *m_list = nullptr;
  QLineEdit *m_id = nullptr;
  QPlainTextEdit *m_prompt = nullptr;
  QCheckBox *m_multiple = nullptr;
  QPlainTextEdit *m_code = nullptr;
  QComboBox *m_language = nullptr;
  QTableWidget *m_choices = nullptr;
  QPlainTextEdit *m_followup = nullptr;
  QPlainTextEdit *m_followupAnswer = nullptr;
  QWidget *m_form = nullptr;
};

} // namespace tkm::app
