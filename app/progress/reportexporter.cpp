#include "app/progress/reportexporter.h"

#include "app/common/format.h"
#include "app/progress/reportcharts.h"

#include "modules/progress/export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPdfWriter>
#include <QSaveFile>
#include <QScreen>
#include <QTextStream>
#include <QUrl>

#include <cstdio>

namespace tkm::app {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tkm::app::ReportExporter", text);
}
QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}
QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}
QString dash()
{
    return QStringLiteral("—");
}

QString dateText(const QDateTime& utc)
{
    return utc.isValid() ? utc.toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC") : dash();
}

QString optPercent(const std::optional<double>& fraction)
{
    return fraction ? formatFraction(*fraction) : dash();
}

QString pngDataUrl(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(bytes.toBase64());
}

QString chartUrl(int index)
{
    return QStringLiteral("chart:%1").arg(index);
} // -1: scores chart

QString verdictText(std::optional<report::Verdict> verdict)
{
    return verdict ? verdictTitle(*verdict) : dash();
}

/// "1.32× slower" / "0.95× (faster)" against the solution's time.
QString versusSolution(const ExerciseRow& e)
{
    if (!e.best || !e.best->medianMs || !e.solution || e.solution->medianMs <= 0.0)
        return dash();
    const double ratio = *e.best->medianMs / e.solution->medianMs;
    return QStringLiteral("%1×").arg(ratio, 0, 'f', 2);
}

/// The track of the best run ("Triton" / "CUDA"), else every track the runs used, newest first; "—" without runs.
QString exerciseTrack(const ExerciseRow& e)
{
    if (e.best)
        return e.best->track == "triton" ? QStringLiteral("Triton") : QStringLiteral("CUDA");
    return e.tracks.isEmpty() ? dash() : e.tracks.join(QStringLiteral(", "));
}

const char* kStyle =
    "body{font-family:sans-serif;font-size:9pt;color:#111}"
    "h1{font-size:18pt;margin-bottom:4px}h2{font-size:13pt;margin-top:18px;border-bottom:1px solid "
    "#888}table{border-collapse:collapse}th{background:#e8eef6;text-align:left}"
    "td,th{border:1px solid #aaa;padding:2px 4px;font-size:8pt}td.n{text-align:right;white-space:nowrap}"
    "td.t{white-space:nowrap}.muted{color:#555}";
// Title column of the module and exercise tables: wraps, so the figure columns keep their headers on one line.
const char* kTitleHeader = "<th width=\"30%\">";

} // namespace

ReportExporter::ReportExporter(ReportData data) : m_data(std::move(data))
{
    m_scores = renderScoresChart(m_data);
    for (const ExerciseRow& e : m_data.exercises)
        m_exerciseCharts.append(renderExerciseChart(e));
}

