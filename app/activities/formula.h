#pragma once
// Display formulas of course Markdown (a ```math fence, one formula a line, written in Unicode maths:
// "o = Σⱼ exp(sⱼ − m) · vⱼ / Σⱼ exp(sⱼ − m)"), typeset with Qt's rich text: a serif face, italic variables,
// upright function names and digits, x_i and x^(−c) as sub- and superscripts, and a top-level " / " drawn as a
// stacked fraction with a rule. No TeX tool is needed; what the parser does not know stays as written.

#include <QPalette>
#include <QString>

class QTextCursor;
class QTextTable;

namespace tkm::app {

/// Inserts `formula` as a centred display formula at `cursor` (which ends after it), coloured for `palette`.
void insertFormula(QTextCursor& cursor, const QString& formula, const QPalette& palette);
/// Whether `table` is one insertFormula laid out (and not a table of the page).
bool isFormulaTable(const QTextTable* table);

} // namespace tkm::app
