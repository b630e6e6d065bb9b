#include "app/editor/findreplacedialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

namespace tkm::app {

FindReplaceDialog::FindReplaceDialog(QsciScintilla *editor, QWidget *parent) : QDialog(parent), m_editor(editor)
{
  setWindowTitle(tr("Find and replace"));
  auto *layout = new QVBoxLayout(this);
  auto *form = new QFormLayout;
  m_find = new QLineEdit(this);
  m_replace = new QLineEdit(this);
  form->addRow(tr("&Find:"), m_find);
  form->addRow(tr("Re&place with:"), m_replace);
  layout->addLayout(form);
  auto *options = new QHBoxLayout;
  m_case = new QCheckBox(tr("&Match case"), this);
  m_word = new QCheckBox(tr("&Whole words"), this);
  m_regex = new QCheckBox(tr("Regular e&xpression"), this);
  options->addWidget(m_case);
  options->addWidget(m_word);
  options->addWidget(m_regex);
  options->addStretch();
  layout->addLayout(options);
  m_status = new QLabel(this);
  layout->addWidget(m_status);
  auto *buttons = new QDialogButtonBox(this);
  auto *next = buttons->addButton(tr("Find &next"), QDialogButtonBox::ActionRole);
  auto *previous = buttons->addButton(tr("Find pre&vious"), QDialogButtonBox::ActionRole);
  auto *replace = buttons->addButton(tr("&Replace"), QDialogButtonBox::ActionRole);
  auto *all = buttons->addButton(tr("Replace &all"), QDialogButtonBox::ActionRole);
  buttons->addButton(QDialogButtonBox::Close);
  next->setDefault(true);
  layout->addWidget(buttons);
  connect(next, &QPushButton::clicked, this, [this] { find(true); });
  connect(previous, &QPushButton::clicked, this, [this] { find(false); });
  connect(replace, &QPushButton::clicked, this, [this] { replaceOne(); });
  connect(all, &QPushButton::clicked, this, [this] { replaceAll(); });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
}

void FindReplaceDialog::setFindText(const QString &text)
{
  if (!text.isEmpty())
    m_find->setText(text);
  m_find->selectAll();
  m_find->setFocus();
}

bool FindReplaceDialog::find(bool forward)
{
  if (m_find->text().isEmpty()) {
    m_status->setText(tr("Type the text to find."));
    return false;
  }
  int line = 0, index = 0;
  if (!forward && m_editor->hasSelectedText()) {
    int l2 = 0, i2 = 0;
    m_editor->getSelection(&line, &index, &l2, &i2);
  } else {
    m_editor->getCursorPosition(&line, &index);
  }
  const bool found = m_editor->findFirst(m_find->text(), m_regex->isChecked(), m_case->isChecked(),
                                         m_word->isChecked(), true, forward, line, index, true);
  m_status->setText(found ? QString() : tr("\"%1\" was not found.").arg(m_find->text()));
  return found;
}

bool FindReplaceDialog::selectionMatches() const
{
  if (!m_editor->hasSelectedText())
    return false;
  const QString selected = m_editor->selectedText();
  if (m_regex->isChecked()) {
    QRegularExpression re(QRegularExpression::anchoredPattern(m_find->text()),
                          m_case->isChecked() ? QRegularExpression::NoPatternOption
                                              : QRegularExpression::CaseInsensitiveOption);
    return re.match(selected).hasMatch();
  }
  return selected.compare(m_find->text(), m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive) == 0;
}

bool FindReplaceDialog::replaceOne()
{
  bool replaced = false;
  if (selectionMatches()) {
    m_editor->replaceSelectedText(m_replace->text());
    replaced = true;
  }
  find(true);
  return replaced;
}

int FindReplaceDialog::replaceAll()
{
  if (m_find->text().isEmpty())
    return 0;
  int count = 0;
  m_editor->beginUndoAction();
  bool found = m_editor->findFirst(m_find->text(), m_regex->isChecked(), m_case->isChecked(), m_word->isChecked(),
                                   false, true, 0, 0, true);
  while (found) {
    m_editor->replace(m_replace->text());
    ++count;
    found = m_editor->findNext();
  }
  m_editor->endUndoAction();
  m_status->setText(tr("%n replacement(s).", nullptr, count));
  return count;
}

} // namespace tkm::app
