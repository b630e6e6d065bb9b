#include "app/progress/dashboardwidget.h"

#include "app/common/format.h"
#include "app/common/theme.h"
#include "app/progress/reportcharts.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

namespace tkm::app {
namespace {

enum Role { ModuleRole = Qt::UserRole, ActivityRole, QuestionRole };

QString dash()
{
    return QStringLiteral("—");
}
QString optPercent(const std::optional<double>& f)
{
    return f ? formatFraction(*f) : dash();
}

QTreeWidget* makeTable(const QStringList& headers, QWidget* parent)
{
    auto* t = new QTreeWidget(parent);
    t->setHeaderLabels(headers);
    t->setRootIsDecorated(false);
    t->setUniformRowHeights(true);
    t->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return t;
}

// The tables sit one below the other in a scroll area: each gets the height of its rows, not a fixed box with
// empty space under a short table and a scroll bar inside a long one.
void fitHeight(QTreeWidget* t)
{
    int rows = 0;
    for (QTreeWidgetItemIterator it(t); *it; ++it)
        ++rows;
    const int row = t->topLevelItemCount() > 0 ? t->visualItemRect(t->topLevelItem(0)).height() : 0;
    const int rowHeight = row > 0 ? row : t->fontMetrics().height() + 4;
    t->setFixedHeight(t->header()->sizeHint().height() + rows * rowHeight + 2 * t->frameWidth() + 2);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* l = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()), parent);
    return l;
}

} // namespace

