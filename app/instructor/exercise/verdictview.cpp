#include "app/instructor/exercise/verdictview.h"

#include "app/common/theme.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace tkm::app {

namespace {

enum Role { kPointer = Qt::UserRole, kFile, kLine, kColumn };

QString roleLabel(const QJsonObject& row)
{
    const QString role = row.value(QStringLiteral("role")).toString();
    if (role == QLatin1String("solution"))
        return QObject::tr("Solution");
    if (role == QLatin1String("starter"))
        return QObject::tr("Starter");
    if (role == QLatin1String("reference"))
        return QObject::tr("Reference");
    return QObject::tr("Bug");
}

} // namespace

VerdictView::VerdictView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status =
        new QLabel(tr("Press Validate to compile every source and, with an NVIDIA GPU, run the verdict table."), this);
    m_status->setWordWrap(true);
    m_table = new QTableWidget(0, 5, this);
    m_table->setHorizontalHeaderLabels({tr("Source"), tr("Compiles"), tr("Expected"), tr("Got"), tr("Result")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_messages = new QListWidget(this);
    m_messages->setWordWrap(true);
    m_messages->setAlternatingRowColors(true);
    connect(m_messages, &QListWidget::itemClicked, this, &VerdictView::onItemActivated);
    connect(m_messages, &QListWidget::itemActivated, this, &VerdictView::onItemActivated);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    layout->addWidget(m_status);
    layout->addWidget(m_table);
    layout->addWidget(m_messages, 1);
    fitTable();
}

QString VerdictView::statusText() const
{
    return m_status->text();
}

void VerdictView::setRunning(const QString& progress)
{
    m_status->setText(tr("Validating… %1").arg(progress));
}

void VerdictView::setFailure(const QString& message)
{
    m_status->setText(message);
    m_table->setRowCount(0);
    m_messages->clear();
    fitTable();
}

void VerdictView::setResult(const QJsonObject& document)
{
    m_table->setRowCount(0);
    m_messages->clear();
    const QJsonObject gpu = document.value(QStringLiteral("gpu")).toObject();
    const QJsonArray exercises = document.value(QStringLiteral("exercises")).toArray();
    const QJsonObject ex = exercises.isEmpty() ? QJsonObject() : exercises.first().toObject();
    const bool ran = ex.value(QStringLiteral("gpu_ran")).toBool();
    const QColor good = toneColor(Tone::Good, palette());
    const QColor bad = toneColor(Tone::Wrong, palette());

    if (const QJsonObject err = ex.value(QStringLiteral("spec_error")).toObject(); !err.isEmpty()) {
        const QString pointer = err.value(QStringLiteral("pointer")).toString();
        addMessage(QStringLiteral("error"),
                   pointer + QStringLiteral(": ") + err.value(QStringLiteral("message")).toString(), pointer);
    }
    int failures = 0;
    const QJsonArray sources = ex.value(QStringLiteral("sources")).toArray();
    for (const QJsonValue& v : sources) {
        const QJsonObject row = v.toObject();
        const QJsonObject compile = row.value(QStringLiteral("compile")).toObject();
        const QString file = row.value(QStringLiteral("file")).toString();
        const QString pointer = row.value(QStringLiteral("pointer")).toString();
        const bool ok = row.value(QStringLiteral("ok")).toBool();
        const bool rowRan = row.value(QStringLiteral("ran")).toBool();
        failures += ok ? 0 : 1;
        QString compiles = tr("not compiled");
        if (compile.value(QStringLiteral("ran")).toBool()) {
            const bool compiled = compile.value(QStringLiteral("ok")).toBool();
            compiles = compiled ? tr("yes") : tr("no");
            if (!compile.value(QStringLiteral("expected")).toBool())
                compiles += tr(" (declared compile_error)");
        }
        QString expected = row.value(QStringLiteral("expected")).toString();
        QString got = row.value(QStringLiteral("got")).toString();
        QString result;
        if (!ok)
            result = tr("FAIL");
        else if (rowRan || !got.isEmpty())
            result = tr("ok");
        else if (row.value(QStringLiteral("role")).toString() == QLatin1String("reference"))
            result = tr("ok (the judge: compiled only)");
        else
            result = ran ? tr("ok") : tr("compiles; GPU verdict not run");
        if (row.value(QStringLiteral("role")).toString() == QLatin1String("reference"))
            expected = tr("(judge)");
        if (got.isEmpty())
            got = QStringLiteral("—");
        if (row.contains(QStringLiteral("max_abs_error")) &&
            row.value(QStringLiteral("role")).toString() == QLatin1String("solution"))
            got += tr("  (max error %1)").arg(row.value(QStringLiteral("max_abs_error")).toDouble(), 0, 'g', 2);
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        const QString title = row.value(QStringLiteral("title")).toString();
        const QStringList cells{roleLabel(row) + QStringLiteral("  ") + file, compiles, expected, got, result};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setData(kPointer, pointer);
            item->setToolTip(title.isEmpty() ? cells[c] : title);
            if (c == 4) {
                item->setForeground(ok ? good : bad);
                QFont bold = item->font();
                bold.setBold(!ok);
                item->setFont(bold);
            }
            if (c == 1 && compile.value(QStringLiteral("ran")).toBool() &&
                compile.value(QStringLiteral("ok")).toBool() != compile.value(QStringLiteral("expected")).toBool())
                item->setForeground(bad);
            m_table->setItem(r, c, item);
        }
        const QString compileProblem = compile.value(QStringLiteral("problem")).toString();
        if (!compileProblem.isEmpty()) {
            bool located = false;
            for (const QJsonValue& d : compile.value(QStringLiteral("diagnostics")).toArray()) {
                const QJsonObject diag = d.toObject();
                if (diag.value(QStringLiteral("severity")).toString() != QLatin1String("error"))
                    continue;
                const int line = diag.value(QStringLiteral("line")).toInt();
                addMessage(QStringLiteral("error"),
                           tr("%1:%2: %3").arg(file).arg(line).arg(diag.value(QStringLiteral("message")).toString()),
                           pointer, file, line, diag.value(QStringLiteral("column")).toInt());
                located = true;
            }
            if (!located)
                addMessage(QStringLiteral("error"), file + QStringLiteral(": ") + compileProblem, pointer, file);
        }
        const QString runProblem = row.value(QStringLiteral("problem")).toString();
        if (!runProblem.isEmpty()) {
            // Expected and got say what differs; the run's own summary says what happened.
            const QString summary = row.value(QStringLiteral("summary")).toString();
            addMessage(QStringLiteral("error"),
                       tr("%1 on the GPU: expected %2, got %3").arg(file, expected, got) +
                           (summary.isEmpty() ? QString() : QStringLiteral(" — ") + summary),
                       pointer.endsWith(QLatin1String("/file")) ? pointer.chopped(5) : pointer, file);
        }
    }
    for (const QJsonValue& v : ex.value(QStringLiteral("warnings")).toArray()) {
        const QJsonObject w = v.toObject();
        const QString pointer = w.value(QStringLiteral("pointer")).toString();
        addMessage(QStringLiteral("warning"),
                   pointer + QStringLiteral(": ") + w.value(QStringLiteral("message")).toString(), pointer);
    }
    QString status;
    // The worker's reason is itself a sentence about the GPU: keep it out of this one, in the tooltip.
    m_status->setToolTip(ran ? QString() : gpu.value(QStringLiteral("reason")).toString());
    if (ran)
        status = tr("GPU verdicts on %1: ").arg(gpu.value(QStringLiteral("device")).toString());
    else
        status = tr("No NVIDIA GPU, so no GPU verdicts; shown: compile results and warnings. ");
    const int warnings = ex.value(QStringLiteral("warnings")).toArray().size();
    status += failures == 0 ? tr("every row as expected") : tr("%n row(s) not as expected", nullptr, failures);
    status += tr(", %n warning(s).", nullptr, warnings);
    m_status->setText(status);
    m_table->resizeColumnsToContents();
    fitTable();
}

