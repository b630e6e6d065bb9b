#include "app/activities/markdownview.h"

#include "app/activities/formula.h"
#include "app/common/theme.h"
#include "app/editor/codetokens.h"
#include "app/editor/syntaxtheme.h"

#include <QEvent>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

namespace tkm::app {

namespace {

struct CalloutStyle
{
    QString label;
    QColor colour;
};

CalloutStyle calloutStyle(const QString& kind, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    auto tr = [](const char* s) { return MarkdownView::tr(s); };
    if (kind == QLatin1String("PROBE"))
        return {tr("What interviewers probe"), dark ? QColor(0xbc, 0x8c, 0xff) : QColor(0x82, 0x50, 0xdf)};
    if (kind == QLatin1String("GOTCHA"))
        return {tr("Gotcha"), dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xcf, 0x22, 0x2e)};
    if (kind == QLatin1String("RULE"))
        return {tr("Rule"), dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x1a, 0x7f, 0x37)};
    if (kind == QLatin1String("VERSION"))
        return {tr("Version note"), dark ? QColor(0xd2, 0x99, 0x22) : QColor(0x9a, 0x67, 0x00)};
    return {tr("Note"), dark ? QColor(0x58, 0xa6, 0xff) : QColor(0x09, 0x69, 0xda)};
}

QColor mix(const QColor& base, const QColor& c, double alpha)
{
    return QColor::fromRgbF(base.redF() * (1 - alpha) + c.redF() * alpha,
                            base.greenF() * (1 - alpha) + c.greenF() * alpha,
                            base.blueF() * (1 - alpha) + c.blueF() * alpha);
}

class Renderer
{
public:
    Renderer(QTextDocument* doc, const QPalette& palette)
        : m_doc(doc), m_palette(palette), m_colors(syntaxColors(palette))
    {
    }

    void render(QTextFrame* container, const QString& markdown)
    {
        static const QRegularExpression calloutRe(QStringLiteral("^\\s*>\\s*\\[!([A-Za-z]+)\\]\\s*(.*)$"));
        static const QRegularExpression fenceRe(QStringLiteral("^\\s*(```+|~~~+)\\s*([A-Za-z0-9+_-]*)\\s*$"));
        const QStringList lines = markdown.split(QLatin1Char('\n'));
        QStringList buffer;
        auto flush = [&] {
            if (!buffer.isEmpty() && !buffer.join(QString()).trimmed().isEmpty()) {
                QTextCursor cursor = container->lastCursorPosition();
                cursor.insertMarkdown(buffer.join(QLatin1Char('\n')));
            }
            buffer.clear();
        };
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString& line = lines[i];
            const QRegularExpressionMatch fence = fenceRe.match(line);
            if (fence.hasMatch()) {
                flush();
                const QString marker = fence.captured(1);
                QStringList code;
                for (++i; i < lines.size(); ++i) {
                    if (lines[i].trimmed().startsWith(marker))
                        break;
                    code << lines[i];
                }
                if (fence.captured(2).compare(QLatin1String("math"), Qt::CaseInsensitive) == 0)
                    insertMath(container, code);
                else
                    insertCode(container, code, fence.captured(2));
                continue;
            }
            const QRegularExpressionMatch callout = calloutRe.match(line);
            if (callout.hasMatch()) {
                flush();
                QStringList body;
                for (++i; i < lines.size(); ++i) {
                    QString l = lines[i].trimmed();
                    if (!l.startsWith(QLatin1Char('>')))
                        break;
                    l.remove(0, 1);
                    if (l.startsWith(QLatin1Char(' ')))
                        l.remove(0, 1);
                    body << l;
                }
                --i;
                insertCallout(container, callout.captured(1).toUpper(), callout.captured(2).trimmed(),
                              body.join(QLatin1Char('\n')));
                continue;
            }
            buffer << line;
        }
        flush();
    }

    /// Gives the page's Markdown tables one clean style: no double-ruled borders, a rule under the header row and
    /// a faint one under each row, padded cells.
    void styleTables(QTextFrame* frame)
    {
        for (QTextFrame* child : frame->childFrames()) {
            auto* table = qobject_cast<QTextTable*>(child);
            if (table && !isFormulaTable(table))
                styleTable(table);
            if (!isFormulaTable(table))
                styleTables(child);
        }
    }

