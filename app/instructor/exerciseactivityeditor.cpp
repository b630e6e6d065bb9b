// Instructor editor of an exercise activity (the module entry; "Edit exercise…" opens the spec).
#include "app/instructor/exerciseactivityeditor.h"

#include "app/common/qtconvert.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tkm::app {



ExerciseActivityEditor::ExerciseActivityEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_edit = new QPushButton(tr("Edit exercise…"), this);
    m_edit->setToolTip(tr("Opens the exercise's spec (parameters, cases, tolerances) and its sources in the exercise "
                          "editor, where Validate checks them on the GPU."));
    layout->addWidget(m_edit, 0, Qt::AlignLeft);
    layout->addStretch(1);
    connect(m_edit, &QPushButton::clicked, this, [this] { emit editExerciseRequested(m_folder); });
}

void ExerciseActivityEditor::doLoad(const course::Activity& activity)
{
    const course::Exercise* exercise = activity.as<course::Exercise>();
    m_folder = qs(exercise && !exercise->folder.empty() ? exercise->folder : activity.source);
    QString text = tr("<p>A coding exercise: the learner writes <code>%1</code>.</p>"
                      "<p><b>Spec id:</b> %2<br><b>Folder:</b> %3</p>"
                      "<p>The activity's title is the spec's <code>title</code>. The spec, the starter, solution, "
                      "reference and bug variants are edited in the exercise editor.</p>")
                       .arg(exercise ? qs(exercise->kernel).toHtmlEscaped() : QString(),
                            exercise ? qs(exercise->specId).toHtmlEscaped() : QString(), m_folder.toHtmlEscaped());
    m_summary->setText(text);
    m_edit->setEnabled(!m_folder.isEmpty());
}

void ExerciseActivityEditor::store(course::Activity&) const {}

QWidget* ExerciseActivityEditor::fieldWidget(const QString&, bool)
{
    return m_edit;
}

} // namespace tkm::app