void VerdictView::fitTable()
{
    // As tall as its rows: the messages below get the rest.
    m_table->resizeRowsToContents();
    int height = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_table->rowCount(); ++r)
        height += m_table->rowHeight(r);
    m_table->setFixedHeight(std::max(height, m_table->horizontalHeader()->height() * 3));
}

void VerdictView::addMessage(const QString& severity, const QString& text, const QString& pointer, const QString& file,
                             int line, int column)
{
    const bool error = severity == QLatin1String("error");
    auto* item = new QListWidgetItem(
        style()->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning), text);
    item->setData(kPointer, pointer);
    item->setData(kFile, file);
    item->setData(kLine, line);
    item->setData(kColumn, column);
    item->setToolTip(error ? tr("Error: click to go to %1").arg(line > 0 ? file : pointer)
                           : tr("Warning: click to go to %1").arg(pointer));
    // Errors come first: setResult adds them before the warnings.
    m_messages->addItem(item);
}

void VerdictView::onItemActivated(QListWidgetItem* item)
{
    if (!item)
        return;
    const QString file = item->data(kFile).toString();
    const int line = item->data(kLine).toInt();
    if (!file.isEmpty() && line > 0)
        emit sourceActivated(file, line, item->data(kColumn).toInt());
    else
        emit pointerActivated(item->data(kPointer).toString());
}

} // namespace tkm::app