QString ReportExporter::html(bool embedImages) const
{
    // The PDF page is laid out about 680 units wide (180 mm at 96 units per inch); a browser window is wider.
    const int imageWidth = embedImages ? 800 : 640;
    const auto src = [&](int index) {
        if (!embedImages)
            return chartUrl(index);
        return pngDataUrl(index < 0 ? m_scores : m_exerciseCharts[index]);
    };
    const ReportData& d = m_data;
    QString h;
    QTextStream out(&h);
    out << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" << esc(tr("Progress report"))
        << "</title><style>" << kStyle << "</style></head><body>";
    out << "<h1>" << esc(tr("Triton Kernel Mastery — progress report")) << "</h1>";
    out << "<table width=\"100%\" cellspacing=\"0\">";
    const auto fact = [&](const QString& k, const QString& v) {
        out << "<tr><th>" << esc(k) << "</th><td>" << esc(v) << "</td></tr>";
    };
    fact(tr("Learner"), d.learnerName.isEmpty() ? tr("(no name set)") : d.learnerName);
    fact(tr("Period"), dateText(d.firstUtc) + QStringLiteral(" – ") + dateText(d.lastUtc));
    fact(tr("Generated"), dateText(d.generatedUtc));
    fact(tr("Device"), d.device.isEmpty() ? tr("no GPU run recorded") : d.device);
    fact(tr("Modules complete"), QStringLiteral("%1 / %2").arg(d.modulesComplete()).arg(d.modules.size()));
    fact(tr("Exercises passed"), QStringLiteral("%1 / %2").arg(d.exercisesPassed()).arg(d.exercises.size()));
    fact(tr("Quiz accuracy"), optPercent(d.quizAccuracy()));
    fact(tr("Time spent"), formatDuration(d.secondsSpent));
    out << "</table>";

    out << "<h2>" << esc(tr("Modules")) << "</h2><table width=\"100%\" cellspacing=\"0\"><tr>" << kTitleHeader
        << esc(tr("Module")) << "</th><th>" << esc(tr("Completion")) << "</th><th>" << esc(tr("Quiz accuracy"))
        << "</th><th>" << esc(tr("Questions right")) << "</th><th>" << esc(tr("Bugs found")) << "</th><th>"
        << esc(tr("Exercises passed")) << "</th><th>" << esc(tr("Time")) << "</th></tr>";
    for (const auto& m : d.modules) {
        out << "<tr><td>" << esc(m.title) << "</td><td class=\"n\">" << formatFraction(m.fraction()) << " ("
            << m.itemsDone << "/" << m.itemsTotal << ")</td><td class=\"n\">" << optPercent(m.quizAccuracy())
            << "</td><td class=\"n\">" << m.questionsRight << "/" << m.questionsTotal << "</td><td class=\"n\">"
            << m.bugsFound << "/" << m.bugsTotal << "</td><td class=\"n\">" << m.exercisesPassed << "/"
            << m.exercisesTotal << "</td><td class=\"n\">" << formatDuration(m.secondsSpent) << "</td></tr>";
    }
    out << "</table><p><img src=\"" << src(-1) << "\" width=\"" << imageWidth << "\"></p>";

    // Every column gets its share of the width: with nine columns QTextDocument would otherwise squeeze the titles.
    out << "<h2>" << esc(tr("Exercises")) << "</h2><table width=\"100%\" cellspacing=\"0\"><tr>";
    const std::pair<const char*, int> exerciseColumns[] = {
        {"Exercise", 17},       {"Runs", 6},       {"Status", 8},          {"Track", 8},
        {"Best time", 9},       {"Bandwidth", 12}, {"% of ceiling", 9},    {"DRAM efficiency", 10},
        {"Solution", 9},        {"vs solution", 12}};
    for (const auto& [title, percent] : exerciseColumns)
        out << "<th width=\"" << percent << "%\">" << esc(tr(title)) << "</th>";
    out << "</tr>";
    for (const ExerciseRow& e : d.exercises) {
        const auto& b = e.best;
        out << "<tr><td>" << esc(e.title) << "</td><td class=\"n\">" << e.runs << "</td><td class=\"t\">"
            << esc(e.passed ? tr("Passed") : (e.runs ? verdictText(e.lastVerdict) : tr("Not tried")))
            << "</td><td class=\"t\">" << esc(exerciseTrack(e)) << "</td><td class=\"n\">" << (b && b->medianMs ? formatMs(*b->medianMs) : dash())
            << "</td><td class=\"n\">" << (b && b->achievedGbps ? formatGbps(*b->achievedGbps) : dash())
            << "</td><td class=\"n\">" << (b ? optPercent(b->ceilingFraction()) : dash()) << "</td><td class=\"n\">"
            << (b ? optPercent(b->dramEfficiency()) : dash()) << "</td><td class=\"n\">"
            << (e.solution ? formatMs(e.solution->medianMs) : dash()) << "</td><td class=\"n\">" << versusSolution(e)
            << "</td></tr>";
    }
    out << "</table>";
    for (int i = 0; i < m_exerciseCharts.size(); ++i) {
        if (!m_exerciseCharts[i].isNull())
            out << "<p><img src=\"" << src(i) << "\" width=\"" << imageWidth << "\"></p>";
    }

    out << "<h2>" << esc(tr("Weak topics")) << "</h2>";
    if (d.review.empty())
        out << "<p>"
            << esc(d.firstUtc.isValid()
                       ? tr("Nothing to review: every question, bug and exercise tried so far was solved.")
                       : tr("Nothing tried yet: answer a quiz or run an exercise, and what you miss shows here."))
            << "</p>";
    for (const auto& m : d.review) {
        out << "<h3>" << esc(m.title) << "</h3><ul>";
        for (const auto& item : m.items) {
            out << "<li>" << esc(item.activityTitle);
            if (!item.questionId.empty())
                out << " — " << esc(tr("question %1").arg(item.questionNumber));
            out << " <span class=\"muted\">(" << esc(QString::fromUtf8(progress::reviewReasonLabel(item.reason)))
                << ", " << item.misses << " " << esc(item.misses == 1 ? tr("miss") : tr("misses"));
            if (item.lastVerdict)
                out << ", " << esc(tr("last run")) << ": " << esc(verdictText(item.lastVerdict));
            out << ")</span></li>";
        }
        out << "</ul>";
    }
    out << "</body></html>";
    return h;
}