DashboardWidget::DashboardWidget(QWidget* parent) : QWidget(parent)
{
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    m_continue = makePrimaryButton(QStringLiteral("continueButton"), content);
    m_continue->hide();
    connect(m_continue, &QPushButton::clicked, this,
            [this] { emit activityRequested(m_continueModule, m_continueActivity, {}); });
    auto* continueRow = new QHBoxLayout;
    continueRow->addWidget(m_continue);
    continueRow->addStretch(1);
    layout->addLayout(continueRow);
    auto* top = new QHBoxLayout;
    m_totals = new QLabel(content);
    m_totals->setWordWrap(true);
    auto* exportButton = new QPushButton(tr("Export report…"), content);
    connect(exportButton, &QPushButton::clicked, this, &DashboardWidget::exportRequested);
    top->addWidget(m_totals, 1);
    top->addWidget(exportButton);
    layout->addLayout(top);
    m_error = new QLabel(content);
    m_error->setWordWrap(true);
    m_error->hide();
    layout->addWidget(m_error);

    layout->addWidget(heading(tr("Modules"), content));
    m_modules =
        makeTable({tr("Module"), tr("Completion"), tr("Quiz accuracy"), tr("Exercises passed"), tr("Time")}, content);
    layout->addWidget(m_modules);
    m_chart = new QLabel(content);
    m_chart->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_chart);

    layout->addWidget(heading(tr("Exercises: best runs"), content));
    m_exercises = makeTable({tr("Exercise"), tr("Runs"), tr("Best time"), tr("% of ceiling"), tr("DRAM efficiency"),
                             tr("Solution"), tr("vs solution")},
                            content);
    layout->addWidget(m_exercises);

    layout->addWidget(heading(tr("Review"), content));
    m_review = new QTreeWidget(content);
    m_review->setHeaderLabels({tr("Activity"), tr("Why"), tr("Misses")});
    m_review->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_review, &QTreeWidget::itemActivated, this, &DashboardWidget::onItemActivated);
    layout->addWidget(m_review);
    layout->addStretch(1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

bool DashboardWidget::refresh(const progress::Store& store, const std::vector<progress::ModuleOutline>& course,
                              const QString& learnerName, const QMap<QString, SolutionFigures>& solutions)
{
    auto data = collectReportData(store, course, learnerName, solutions);
    if (!data) {
        m_error->setText(QString::fromStdString(data.error().message));
        m_error->show();
        return false;
    }
    m_error->hide();
    setData(*data);
    return true;
}

void DashboardWidget::setData(const ReportData& data)
{
    m_totals->setText(tr("%1 of %2 modules complete · %3 of %4 exercises passed · quiz accuracy %5 · %6 spent")
                          .arg(data.modulesComplete())
                          .arg(data.modules.size())
                          .arg(data.exercisesPassed())
                          .arg(data.exercises.size())
                          .arg(optPercent(data.quizAccuracy()), formatDuration(data.secondsSpent)));

    m_modules->clear();
    for (const auto& m : data.modules) {
        auto* item = new QTreeWidgetItem(m_modules);
        item->setText(0, QString::fromStdString(m.title));
        item->setText(
            1, QStringLiteral("%1 (%2/%3)").arg(formatFraction(m.fraction())).arg(m.itemsDone).arg(m.itemsTotal));
        item->setText(2, optPercent(m.quizAccuracy()));
        item->setText(3, QStringLiteral("%1/%2").arg(m.exercisesPassed).arg(m.exercisesTotal));
        item->setText(4, formatDuration(m.secondsSpent));
        item->setData(0, ModuleRole, QString::fromStdString(m.moduleId));
    }
    m_chart->setPixmap(QPixmap::fromImage(renderScoresChart(data).scaledToWidth(600, Qt::SmoothTransformation)));

    m_exercises->clear();
    for (const ExerciseRow& e : data.exercises) {
        auto* item = new QTreeWidgetItem(m_exercises);
        const auto& b = e.best;
        item->setText(0, e.title);
        item->setText(1, QString::number(e.runs));
        item->setText(2, b && b->medianMs ? formatMs(*b->medianMs) : (e.runs ? tr("not passed") : dash()));
        item->setText(3, b ? optPercent(b->ceilingFraction()) : dash());
        item->setText(4, b ? optPercent(b->dramEfficiency()) : dash());
        item->setText(5, e.solution ? formatMs(e.solution->medianMs) : dash());
        item->setText(6, b && b->medianMs && e.solution && e.solution->medianMs > 0
                             ? QStringLiteral("%1×").arg(*b->medianMs / e.solution->medianMs, 0, 'f', 2)
                             : dash());
        item->setData(0, ModuleRole, e.moduleId);
        item->setData(0, ActivityRole, e.activityId);
    }

    m_review->clear();
    for (const auto& m : data.review) {
        auto* group = new QTreeWidgetItem(m_review);
        group->setText(0, QString::fromStdString(m.title));
        group->setText(2, QString::number(m.items.size()));
        for (const auto& r : m.items) {
            auto* item = new QTreeWidgetItem(group);
            QString text = QString::fromStdString(r.activityTitle);
            if (!r.questionId.empty())
                text += QStringLiteral(" — ") + tr("question %1").arg(r.questionNumber);
            item->setText(0, text);
            item->setText(1, QString::fromUtf8(progress::reviewReasonLabel(r.reason)));
            item->setText(2, QString::number(r.misses));
            item->setData(0, ModuleRole, QString::fromStdString(m.moduleId));
            item->setData(0, ActivityRole, QString::fromStdString(r.activityId));
            item->setData(0, QuestionRole, QString::fromStdString(r.questionId));
        }
    }
    m_review->expandAll();
    if (data.review.empty()) {
        auto* none = new QTreeWidgetItem(m_review);
        none->setText(0, tr("Nothing to review."));
        none->setFlags(Qt::ItemIsEnabled);
    }
    for (QTreeWidget* t : {m_modules, m_exercises, m_review})
        fitHeight(t);
}

void DashboardWidget::setContinue(const QString& title, const QString& moduleId, const QString& activityId)
{
    m_continueModule = moduleId;
    m_continueActivity = activityId;
    m_continue->setText(tr("Continue where you left off: %1 →").arg(title));
    m_continue->setVisible(!title.isEmpty());
}

void DashboardWidget::onItemActivated(QTreeWidgetItem* item)
{
    const QString activity = item->data(0, ActivityRole).toString();
    if (activity.isEmpty())
        return; // a module heading
    emit activityRequested(item->data(0, ModuleRole).toString(), activity, item->data(0, QuestionRole).toString());
}

} // namespace tkm::app
