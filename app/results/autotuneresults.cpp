#include "app/results/autotuneresults.h"

#include "app/common/format.h"
#include "app/common/theme.h"

#include <QHeaderView>
#include <QLocale>
#include <QLabel>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace tkm::app {
namespace {

QString shapeHeader(const std::map<std::string, int64_t>& shape)
{
    QStringList parts;
    for (const auto& [name, value] : shape)
        parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(name), QLocale().toString(value));
    return parts.join(QLatin1Char('\n'));
}

QString joined(const std::vector<std::string>& names)
{
    QStringList parts;
    for (const std::string& n : names)
        parts << QString::fromStdString(n);
    return parts.join(QStringLiteral(", "));
}

} // namespace

AutotuneResults::AutotuneResults(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->verticalHeader()->hide();
    m_table->setAccessibleName(tr("Autotune results"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_header);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    setReport(nullptr);
}

int AutotuneResults::winnerRow(int shape) const
{
    return m_section ? m_section->winnerForShape(shape) : -1;
}

QString AutotuneResults::summaryText() const
{
    return QTextDocumentFragment::fromHtml(m_summary->text()).toPlainText();
}

void AutotuneResults::setReport(const report::RunReport* report)
{
    m_section = report ? report->autotune : std::nullopt;
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    if (!m_section) {
        m_header->setText(tr("No autotuning in this run. In an exercise with an autotune table, check \"Autotune on "
                             "Run\" and list configurations; Run then checks and times each of them."));
        m_summary->clear();
        return;
    }
    const report::AutotuneInfo& at = *m_section;
    m_header->setText(tr("%1 configurations, each case launched %2× on the same buffers; key (%3); reset_to_zero: %4.")
                          .arg(at.configs.size())
                          .arg(at.launchesPerCheck)
                          .arg(joined(at.key), at.resetToZero.empty() ? tr("none declared") : joined(at.resetToZero)));
    fillTable(at);
    m_summary->setText(summaryHtml(at));
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
}

void AutotuneResults::fillTable(const report::AutotuneInfo& at)
{
    QStringList headers{tr("Configuration"), tr("Check")};
    for (const auto& shape : at.shapes)
        headers << shapeHeader(shape);
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(at.configs.size()));
    const QPalette pal = palette();
    for (int row = 0; row < static_cast<int>(at.configs.size()); ++row) {
        const report::AutotuneConfigInfo& c = at.configs[row];
        m_table->setItem(row, 0, new QTableWidgetItem(formatSizes(c.meta)));
        auto* check = new QTableWidgetItem(verdictTitle(c.verdict));
        check->setForeground(verdictColor(c.verdict, pal));
        check->setToolTip(QString::fromStdString(c.summary));
        m_table->setItem(row, 1, check);
        for (int s = 0; s < static_cast<int>(at.shapes.size()); ++s)
            m_table->setItem(row, 2 + s,
                             new QTableWidgetItem(c.verdict == report::ConfigVerdict::Pass ? tr("—") : tr("not timed")));
    }
    for (const report::AutotuneSampleInfo& sample : at.samples) {
        QTableWidgetItem* item = m_table->item(sample.config, 2 + sample.shape);
        if (!item)
            continue;
        if (sample.medianMs) {
            item->setText(formatMs(*sample.medianMs));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!sample.settled)
                item->setToolTip(tr("The spread of the samples did not settle within the time budget."));
        } else {
            item->setText(tr("error"));
            item->setToolTip(QString::fromStdString(sample.error));
        }
    }
    markWinners(at);
}

void AutotuneResults::markWinners(const report::AutotuneInfo& at)
{
    QColor win = toneColor(Tone::Good, palette());
    win.setAlpha(60);
    for (const report::AutotuneWinnerInfo& w : at.winners) {
        for (int s : w.shapes) {
            QTableWidgetItem* item = m_table->item(w.config, 2 + s);
            if (!item)
                continue;
            item->setText(QStringLiteral("★ %1  (%2×)").arg(item->text()).arg(w.speedupOverSlowest, 0, 'f', 2));
            item->setBackground(win);
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
            item->setToolTip(tr("Fastest on this shape: %1× faster than the slowest configuration.")
                                 .arg(w.speedupOverSlowest, 0, 'f', 2));
        }
    }
}

QString AutotuneResults::summaryHtml(const report::AutotuneInfo& at) const
{
    QStringList lines;
    for (const report::AutotuneWinnerInfo& w : at.winners) {
        const bool known = w.config >= 0 && w.config < static_cast<int>(at.configs.size());
        lines << tr("<b>%1</b>: %2 — %3, %4× faster than the slowest")
                     .arg(formatSizes(w.key).toHtmlEscaped(),
                          known ? formatSizes(at.configs[w.config].meta).toHtmlEscaped() : QString(),
                          formatMs(w.medianMs))
                     .arg(w.speedupOverSlowest, 0, 'f', 2);
    }
    if (!lines.isEmpty())
        lines.prepend(tr("Winner per key:"));
    if (!at.note.empty())
        lines << QString::fromStdString(at.note).toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

} // namespace tkm::app
