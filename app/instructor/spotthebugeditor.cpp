// Instructor editor of a spot-the-bug item: faulty lines are marked in the listing's margin.
#include "app/instructor/spotthebugeditor.h"

#include "app/common/qtconvert.h"
#include "app/editor/codeview.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QVBoxLayout>

#include <Qsci/qsciscintilla.h>

namespace tkm::app {

course::Activity SpotTheBugEditor::newActivity(const std::string& id)
{
    course::SpotTheBug s;
    s.language = "python";
    s.code = "offs = pid * BLOCK + tl.arange(0, BLOCK)\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x)\n";
    s.bugLines = {2};
    s.why = "The load has no mask: the last program reads past the end.";
    s.fix = "Load with `mask=offs < n`.";
    return makeActivity(course::ActivityKind::SpotTheBug, id, "New spot the bug", std::move(s));
}

/// The spot-the-bug listing: editable code; a click in the margin (or Ctrl+B) marks or unmarks the faulty line.
/// Markers follow their line while the code is edited.
class BugListingEdit : public QsciScintilla
{
public:
    explicit BugListingEdit(QWidget* parent) : QsciScintilla(parent)
    {
        configureCodeView(this, QStringLiteral("python"));
        defineCodeMarkers(this);
        setMarginWidth(1, 18);
        setMarginSensitivity(1, true);
        setMarginMarkerMask(1, 1 << kMarkerWrong);
        setMarginSensitivity(0, true);
        markerDefine(QsciScintilla::RightArrow, kMarkerError); // margin arrow beside the background tint
        setMinimumHeight(220);
    }
    void setLanguage(const QString& language) { configureCodeView(this, language), defineCodeMarkers(this); }
    bool isBug(int line) const { return (markersAtLine(line - 1) & (1 << kMarkerWrong)) != 0; }
    void setBug(int line, bool bug)
    {
        if (bug) {
            markerAdd(line - 1, kMarkerWrong);
            markerAdd(line - 1, kMarkerError);
        } else {
            markerDelete(line - 1, kMarkerWrong);
            markerDelete(line - 1, kMarkerError);
        }
    }
    std::vector<int> bugs() const
    {
        std::vector<int> out;
        for (int line = markerFindNext(0, 1 << kMarkerWrong); line >= 0;
             line = markerFindNext(line + 1, 1 << kMarkerWrong))
            out.push_back(line + 1);
        return out;
    }
};

SpotTheBugEditor::SpotTheBugEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_language = makeLanguageCombo(this);
    form->addRow(tr("Language"), m_language);
    m_code = new BugListingEdit(this);
    m_code->setObjectName(QStringLiteral("bugListing"));
    m_bugLabel = new QLabel(this);
    m_bugLabel->setWordWrap(true);
    auto* codeBox = new QVBoxLayout;
    codeBox->addWidget(m_code);
    codeBox->addWidget(m_bugLabel);
    form->addRow(tr("Listing"), codeBox);
    m_why = makeTextEdit(this, 3, false);
    m_why->setPlaceholderText(tr("Why the marked line is wrong (Markdown)"));
    form->addRow(tr("Why"), m_why);
    m_fix = makeTextEdit(this, 2, false);
    m_fix->setPlaceholderText(tr("How to fix it (Markdown)"));
    form->addRow(tr("Fix"), m_fix);
    m_fixed = makeTextEdit(this, 5, true);
    m_fixed->setPlaceholderText(tr("Optional: the corrected listing"));
    form->addRow(tr("Fixed listing"), m_fixed);
    m_runLabel = new QLabel(this);
    m_runLabel->setWordWrap(true);
    form->addRow(tr("Run on GPU"), m_runLabel);

