#include "app/activities/exercisetrack.h"

#include "app/common/paths.h"
#include "app/common/qtconvert.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include "engine/problem/spec.h"
#include "modules/course/model.h"

namespace tkm::app {

namespace {

QString readText(const std::filesystem::path& path)
{
    QFile file(qs(path));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QString tr(const char* text)
{
    return QCoreApplication::translate("tkm::app::ExerciseTrack", text);
}

// Whether `column` [1-based] of `line` [1-based] of `source` is the line's first non-blank character.
bool atFirstToken(const QString& source, int line, int column)
{
    const QStringList lines = source.split(QLatin1Char('\n'));
    if (line < 1 || line > lines.size() || column < 1)
        return false;
    const QString& text = lines[line - 1];
    int first = 0;
    while (first < text.size() && text[first].isSpace())
        ++first;
    return column - 1 <= first;
}

} // namespace

QString trackName(Track track)
{
    return track == Track::Triton ? QStringLiteral("triton") : QStringLiteral("cuda");
}

Track parseTrack(const QString& name, Track fallback)
{
    if (name == QLatin1String("triton"))
        return Track::Triton;
    if (name == QLatin1String("cuda"))
        return Track::Cuda;
    return fallback;
}

bool hasTritonTrack(const course::Exercise& exercise)
{
    return exercise.spec && exercise.spec->triton.has_value();
}

Track defaultTrack(const course::Exercise& exercise)
{
    return hasTritonTrack(exercise) ? Track::Triton : Track::Cuda;
}

TrackCode trackCode(const course::Exercise& exercise, Track track)
{
    TrackCode code;
    if (track == Track::Triton && hasTritonTrack(exercise)) {
        code.starter = readText(exercise.spec->path(exercise.spec->triton->starter));
        code.solution = readText(exercise.spec->path(exercise.spec->triton->solution));
        code.fileName = QStringLiteral("kernel.py");
        code.language = QStringLiteral("python");
        code.prompt = trackPrompt(exercise, track);
        code.hints = trackHints(exercise, track);
        return code;
    }
    code.starter = qs(exercise.starter);
    code.solution = qs(exercise.solution);
    code.fileName = QStringLiteral("kernel.cu");
    code.language = QStringLiteral("cuda");
    code.prompt = trackPrompt(exercise, Track::Cuda);
    code.hints = trackHints(exercise, Track::Cuda);
    return code;
}

QString trackPrompt(const course::Exercise& exercise, Track track)
{
    if (track == Track::Cuda || !hasTritonTrack(exercise))
        return qs(exercise.prompt);
    if (!exercise.tritonPrompt.empty())
        return qs(exercise.tritonPrompt);
    return QStringLiteral("*") + promptNote() + QStringLiteral("*\n\n") + qs(exercise.prompt);
}

QStringList trackHints(const course::Exercise& exercise, Track track)
{
    QStringList hints;
    const bool triton = track == Track::Triton && hasTritonTrack(exercise);
    for (const std::string& h : triton ? exercise.tritonHints : exercise.hints)
        hints << qs(h);
    return hints;
}

QString promptNote()
{
    return tr("This task is written for the CUDA track; in Triton you write the same kernel as a @triton.jit "
              "function.");
}

std::optional<Track> reportTrack(const report::RunReport& report)
{
    const QString language = qs(report.language);
    if (language == QLatin1String("triton") || language == QLatin1String("cuda"))
        return parseTrack(language, Track::Cuda);
    QStringList files;
    if (report.compile)
        for (const report::DiagnosticInfo& d : report.compile->diagnostics)
            files << qs(d.file);
    for (const QString& f : std::as_const(files)) {
        if (f.endsWith(QLatin1String(".py")))
            return Track::Triton;
        if (f.endsWith(QLatin1String(".cu")) || f.endsWith(QLatin1String(".cuh")))
            return Track::Cuda;
    }
    return std::nullopt;
}

QString trackCodePath(const QString& moduleId, const QString& activityId, Track track)
{
    const QString cuda = exerciseCodePath(moduleId, activityId);
    return track == Track::Cuda ? cuda : cuda.chopped(3) + QStringLiteral(".py");
}

QString interpreterNote()
{
    return tr("Ran on the CPU interpreter: correctness only — timing and DRAM traffic need an NVIDIA GPU.");
}

QList<EditorDiagnostic> reportDiagnostics(const report::RunReport& report, const QString& fileName,
                                         const QString& source)
{
    QList<EditorDiagnostic> result;
    if (!report.compile)
        return result;
    for (const report::DiagnosticInfo& d : report.compile->diagnostics) {
        const QString file = qs(d.file);
        if (!file.isEmpty() && QFileInfo(file).fileName() != fileName)
            continue;
        EditorDiagnostic e;
        e.line = d.line;
        e.column = d.column;
        e.severity = d.severity.empty() ? QStringLiteral("error") : qs(d.severity);
        e.message = qs(d.message);
        if (e.message.contains(QStringLiteral("expected a \";\"")) && atFirstToken(source, e.line, e.column))
            e.message += tr(" — the previous line may be missing a `;`");
        result.append(e);
    }
    return result;
}

EditorDiagnostic faultDiagnostic(const report::RunReport& report)
{
    EditorDiagnostic e;
    e.severity = QStringLiteral("error");
    if (!report.fault)
        return e;
    e.line = report.fault->line;
    e.column = report.fault->column;
    e.message = qs(report.fault->message);
    return e;
}

QList<EditorDiagnostic> trackDiagnostics(const report::RunReport& report, Track track, const QString& fileName,
                                         const QString& source)
{
    const std::optional<Track> from = reportTrack(report);
    if (from && *from != track)
        return {};
    QList<EditorDiagnostic> result = reportDiagnostics(report, fileName, source);
    const EditorDiagnostic fault = faultDiagnostic(report);
    if (fault.line > 0)
        result.prepend(fault);
    return result;
}

QString faultSummary(const report::RunReport& report)
{
    if (!report.fault || report.fault->line <= 0)
        return {};
    auto coords = [](const std::vector<int64_t>& a) {
        QStringList parts;
        for (int64_t v : a)
            parts << QString::number(v);
        return parts.join(QStringLiteral(", "));
    };
    QString where = tr("line %1").arg(report.fault->line);
    if (!report.fault->programId.empty())
        where += tr(", program (%1)").arg(coords(report.fault->programId));
    if (!report.fault->lane.empty())
        where += tr(", lane [%1]").arg(coords(report.fault->lane));
    return where;
}

} // namespace tkm::app
