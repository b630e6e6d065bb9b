#include "app/editor/kerneleditor.h"

#include "app/common/theme.h"
#include "app/editor/codeview.h"
#include "app/editor/findreplacedialog.h"
#include "app/editor/syntaxtheme.h"

#include <QEvent>
#include <QMap>
#include <QRegularExpression>
#include <QStringList>
#include <QToolTip>

#include <algorithm>
#include <utility>

namespace tkm::app {

namespace {
constexpr int kAnnotationStyleBase = 200; // style numbers for annotations, clear of the lexers' own
constexpr int kSquiggleError = 9;         // indicator numbers: Scintilla leaves 8-31 to the container
constexpr int kSquiggleWarning = 10;
constexpr int kIndentWidth = 4;

// The code of a Python line without its comment and trailing blanks (a `#` inside a string is rare in kernels).
QString pythonCode(const QString& line)
{
    const qsizetype hash = line.indexOf(QLatin1Char('#'));
    return (hash >= 0 ? line.left(hash) : line).trimmed();
}
} // namespace

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
    indicatorDefine(QsciScintilla::SquiggleIndicator, kSquiggleError);
    indicatorDefine(QsciScintilla::SquiggleIndicator, kSquiggleWarning);
    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
    connect(this, &QsciScintillaBase::SCN_CHARADDED, this, &KernelEditor::onCharAdded);
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, [this](int position, int x, int y) {
        int line = 0, index = 0;
        lineIndexFromPosition(position, &line, &index);
        const QString text = position >= 0 ? hoverText(line + 1, index + 1) : QString();
        if (!text.isEmpty())
            QToolTip::showText(viewport()->mapToGlobal(QPoint(x, y)), text, viewport());
    });
    connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
    applyTheme();
}

void KernelEditor::setLanguage(const QString& language)
{
    if (language == m_language)
        return;
    m_language = language;
    applyTheme();
}

void KernelEditor::setWordWrap(bool on)
{
    setWrapMode(on ? QsciScintilla::WrapWord : QsciScintilla::WrapNone);
    setWrapVisualFlags(on ? QsciScintilla::WrapFlagByText : QsciScintilla::WrapFlagNone);
}

bool KernelEditor::wordWrap() const
{
    return wrapMode() != QsciScintilla::WrapNone;
}

void KernelEditor::onCharAdded(int ch)
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    const bool python = m_language == QLatin1String("python");
    if ((ch == '\n' || ch == '\r') && line > 0) {
        // Python: one level deeper after a block opener, one less after a statement that ends the block; CUDA:
        // one deeper after a `{`. QScintilla has already kept the previous line's indentation.
        const QString previous = text(line - 1);
        int want = indentation(line - 1);
        if (python) {
            const QString code = pythonCode(previous);
            static const QRegularExpression ender(QStringLiteral("^(return|pass|break|continue|raise)\\b"));
            if (code.endsWith(QLatin1Char(':')))
                want += kIndentWidth;
            else if (ender.match(code).hasMatch())
                want = std::max(0, want - kIndentWidth);
        } else if (previous.trimmed().endsWith(QLatin1Char('{'))) {
            want += kIndentWidth;
        }
        if (text(line).trimmed().isEmpty() && indentation(line) != want) {
            setIndentation(line, want);
            setCursorPosition(line, want);
        }
        return;
    }
    if (ch == '}' && !python && text(line).trimmed() == QLatin1String("}")) {
        // A `}` alone on its line goes back to its `{`'s indentation.
        const long closing = SendScintilla(SCI_GETCURRENTPOS) - 1;
        const long opening = SendScintilla(SCI_BRACEMATCH, static_cast<unsigned long>(closing), 0L);
        if (opening < 0)
            return;
        int openLine = 0, openIndex = 0;
        lineIndexFromPosition(static_cast<int>(opening), &openLine, &openIndex);
        const int want = indentation(openLine);
        if (indentation(line) != want) {
            setIndentation(line, want);
            setCursorPosition(line, want + 1);
        }
    }
}

KernelEditor::~KernelEditor() = default;

void KernelEditor::applyTheme()
{
    configureCodeView(this, m_language);
    setWrapMode(wordWrap() ? QsciScintilla::WrapWord : QsciScintilla::WrapNone);
    const QPalette pal = palette();
    const SyntaxColors c = syntaxColors(pal);
    setEdgeColor(c.margin.darker(110));
    // Annotation styles: text in the severity colour on a tinted paper.
    m_annotationError = kAnnotationStyleBase;
    m_annotationWarning = kAnnotationStyleBase + 1;
    const QColor red = toneColor(Tone::Wrong, pal);
    const QColor amber = toneColor(Tone::Caution, pal);
    const QFont font = codeFont();
    for (auto [style, colour] : {std::pair{m_annotationError, red}, std::pair{m_annotationWarning, amber}}) {
        SendScintilla(SCI_STYLESETFORE, style, colour);
        SendScintilla(SCI_STYLESETBACK, style, c.margin);
        SendScintilla(SCI_STYLESETFONT, style, font.family().toUtf8().constData());
        SendScintilla(SCI_STYLESETSIZE, style, std::max(font.pointSize() - 1, 7));
        SendScintilla(SCI_STYLESETITALIC, style, 1L);
    }
    setIndicatorForegroundColor(red, kSquiggleError);
    setIndicatorForegroundColor(amber, kSquiggleWarning);
    setDiagnostics(m_diagnostics);
}

