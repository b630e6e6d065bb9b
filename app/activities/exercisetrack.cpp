#include "app/activities/exercisetrack.h"

#include "app/common/paths.h"
#include "app/common/qtconvert.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
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

std::optional<Track> reportTrack(const QJsonObject& report)
{
    const QString language = report.value(QStringLiteral("language")).toString();
    if (language == QLatin1String("triton") || language == QLatin1String("cuda"))
        return parseTrack(language, Track::Cuda);
    QStringList files;
    for (const QJsonValue& v :
         report.value(QStringLiteral("compile")).toObject().value(QStringLiteral("diagnostics")).toArray())
        files << v.toObject().value(QStringLiteral("file")).toString();
    files << report.value(QStringLiteral("fault")).toObject().value(QStringLiteral("file")).toString();
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

QList<EditorDiagnostic> reportDiagnostics(const QJsonObject& report, const QString& fileName, const QString& source)
{
    QList<EditorDiagnostic> result;
    const QJsonArray diagnostics =
        report.value(QStringLiteral("compile")).toObject().value(QStringLiteral("diagnostics")).toArray();
    for (const QJsonValue& v : diagnostics) {
        const QJsonObject d = v.toObject();
        const QString file = d.value(QStringLiteral("file")).toString();
        if (!file.isEmpty() && QFileInfo(file).fileName() != fileName)
            continue;
        EditorDiagnostic e;
        e.line = d.value(QStringLiteral("line")).toInt();
        e.column = d.value(QStringLiteral("column")).toInt();
        e.severity = d.value(QStringLiteral("severity")).toString(QStringLiteral("error"));
        e.message = d.value(QStringLiteral("message")).toString();
        if (e.message.contains(QStringLiteral("expected a \";\"")) && atFirstToken(source, e.line, e.column))
            e.message += tr(" — the previous line may be missing a `;`");
        result.append(e);
    }
    return result;
}

EditorDiagnostic faultDiagnostic(const QJsonObject& report)
{
    EditorDiagnostic e;
    const QJsonObject fault = report.value(QStringLiteral("fault")).toObject();
    e.line = fault.value(QStringLiteral("line")).toInt();
    e.column = fault.value(QStringLiteral("column")).toInt();
    e.severity = QStringLiteral("error");
    e.message = fault.value(QStringLiteral("message")).toString();
    return e;
}

QList<EditorDiagnostic> trackDiagnostics(const QJsonObject& report, Track track, const QString& fileName,
                                         const QString& source)
{
    const std::optional<Track> from = reportTrack(report);
    if (from && *from != track)
        return {};
    QList<EditorDiagnostic> result = reportDiagnostics(report, fileName, source);
    const EditorDiagnostic fault = faultDiagnostic(report);
    const QString faultFile = report.value(QStringLiteral("fault")).toObject().value(QStringLiteral("file")).toString();
    if (fault.line > 0 && (faultFile.isEmpty() || QFileInfo(faultFile).fileName() == fileName))
        result.prepend(fault);
    return result;
}

QString faultSummary(const QJsonObject& report)
{
    const QJsonObject fault = report.value(QStringLiteral("fault")).toObject();
    const int line = fault.value(QStringLiteral("line")).toInt();
    if (line <= 0)
        return {};
    auto coords = [](const QJsonArray& a) {
        QStringList parts;
        for (const QJsonValue& v : a)
            parts << QString::number(v.toInteger());
        return parts.join(QStringLiteral(", "));
    };
    QString where = tr("line %1").arg(line);
    if (fault.contains(QStringLiteral("program")))
        where += tr(", program (%1)").arg(coords(fault.value(QStringLiteral("program")).toArray()));
    if (fault.contains(QStringLiteral("lane")))
        where += tr(", lane [%1]").arg(coords(fault.value(QStringLiteral("lane")).toArray()));
    return where;
}

} // namespace tkm::app