std::unique_ptr<QTextDocument> ReportExporter::document() const
{
    auto doc = std::make_unique<QTextDocument>();
    doc->addResource(QTextDocument::ImageResource, QUrl(chartUrl(-1)), m_scores);
    for (int i = 0; i < m_exerciseCharts.size(); ++i) {
        if (!m_exerciseCharts[i].isNull())
            doc->addResource(QTextDocument::ImageResource, QUrl(chartUrl(i)), m_exerciseCharts[i]);
    }
    doc->setHtml(html(false));
    doc->setMetaInformation(QTextDocument::DocumentTitle, tr("Progress report"));
    return doc;
}

bool ReportExporter::writeHtml(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Could not write %1 (%2). Choose another folder.").arg(path, file.errorString());
        return false;
    }
    file.write(html(true).toUtf8());
    if (!file.commit()) {
        if (error)
            *error = tr("Could not write %1 (%2). Check the free space.").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool ReportExporter::writePdf(const QString& path, QPageSize::PageSizeId page, QString* error) const
{
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly)) {
            if (error)
                *error = tr("Could not write %1 (%2). Choose another folder.").arg(path, probe.errorString());
            return false;
        }
    }
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(page));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setResolution(300);
    writer.setTitle(tr("Triton Kernel Mastery — progress report"));
    writer.setCreator(QStringLiteral("Triton Kernel Mastery"));
    auto doc = document();
    // Lay the document out on the writer's printable area, in the document's units (pixels at the logical DPI that
    // turns its pt font sizes into pixels): without a page size, print() would add its own 2 cm margins inside the
    // writer's and shrink the text column to 14 cm.
    const QScreen* screen = QGuiApplication::primaryScreen();
    const qreal unitsPerPoint = (screen ? screen->logicalDotsPerInchY() : 96.0) / 72.0;
    doc->setPageSize(writer.pageLayout().paintRect(QPageLayout::Point).size() * unitsPerPoint);
    doc->setDocumentMargin(0);
    doc->print(&writer);
    return true;
}

bool ReportExporter::write(const QString& path, QPageSize::PageSizeId page, QString* error) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return writePdf(path, page, error);
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return writeHtml(path, error);
    if (error)
        *error = tr("Cannot tell the report format from %1: give a file name ending in .pdf or .html.").arg(path);
    return false;
}

std::optional<QPageSize::PageSizeId> parsePageSize(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("a4"))
        return QPageSize::A4;
    if (n == QLatin1String("letter"))
        return QPageSize::Letter;
    return std::nullopt;
}

int runExportReportCommand(const ExportReportCommand& command, const std::vector<progress::ModuleOutline>& course)
{
    const auto fail = [](const QString& sentence) {
        std::fprintf(stderr, "tkm: %s\n", sentence.toLocal8Bit().constData());
        return 1;
    };
    if (!QFileInfo::exists(command.databasePath))
        return fail(tr("There is no progress database at %1 yet: study in the app first, or give one with --db PATH.")
                        .arg(command.databasePath));
    auto store = progress::Store::open(command.databasePath.toStdString());
    if (!store)
        return fail(QString::fromStdString(store.error().message));
    if (!store->openReport().notice.empty())
        return fail(QString::fromStdString(store->openReport().notice));
    QString error;
    if (!exportProgressFile(*store, course, command.learnerName, command.file, command.page, &error))
        return fail(error);
    return 0;
}

bool exportProgressFile(const progress::Store& store, const std::vector<progress::ModuleOutline>& course,
                        const QString& learnerName, const QString& path, QPageSize::PageSizeId page, QString* error)
{
    const auto failed = [error](const QString& sentence) {
        if (error)
            *error = sentence;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    QByteArray raw;
    if (suffix == QLatin1String("csv")) {
        auto csv = progress::exportCsv(store);
        if (!csv)
            return failed(QString::fromStdString(csv.error().message));
        raw = QByteArray::fromStdString(*csv);
    } else if (suffix == QLatin1String("json")) {
        auto json = progress::exportJson(store);
        if (!json)
            return failed(QString::fromStdString(json.error().message));
        raw = QByteArray::fromStdString(json->dump(2)) + '\n';
    } else if (suffix == QLatin1String("pdf") || suffix == QLatin1String("html") || suffix == QLatin1String("htm")) {
        auto data = collectReportData(store, course, learnerName);
        if (!data)
            return failed(QString::fromStdString(data.error().message));
        return ReportExporter(std::move(*data)).write(path, page, error);
    } else {
        return failed(tr("Cannot tell the export format from %1: give a file name ending in .pdf or .html (the "
                         "report), or .csv or .json (every recorded attempt, for other tools).")
                          .arg(path));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(raw) != raw.size() || !file.commit())
        return failed(tr("Could not write %1 (%2). Choose another folder.").arg(path, file.errorString()));
    return true;
}

} // namespace tkm::app
