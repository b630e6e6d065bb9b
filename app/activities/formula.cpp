#include "app/activities/formula.h"

#include <QFont>
#include <QStringList>
#include <QTextCursor>
#include <QTextTable>

#include <algorithm>

namespace tkm::app {

namespace {

constexpr int kFormulaProperty = QTextFormat::UserProperty + 71; // marks the tables that lay out formulas

// Words set upright: functions and operator names.
bool isFunctionName(const QString& word)
{
    static const QStringList names{QStringLiteral("exp"),     QStringLiteral("log"),  QStringLiteral("max"),
                                   QStringLiteral("min"),     QStringLiteral("sum"),  QStringLiteral("softmax"),
                                   QStringLiteral("logsumexp"), QStringLiteral("with"), QStringLiteral("for"),
                                   QStringLiteral("sqrt"),    QStringLiteral("tanh"), QStringLiteral("and")};
    return names.contains(word) || word.size() > 1;
}

bool isBigOperator(QChar c)
{
    return c == QChar(0x03A3) || c == QChar(0x03A0) || c == QChar(0x2211) || c == QChar(0x220F); // Σ Π ∑ ∏
}

// Splits at `separator` outside brackets; parts are trimmed.
QStringList splitTopLevel(const QString& text, const QString& separator)
{
    QStringList parts;
    int depth = 0, start = 0;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        depth += (c == QLatin1Char('(') || c == QLatin1Char('{') || c == QLatin1Char('[')) ? 1 : 0;
        depth -= (c == QLatin1Char(')') || c == QLatin1Char('}') || c == QLatin1Char(']')) ? 1 : 0;
        if (depth == 0 && text.mid(i, separator.size()) == separator) {
            parts << text.mid(start, i - start).trimmed();
            start = i + static_cast<int>(separator.size());
            i = start - 1;
        }
    }
    parts << text.mid(start).trimmed();
    return parts;
}

class Typesetter
{
public:
    explicit Typesetter(const QPalette& palette)
    {
        m_base.setFontFamilies({QStringLiteral("STIX Two Math"), QStringLiteral("Cambria Math"),
                                QStringLiteral("DejaVu Serif"), QStringLiteral("Times New Roman"),
                                QStringLiteral("serif")});
        m_base.setFontStyleHint(QFont::Serif);
        m_base.setFontPointSize(QFont().pointSizeF() * 1.2);
        m_base.setForeground(palette.color(QPalette::Text));
    }

    // One run of text with variables italic, names upright, _x and ^x raised or lowered.
    void run(QTextCursor& cursor, const QString& text) const
    {
        for (int i = 0; i < text.size();) {
            const QChar c = text[i];
            if ((c == QLatin1Char('_') || c == QLatin1Char('^')) && i + 1 < text.size()) {
                const int end = scriptEnd(text, i + 1);
                QString script = text.mid(i + 1, end - i - 1);
                // x^(−c) and x_{ij}: the brackets only group, as in TeX.
                if ((script.startsWith(QLatin1Char('{')) && script.endsWith(QLatin1Char('}'))) ||
                    (script.startsWith(QLatin1Char('(')) && script.endsWith(QLatin1Char(')'))))
                    script = script.mid(1, script.size() - 2);
                QTextCharFormat f = m_base;
                f.setVerticalAlignment(c == QLatin1Char('_') ? QTextCharFormat::AlignSubScript
                                                             : QTextCharFormat::AlignSuperScript);
                runWith(cursor, script, f);
                i = end;
                continue;
            }
            if (c.isLetter() && c.script() != QChar::Script_Greek && !isSubscriptLetter(c)) {
                int end = i;
                while (end < text.size() && text[end].isLetter() && text[end].script() != QChar::Script_Greek &&
                       !isSubscriptLetter(text[end]))
                    ++end;
                const QString word = text.mid(i, end - i);
                QTextCharFormat f = m_base;
                f.setFontItalic(!isFunctionName(word));
                cursor.insertText(word, f);
                i = end;
                continue;
            }
            QTextCharFormat f = m_base;
            if (isBigOperator(c))
                f.setFontPointSize(m_base.fontPointSize() * 1.35);
            else if (c.script() == QChar::Script_Greek)
                f.setFontItalic(true);
            cursor.insertText(QString(c), f);
            ++i;
        }
    }

    const QTextCharFormat& base() const { return m_base; }

private:
    static bool isSubscriptLetter(QChar c)
    {
        // ⱼ, ᵢ, ₖ … are already sub- or superscripts: set them as they are.
        return c.decompositionTag() == QChar::Sub || c.decompositionTag() == QChar::Super;
    }