void KernelEditor::setDiagnostics(const QList<EditorDiagnostic>& diagnostics)
{
    markerDeleteAll(kMarkerError);
    markerDeleteAll(kMarkerWarning);
    markerDeleteAll(kMarkerErrorLine);
    clearAnnotations();
    for (int indicator : {kSquiggleError, kSquiggleWarning})
        clearIndicatorRange(0, 0, std::max(lines() - 1, 0), std::max(lineLength(lines() - 1), 0), indicator);
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
        squiggle(d, error ? kSquiggleError : kSquiggleWarning);
        isError[line] = isError.value(line) || error;
        // Only errors get an annotation: warnings on an untouched starter (unused parameters) would push its TODO
        // lines out of view. Their text is in the margin marker's hover and the problems list.
        if (error)
            texts[line] << text;
        else
            texts[line];
    }
    for (auto it = texts.begin(); it != texts.end(); ++it) {
        const bool error = isError.value(it.key());
        markerAdd(it.key(), error ? kMarkerError : kMarkerWarning);
        if (error) {
            markerAdd(it.key(), kMarkerErrorLine);
            annotate(it.key(), it.value().join(QLatin1Char('\n')), m_annotationError);
        }
    }
}

void KernelEditor::squiggle(const EditorDiagnostic& d, int indicator)
{
    QList<EditorRange> ranges = d.ranges;
    if (ranges.isEmpty())
        ranges.append(EditorRange{d.line, d.column, 0, 0});
    for (const EditorRange& r : ranges) {
        if (r.line < 1 || r.line > lines())
            continue;
        const int line = r.line - 1;
        const int from = std::max(r.column - 1, 0);
        int endLine = r.endLine > 0 ? std::min(r.endLine, lines()) - 1 : line;
        int end = r.endColumn > 0 ? r.endColumn - 1 : -1;
        if (end < 0) { // the word at the column, else the rest of the line
            const QString t = text(line);
            int i = from;
            while (i < t.size() && (t[i].isLetterOrNumber() || t[i] == QLatin1Char('_')))
                ++i;
            end = i > from ? i : static_cast<int>(t.trimmed().isEmpty() ? from : t.size());
            if (end == from)
                end = from + 1;
        }
        fillIndicatorRange(line, from, endLine, end, indicator);
    }
}

bool KernelEditor::hasSquiggle(int line, int column) const
{
    auto* self = const_cast<KernelEditor*>(this);
    const int pos = self->positionFromLineIndex(line - 1, column - 1);
    for (int indicator : {kSquiggleError, kSquiggleWarning})
        if (self->SendScintilla(SCI_INDICATORVALUEAT, indicator, static_cast<long>(pos)) != 0)
            return true;
    return false;
}

QString KernelEditor::hoverText(int line, int column) const
{
    if (!hasSquiggle(line, column) && column > 0)
        return {};
    QStringList parts;
    for (const EditorDiagnostic& d : m_diagnostics) {
        bool covers = false;
        QList<EditorRange> ranges = d.ranges;
        if (ranges.isEmpty())
            ranges.append(EditorRange{d.line, d.column, 0, 0});
        for (const EditorRange& r : ranges)
            covers = covers || (line >= r.line && line <= std::max(r.line, r.endLine));
        if (!covers)
            continue;
        QString text = d.severity + QStringLiteral(": ") + d.message;
        for (const QString& note : d.notes)
            text += QStringLiteral("\n  note: ") + note;
        parts << text;
    }
    return parts.join(QLatin1Char('\n'));
}

void KernelEditor::setHighlightedLines(const QList<int>& highlighted)
{
    markerDeleteAll(kMarkerSelected);
    for (int line : highlighted)
        if (line >= 1 && line <= lines())
            markerAdd(line - 1, kMarkerSelected);
    if (!highlighted.isEmpty())
        ensureLineVisible(highlighted.first() - 1);
}

QList<int> KernelEditor::highlightedLines() const
{
    return markedLines(this, kMarkerSelected);
}

void KernelEditor::clearDiagnostics()
{
    setDiagnostics({});
}

QList<int> KernelEditor::errorLines() const
{
    return markedLines(this, kMarkerError);
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