    connect(m_code, &QsciScintilla::marginClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
        Q_UNUSED(margin);
        toggleBugLine(line + 1);
    });
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_B), m_code, nullptr, nullptr, Qt::WidgetShortcut);
    connect(shortcut, &QShortcut::activated, this, [this] {
        int line = 0, index = 0;
        m_code->getCursorPosition(&line, &index);
        toggleBugLine(line + 1);
    });
    connect(m_code, &QsciScintilla::textChanged, this, [this] {
        updateBugLabel();
        notify(QStringLiteral("code"), tr("Edit the listing"));
    });
    connect(m_language, &QComboBox::currentIndexChanged, this, [this] {
        const std::vector<int> bugs = m_code->bugs();
        m_code->setLanguage(m_language->currentText());
        for (int line : bugs)
            m_code->setBug(line, true);
        notify(QStringLiteral("language"), tr("Change the language"));
    });
    watch(m_why, QStringLiteral("why"), tr("Edit why"));
    watch(m_fix, QStringLiteral("fix"), tr("Edit the fix"));
    watch(m_fixed, QStringLiteral("fixed"), tr("Edit the fixed listing"));
}

void SpotTheBugEditor::doLoad(const course::Activity& activity)
{
    const course::SpotTheBug item =
        activity.as<course::SpotTheBug>() ? *activity.as<course::SpotTheBug>() : course::SpotTheBug{};
    m_run = item.run;
    m_language->setCurrentText(item.language.empty() ? QStringLiteral("python") : qs(item.language));
    m_code->setLanguage(m_language->currentText());
    m_code->setText(qs(item.code));
    for (int line : item.bugLines)
        m_code->setBug(line, true);
    m_why->setPlainText(qs(item.why));
    m_fix->setPlainText(qs(item.fix));
    m_fixed->setPlainText(qs(item.fixedCode));
    m_runLabel->setText(item.run
                            ? tr("“Run it on my GPU” runs %1 with the exercise %2 (kept as it is).")
                                  .arg(qs(item.run->kernelFile.filename()), qs(item.run->exerciseFolder.filename()))
                            : tr("No runnable kernel (optional)."));
    updateBugLabel();
}

void SpotTheBugEditor::toggleBugLine(int line)
{
    if (line < 1 || line > m_code->lines())
        return;
    const bool bug = !m_code->isBug(line);
    m_code->setBug(line, bug);
    updateBugLabel();
    notify(QString(), bug ? tr("Mark line %1 faulty").arg(line) : tr("Unmark line %1").arg(line));
}

std::vector<int> SpotTheBugEditor::bugLines() const
{
    return m_code->bugs();
}

QWidget* SpotTheBugEditor::listing() const
{
    return m_code;
}

void SpotTheBugEditor::updateBugLabel()
{
    QStringList lines;
    for (int line : m_code->bugs())
        lines << QString::number(line);
    m_bugLabel->setText(lines.isEmpty()
                            ? tr("<b>No faulty line marked.</b> Click the margin beside a line (or press Ctrl+B on it) "
                                 "to mark it.")
                            : tr("Faulty line(s): <b>%1</b>. Click the margin again (or Ctrl+B) to unmark.")
                                  .arg(lines.join(QStringLiteral(", "))));
}

void SpotTheBugEditor::store(course::Activity& activity) const
{
    course::SpotTheBug item;
    item.language = m_language->currentText().toStdString();
    item.code = m_code->text().toStdString();
    item.bugLines = m_code->bugs();
    item.why = m_why->toPlainText().toStdString();
    item.fix = m_fix->toPlainText().toStdString();
    item.fixedCode = m_fixed->toPlainText().toStdString();
    item.run = m_run;
    activity.payload = std::move(item);
}

QWidget* SpotTheBugEditor::fieldWidget(const QString& pointer, bool)
{
    const QString field = pointerTokens(pointer).value(0);
    if (field == QLatin1String("language"))
        return m_language;
    if (field == QLatin1String("code") || field == QLatin1String("code_file") || field == QLatin1String("bug_lines"))
        return m_code;
    if (field == QLatin1String("why"))
        return m_why;
    if (field == QLatin1String("fix"))
        return m_fix;
    if (field == QLatin1String("fixed_code") || field == QLatin1String("fixed_code_file"))
        return m_fixed;
    if (field == QLatin1String("run"))
        return m_runLabel;
    return nullptr;
}

} // namespace tkm::app