    // Where a script after _ or ^ ends: a bracketed group, else one run of letters and digits.
    static int scriptEnd(const QString& text, int from)
    {
        const QChar open = text[from];
        if (open == QLatin1Char('(') || open == QLatin1Char('{')) {
            const QChar close = open == QLatin1Char('(') ? QLatin1Char(')') : QLatin1Char('}');
            int depth = 0;
            for (int i = from; i < text.size(); ++i) {
                depth += text[i] == open ? 1 : (text[i] == close ? -1 : 0);
                if (depth == 0)
                    return i + 1;
            }
            return static_cast<int>(text.size());
        }
        int i = from;
        while (i < text.size() && (text[i].isLetterOrNumber() || text[i] == QChar(0x2212) || text[i] == QLatin1Char('-')) &&
               (i == from || text[i].isLetterOrNumber()))
            ++i;
        return std::max(i, from + 1);
    }

    void runWith(QTextCursor& cursor, const QString& text, const QTextCharFormat& format) const
    {
        for (int i = 0; i < text.size(); ++i) {
            QTextCharFormat f = format;
            const QChar c = text[i];
            f.setFontItalic(c.isLetter() && (i + 1 >= text.size() || !text[i + 1].isLetter()) &&
                            (i == 0 || !text[i - 1].isLetter()));
            cursor.insertText(QString(c), f);
        }
    }

    QTextCharFormat m_base;
};

QTextTableFormat plainTable()
{
    QTextTableFormat t;
    t.setProperty(kFormulaProperty, true);
    t.setBorder(0);
    t.setCellPadding(0);
    t.setCellSpacing(0);
    t.setAlignment(Qt::AlignHCenter);
    return t;
}

// A stacked fraction: numerator over a rule over the denominator, both centred.
void insertFraction(QTextCursor& cursor, const QString& top, const QString& bottom, const Typesetter& type,
                    const QColor& rule)
{
    QTextTable* table = cursor.insertTable(2, 1, plainTable());
    QTextTableCellFormat over;
    over.setBottomBorder(1);
    over.setBottomBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    over.setBottomBorderBrush(rule);
    over.setBottomPadding(2);
    over.setLeftPadding(4);
    over.setRightPadding(4);
    table->cellAt(0, 0).setFormat(over);
    QTextTableCellFormat under;
    under.setTopPadding(2);
    under.setLeftPadding(4);
    under.setRightPadding(4);
    table->cellAt(1, 0).setFormat(under);
    for (int row = 0; row < 2; ++row) {
        QTextCursor c = table->cellAt(row, 0).firstCursorPosition();
        QTextBlockFormat centred;
        centred.setAlignment(Qt::AlignHCenter);
        c.setBlockFormat(centred);
        type.run(c, row == 0 ? top : bottom);
    }
}

} // namespace

bool isFormulaTable(const QTextTable* table)
{
    return table && table->format().boolProperty(kFormulaProperty);
}

void insertFormula(QTextCursor& cursor, const QString& formula, const QPalette& palette)
{
    const Typesetter type(palette);
    // Segments joined by "=", each a plain run or a fraction, side by side in one table row, vertically centred.
    const QStringList segments = splitTopLevel(formula.trimmed(), QStringLiteral(" = "));
    QTextTableFormat row = plainTable();
    row.setTopMargin(6);
    row.setBottomMargin(8);
    QTextTable* table = cursor.insertTable(1, static_cast<int>(segments.size() * 2 - 1), row);
    for (int s = 0; s < segments.size(); ++s) {
        for (int part = 0; part < (s == 0 ? 1 : 2); ++part) {
            const int column = s == 0 ? 0 : 2 * s - 1 + part;
            QTextTableCell cell = table->cellAt(0, column);
            QTextTableCellFormat f;
            f.setVerticalAlignment(QTextCharFormat::AlignMiddle);
            cell.setFormat(f);
            QTextCursor c = cell.firstCursorPosition();
            if (s > 0 && part == 0) {
                c.insertText(QStringLiteral(" = "), type.base());
                continue;
            }
            const QStringList fraction = splitTopLevel(segments[s], QStringLiteral(" / "));
            if (fraction.size() == 2)
                insertFraction(c, fraction[0], fraction[1], type, palette.color(QPalette::Text));
            else
                type.run(c, segments[s]);
        }
    }
    cursor = table->lastCursorPosition();
    cursor.movePosition(QTextCursor::NextBlock);
}

} // namespace tkm::app