private:
    void styleTable(QTextTable* table)
    {
        QTextTableFormat f = table->format();
        f.setBorder(0);
        f.setBorderStyle(QTextFrameFormat::BorderStyle_None);
        f.setBorderCollapse(true);
        f.setCellSpacing(0);
        f.setCellPadding(0);
        f.setTopMargin(6);
        f.setBottomMargin(10);
        table->setFormat(f);
        const QColor strong = mix(m_palette.color(QPalette::Base), m_palette.color(QPalette::Text), 0.55);
        const QColor faint = mix(m_palette.color(QPalette::Base), m_palette.color(QPalette::Text), 0.15);
        for (int r = 0; r < table->rows(); ++r)
            for (int c = 0; c < table->columns(); ++c) {
                QTextTableCell cell = table->cellAt(r, c);
                QTextTableCellFormat cf = cell.format().toTableCellFormat();
                for (auto side : {&QTextTableCellFormat::setLeftBorder, &QTextTableCellFormat::setRightBorder,
                                  &QTextTableCellFormat::setTopBorder})
                    (cf.*side)(0);
                cf.setBottomBorder(r == 0 ? 1.5 : 1);
                cf.setBottomBorderStyle(QTextFrameFormat::BorderStyle_Solid);
                cf.setBottomBorderBrush(r == 0 ? strong : faint);
                cf.setTopPadding(4);
                cf.setBottomPadding(4);
                cf.setLeftPadding(c == 0 ? 2 : 10);
                cf.setRightPadding(10);
                if (r == 0)
                    cf.setFontWeight(QFont::Bold);
                cell.setFormat(cf);
            }
    }

    void insertMath(QTextFrame* container, const QStringList& lines)
    {
        for (const QString& line : lines) {
            if (line.trimmed().isEmpty())
                continue;
            QTextCursor cursor = container->lastCursorPosition();
            insertFormula(cursor, line, m_palette);
        }
    }

    void insertCode(QTextFrame* container, const QStringList& code, const QString& language)
    {
        QTextCursor cursor = container->lastCursorPosition();
        QTextFrameFormat frameFormat;
        frameFormat.setBackground(m_colors.margin);
        frameFormat.setBorder(1);
        frameFormat.setBorderBrush(mix(m_colors.background, m_colors.text, 0.15));
        frameFormat.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        frameFormat.setPadding(8);
        frameFormat.setTopMargin(6);
        frameFormat.setBottomMargin(10);
        QTextFrame* frame = cursor.insertFrame(frameFormat);
        cursor = frame->firstCursorPosition();
        const CodeLanguage lang = codeLanguage(language);
        bool inBlock = false;
        QTextCharFormat plain;
        plain.setFont(codeFont());
        plain.setForeground(m_colors.text);
        for (qsizetype l = 0; l < code.size(); ++l) {
            if (l > 0)
                cursor.insertBlock(QTextBlockFormat(), plain);
            const QString& line = code[l];
            int pos = 0;
            for (const Token& t : tokenizeLine(line, lang, inBlock)) {
                if (t.start > pos)
                    cursor.insertText(line.mid(pos, t.start - pos), plain);
                QTextCharFormat f = plain;
                f.setForeground(colourOf(t.kind));
                if (t.kind == TokenKind::Keyword)
                    f.setFontWeight(QFont::DemiBold);
                if (t.kind == TokenKind::Comment)
                    f.setFontItalic(true);
                cursor.insertText(line.mid(t.start, t.length), f);
                pos = t.start + t.length;
            }
            if (pos < line.size())
                cursor.insertText(line.mid(pos), plain);
        }
    }

    void insertCallout(QTextFrame* container, const QString& kind, const QString& title, const QString& body)
    {
        const CalloutStyle style = calloutStyle(kind, m_palette);
        QTextCursor cursor = container->lastCursorPosition();
        QTextFrameFormat frameFormat;
        frameFormat.setBackground(mix(m_palette.color(QPalette::Base), style.colour, 0.10));
        frameFormat.setBorder(1.5);
        frameFormat.setBorderBrush(style.colour);
        frameFormat.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        frameFormat.setPadding(10);
        frameFormat.setTopMargin(8);
        frameFormat.setBottomMargin(10);
        QTextFrame* frame = cursor.insertFrame(frameFormat);
        cursor = frame->firstCursorPosition();
        QTextCharFormat label;
        label.setForeground(style.colour);
        label.setFontWeight(QFont::Bold);
        label.setFontCapitalization(QFont::AllUppercase);
        label.setFontLetterSpacing(105);
        cursor.insertText(style.label, label);
        if (!title.isEmpty() && title.compare(style.label, Qt::CaseInsensitive) != 0) {
            QTextCharFormat titleFormat;
            titleFormat.setForeground(m_palette.color(QPalette::Text));
            titleFormat.setFontWeight(QFont::Bold);
            cursor.insertText(QStringLiteral("  ·  "), label);
            cursor.insertText(title, titleFormat);
        }
        if (!body.trimmed().isEmpty()) {
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
            render(frame, body);
        }
    }

    QColor colourOf(TokenKind kind) const
    {
        switch (kind) {
        case TokenKind::Keyword:
            return m_colors.keyword;
        case TokenKind::Builtin:
            return m_colors.builtin;
        case TokenKind::Type:
            return m_colors.type;
        case TokenKind::String:
            return m_colors.string;
        case TokenKind::Comment:
            return m_colors.comment;
        case TokenKind::Number:
            return m_colors.number;
        case TokenKind::Preprocessor:
            return m_colors.preprocessor;
        case TokenKind::Plain:
            break;
        }
        return m_colors.text;
    }

    QTextDocument* m_doc;
    QPalette m_palette;
    SyntaxColors m_colors;
};

} // namespace

void renderMarkdown(QTextDocument* document, const QString& markdown, const QPalette& palette)
{
    document->clear();
    document->setDocumentMargin(16);
    Renderer renderer(document, palette);
    renderer.render(document->rootFrame(), markdown);
    renderer.styleTables(document->rootFrame());
}

MarkdownView::MarkdownView(QWidget* parent) : QTextBrowser(parent)
{
    setOpenExternalLinks(true);
    setFrameShape(QFrame::NoFrame);
}

void MarkdownView::setMarkdownText(const QString& markdown)
{
    m_markdown = markdown;
    renderMarkdown(document(), m_markdown, palette());
}

void MarkdownView::changeEvent(QEvent* event)
{
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_markdown.isEmpty())
        renderMarkdown(document(), m_markdown, palette());
}

} // namespace tkm::app
