#pragma once
// The progress dashboard: per module completion, quiz accuracy, exercises passed and time; each exercise's best
// kernel figures against the solution; totals; the scores chart; and the review list, whose entries open the
// activity they name.

#include "app/progress/reportdata.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace tkm::app {

/// Shows a ReportData; refresh() gathers one from the store.
class DashboardWidget : public QWidget
{
    Q_OBJECT
public:
    explicit DashboardWidget(QWidget* parent = nullptr);

    /// Re-reads the store; on an error shows its sentence instead of the tables and returns false.
    bool refresh(const progress::Store& store, const std::vector<progress::ModuleOutline>& course,
                 const QString& learnerName = {}, const QMap<QString, SolutionFigures>& solutions = {});
    /// Shows already gathered data.
    void setData(const ReportData& data);
    /// The "Continue where you left off" button: opens this activity; hidden when `title` is empty.
    void setContinue(const QString& title, const QString& moduleId, const QString& activityId);
    /// That button (for tests).
    QPushButton* continueButton() const { return m_continue; }

    QTreeWidget* modulesTable() const { return m_modules; }     ///< one row per module (for tests)
    QTreeWidget* exercisesTable() const { return m_exercises; } ///< one row per exercise (for tests)
    QTreeWidget* reviewTree() const { return m_review; }        ///< modules with their review items (for tests)
    QLabel* totalsLabel() const { return m_totals; }            ///< the totals line (for tests)

signals:
    /// The learner activated a review item: open this activity (and scroll to the question when not empty).
    void activityRequested(const QString& moduleId, const QString& activityId, const QString& questionId);
    /// The learner asked for the exported report.
    void exportRequested();

private:
    void onItemActivated(QTreeWidgetItem* item);

    QLabel* m_totals = nullptr;
    QPushButton* m_continue = nullptr;
    QString m_continueModule;
    QString m_continueActivity;
    QLabel* m_error = nullptr;
    QLabel* m_chart = nullptr;
    QTreeWidget* m_modules = nullptr;
    QTreeWidget* m_exercises = nullptr;
    QTreeWidget* m_review = nullptr;
};

} // namespace tkm::app
