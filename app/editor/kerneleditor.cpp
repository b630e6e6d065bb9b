#include "app/editor/kerneleditor.h"

#include "app/common/theme.h"
#include "app/editor/codeview.h"
#include "app/editor/findreplacedialog.h"
#include "app/editor/syntaxtheme.h"

#include <QEvent>
#include <QMap>
#include <QStringList>

#include <algorithm>
#include <utility>

namespace tkm::app {

namespace {
constexpr int kAnnotationStyleBase = 200; // style numbers for annotations, clear of the lexers' own
}

KernelEditor::KernelEditor(QWidget* parent) : QsciScintilla(parent)
{
    setUtf8(true);
    setAutoIndent(true);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setIndentationGuides(false);
    setBackspaceUnindents(true);
    setTabIndents(true);
    setEdgeMode(QsciScintilla::EdgeLine);
    setEdgeColumn(120);
    setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
    applyTheme();
}

KernelEditor::~KernelEditor() = default;

void KernelEditor::applyTheme()
{
    configureCodeView(this, QStringLiteral("cuda"));
    const QPalette pal = palette();
    const SyntaxColors c = syntaxColors(pal);
    setEdgeColor(c.margin.darker(110));
    // Annotation styles: text in the severity colour on a tinted paper.
    m_annotationError = kAnnotationStyleBase;
    m_annotationWarning = kAnnotationStyleBase + 1;
    const QColor red = verdictColor(QStringLiteral("fail"), pal);
    const QColor amber = verdictColor(QString(), pal);
    const QFont font = codeFont();
    for (auto [style, colour] : {std::pair{m_annotationError, red}, std::pair{m_annotationWarning, amber}}) {
        SendScintilla(SCI_STYLESETFORE, style, colour);
        SendScintilla(SCI_STYLESETBACK, style, c.margin);
        SendScintilla(SCI_STYLESETFONT, style, font.family().toUtf8().constData());
        SendScintilla(SCI_STYLESETSIZE, style, std::max(font.pointSize() - 1, 7));
        SendScintilla(SCI_STYLESETITALIC, style, 1L);
    }
    setDiagnostics(m_diagnostics);
}

void KernelEditor::setDiagnostics(const QList<EditorDiagnostic>& diagnostics)
{
    markerDeleteAll(kMarkerError);
    markerDeleteAll(kMarkerWarning);
    markerDeleteAll(kMarkerErrorLine);
    clearAnnotations();
    m_diagnostics = diagnostics;
    // Several diagnostics on one line share one annotation.
    QMap<int, QStringList> texts;
    QMap<int, bool> isError;
    for (const EditorDiagnostic& d : diagnostics) {
        const int line = std::clamp(d.line, 1, std::max(lines(), 1)) - 1;
        const bool error = d.severity != QLatin1String("warning") && d.severity != QLatin1String("note");
        QString text = d.severity + QStringLiteral(": ") + d.message;
        if (d.column > 0)
            text = QStringLiteral("%1 (column %2)").arg(text).arg(d.column);
        texts[line] << text;
        isError[line] = isError.value(line) || error;
    }
    for (auto it = texts.begin(); it != texts.end(); ++it) {
        const bool error = isError.value(it.key());
        markerAdd(it.key(), error ? kMarkerError : kMarkerWarning);
        if (error)
            markerAdd(it.key(), kMarkerErrorLine);
        annotate(it.key(), it.value().join(QLatin1Char('\n')), error ? m_annotationError : m_annotationWarning);
    }
}

void KernelEditor::clearDiagnostics()
{
    setDiagnostics({});
}

QList<int> KernelEditor::errorLines() const
{
    QList<int> result;
    auto* self = const_cast<KernelEditor*>(this);
    for (int line = self->markerFindNext(0, 1 << kMarkerError); line >= 0;
         line = self->markerFindNext(line + 1, 1 << kMarkerError))
        result.append(line + 1);
    return result;
}

QString KernelEditor::annotationText(int line) const
{
    return annotation(line - 1);
}

void KernelEditor::goToPosition(int line, int column)
{
    setCursorPosition(std::max(line - 1, 0), std::max(column - 1, 0));
    ensureLineVisible(std::max(line - 1, 0));
    setFocus();
}

void KernelEditor::replaceAllText(const QString& text)
{
    beginUndoAction();
    selectAll(true);
    replaceSelectedText(text);
    endUndoAction();
    setCursorPosition(0, 0);
}

FindReplaceDialog* KernelEditor::findReplaceDialog()
{
    if (!m_find)
        m_find = new FindReplaceDialog(this, this);
    return m_find;
}

void KernelEditor::showFindReplace()
{
    FindReplaceDialog* dialog = findReplaceDialog();
    dialog->setFindText(selectedText());
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void KernelEditor::changeEvent(QEvent* event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

} // namespace tkm::app
