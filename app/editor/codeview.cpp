#include "app/editor/codeview.h"

#include "app/common/theme.h"
#include "app/editor/syntaxtheme.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>

#include <Qsci/qscilexer.h>

#include <algorithm>

namespace tkm::app {

void configureCodeView(QsciScintilla* view, const QString& language)
{
    const QPalette pal = view->palette();
    const SyntaxColors c = syntaxColors(pal);
    QsciLexer* old = view->lexer();
    QsciLexer* lexer = makeLexer(language, pal, view);
    view->setLexer(lexer);
    delete old;
    if (!lexer) {
        view->setFont(codeFont());
        view->setPaper(c.background);
        view->setColor(c.text);
    }
    const QFont font = codeFont();
    view->setMarginsFont(font);
    view->setMarginType(0, QsciScintilla::NumberMargin);
    view->setMarginWidth(0, QStringLiteral("00000"));
    view->setMarginsBackgroundColor(c.margin);
    view->setMarginsForegroundColor(c.marginText);
    view->setMarginWidth(1, 16);
    view->setMarginSensitivity(1, true);
    view->setCaretLineVisible(true);
    view->setCaretLineBackgroundColor(c.caretLine);
    view->setCaretForegroundColor(c.text);
    view->setSelectionBackgroundColor(pal.color(QPalette::Highlight));
    view->setSelectionForegroundColor(pal.color(QPalette::HighlightedText));
    view->setMatchedBraceBackgroundColor(c.caretLine.darker(115));
    view->setMatchedBraceForegroundColor(c.keyword);
    view->setFolding(QsciScintilla::NoFoldStyle);
    view->setWrapMode(QsciScintilla::WrapNone);
    view->setTabWidth(4);
    view->setIndentationsUseTabs(false);
    view->SendScintilla(QsciScintilla::SCI_SETHSCROLLBAR, 1);
    view->SendScintilla(QsciScintilla::SCI_SETSCROLLWIDTHTRACKING, 1);
    view->SendScintilla(QsciScintilla::SCI_SETSCROLLWIDTH, 1);
    defineCodeMarkers(view);
}

void defineCodeMarkers(QsciScintilla* view)
{
    const QPalette pal = view->palette();
    const bool dark = isDarkPalette(pal);
    const QColor base = pal.color(QPalette::Base);
    auto tint = [&](const QColor& c, double alpha) {
        return QColor::fromRgbF(base.redF() * (1 - alpha) + c.redF() * alpha,
                                base.greenF() * (1 - alpha) + c.greenF() * alpha,
                                base.blueF() * (1 - alpha) + c.blueF() * alpha);
    };
    const QColor green = toneColor(Tone::Good, pal);
    const QColor red = toneColor(Tone::Wrong, pal);
    const QColor accent = pal.color(QPalette::Highlight);
    view->markerDefine(QsciScintilla::Circle, kMarkerNote);
    view->setMarkerBackgroundColor(accent, kMarkerNote);
    view->setMarkerForegroundColor(accent, kMarkerNote);
    view->markerDefine(QsciScintilla::Background, kMarkerRight);
    view->setMarkerBackgroundColor(tint(green, dark ? 0.35 : 0.25), kMarkerRight);
    view->markerDefine(QsciScintilla::Background, kMarkerWrong);
    view->setMarkerBackgroundColor(tint(red, dark ? 0.35 : 0.22), kMarkerWrong);
    view->markerDefine(QsciScintilla::Background, kMarkerSelected);
    view->setMarkerBackgroundColor(tint(accent, dark ? 0.35 : 0.18), kMarkerSelected);
    view->markerDefine(QsciScintilla::RightArrow, kMarkerError);
    view->setMarkerBackgroundColor(red, kMarkerError);
    view->setMarkerForegroundColor(red.darker(130), kMarkerError);
    view->markerDefine(QsciScintilla::RightTriangle, kMarkerWarning);
    view->setMarkerBackgroundColor(toneColor(Tone::Caution, pal), kMarkerWarning);
    view->markerDefine(QsciScintilla::Background, kMarkerErrorLine);
    view->setMarkerBackgroundColor(tint(red, dark ? 0.22 : 0.10), kMarkerErrorLine);
}

QList<int> markedLines(const QsciScintilla* view, int marker)
{
    QList<int> result;
    auto* self = const_cast<QsciScintilla*>(view); // markerFindNext is not const but reads only
    for (int line = self->markerFindNext(0, 1 << marker); line >= 0; line = self->markerFindNext(line + 1, 1 << marker))
        result.append(line + 1);
    return result;
}

ListingView::ListingView(QWidget* parent) : QsciScintilla(parent)
{
    setReadOnly(true);
    configureCodeView(this, QString());
    connect(this, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
        if (line != m_lastLine) {
            m_lastLine = line;
            emit currentLineChanged(line + 1);
        }
    });
}

void ListingView::setListing(const QString& code, const QString& language)
{
    m_language = language;
    configureCodeView(this, language);
    setReadOnly(false);
    setText(code.endsWith(QLatin1Char('\n')) ? code.chopped(1) : code);
    setReadOnly(true);
    m_lastLine = -1;
    setCursorPosition(0, 0);
}

int ListingView::currentLineNumber() const
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    return line + 1;
}

void ListingView::setCurrentLineNumber(int line)
{
    setCursorPosition(line - 1, 0);
    ensureLineVisible(line - 1);
}

QPoint ListingView::pointOfLine(int line) const
{
    auto* self = const_cast<ListingView*>(this);
    const long pos = self->positionFromLineIndex(line - 1, 0);
    const int x = static_cast<int>(self->SendScintilla(SCI_POINTXFROMPOSITION, 0UL, pos));
    const int y = static_cast<int>(self->SendScintilla(SCI_POINTYFROMPOSITION, 0UL, pos));
    return {x + 8, y + self->textHeight(line - 1) / 2};
}

int ListingView::rowAt(const QPoint& point) const
{
    // QsciScintilla::lineAt asks for the character close to the point (SCI_POSITIONFROMPOINTCLOSE) and gives -1 to
    // the right of a short line's text, although the row is highlighted there. The nearest position
    // (SCI_POSITIONFROMPOINT) names the row; the row's top and height keep clicks below the last line out.
    auto* self = const_cast<ListingView*>(this);
    const long pos = self->SendScintilla(SCI_POSITIONFROMPOINT, static_cast<unsigned long>(std::max(point.x(), 0)),
                                         static_cast<long>(point.y()));
    if (pos < 0)
        return -1;
    const int line = static_cast<int>(self->SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(pos)));
    const long start = self->positionFromLineIndex(line, 0);
    const int top = static_cast<int>(self->SendScintilla(SCI_POINTYFROMPOSITION, 0UL, start));
    if (point.y() < top || point.y() >= top + self->textHeight(line))
        return -1;
    return line;
}

void ListingView::mouseReleaseEvent(QMouseEvent* event)
{
    QsciScintilla::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    const int line = rowAt(event->position().toPoint());
    if (line < 0)
        return;
    // A drag across lines is a selection, not a pick; a double-click selects a word on the line and still picks it.
    if (hasSelectedText()) {
        int lineFrom = 0, indexFrom = 0, lineTo = 0, indexTo = 0;
        getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        if (lineFrom != line || lineTo != line)
            return;
    }
    emit lineActivated(line + 1);
}

void ListingView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) {
        emit lineActivated(currentLineNumber());
        event->accept();
        return;
    }
    QsciScintilla::keyPressEvent(event);
}

void ListingView::changeEvent(QEvent* event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        configureCodeView(this, m_language);
}

} // namespace tkm::app
