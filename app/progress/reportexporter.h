#pragma once
// The progress report a learner hands to a mentor or a hiring manager: HTML (one self-contained file, charts
// embedded as PNG) and PDF (Qt's PDF writer through QTextDocument, A4 or Letter) of the same content —
// learner, dates, device, per-module completion and scores, charts, exercises with their best runs against the
// solution, and the weak topics.

#include "app/progress/reportdata.h"

#include <QImage>
#include <QList>
#include <QPageSize>
#include <QString>
#include <QTextDocument>

#include <memory>

namespace tkm::app {

/// Writes a ReportData as HTML or PDF.
class ReportExporter
{
public:
    /// Keeps a copy of the data; the charts are drawn once here.
    explicit ReportExporter(ReportData data);

    /// The report as HTML. With `embedImages` the charts are data: URLs (a self-contained file); without, they are
    /// `chart:` URLs resolved by document() (for QTextDocument).
    QString html(bool embedImages) const;
    /// A QTextDocument of the report with the charts as image resources (for PDF and print preview).
    std::unique_ptr<QTextDocument> document() const;
    /// Writes the HTML file; on failure returns false and sets `error` to a sentence.
    bool writeHtml(const QString& path, QString* error = nullptr) const;
    /// Writes the PDF on `page` (QPageSize::A4 or QPageSize::Letter); on failure returns false and sets `error`.
    bool writePdf(const QString& path, QPageSize::PageSizeId page, QString* error = nullptr) const;
    /// Writes PDF for a path ending in .pdf, HTML for .html / .htm; anything else is refused with a sentence.
    bool write(const QString& path, QPageSize::PageSizeId page, QString* error = nullptr) const;

    const ReportData& data() const { return m_data; } ///< what is reported

private:
    ReportData m_data;
    QImage m_scores;
    QList<QImage> m_exerciseCharts; // parallel to m_data.exercises (null images for exercises without a pass)
};

/// Writes what the suffix of `path` names: the report as .pdf (on `page`) or .html / .htm, or the raw records as
/// .csv or .json (modules/progress/export.h; the JSON includes every run's source and report). On failure returns
/// false and sets `error` to a sentence (an unknown suffix names the four that work).
bool exportProgressFile(const progress::Store& store, const std::vector<progress::ModuleOutline>& course,
                        const QString& learnerName, const QString& path, QPageSize::PageSizeId page,
                        QString* error = nullptr);

/// Options of `tkm --export-report FILE`.
struct ExportReportCommand
{
    QString file;                               ///< .pdf, .html, .csv or .json output
    QString databasePath;                       ///< progress database to read
    QString learnerName;                        ///< shown on the report
    QPageSize::PageSizeId page = QPageSize::A4; ///< PDF page size
};

/// Runs `tkm --export-report`: opens the store (a missing database is an error, never created; an older schema is
/// migrated as the app would), gathers the course's progress and writes the file (exportProgressFile). Prints one sentence to stderr on
/// failure and returns the process exit code (0 on success, 1 on failure).
int runExportReportCommand(const ExportReportCommand& command, const std::vector<progress::ModuleOutline>& course);

/// Parses "a4" / "letter" (any case); nullopt for anything else.
std::optional<QPageSize::PageSizeId> parsePageSize(const QString& name);

} // namespace tkm::app
