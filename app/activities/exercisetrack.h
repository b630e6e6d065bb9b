#pragma once
// The two tracks of a coding exercise (docs/exercise-spec.md "Triton track"): Triton (`.py`, the default when the
// exercise has one) and CUDA C++ (`.cu`). Per track: its starter and solution, the file the learner's code is
// kept in, the name the engine gives the kernel; and the learner-facing reading of a run report for it —
// diagnostics placed in the editor, the fault's line, program and lane, and where the run ran.

#include "app/editor/kerneleditor.h"
#include "engine/report/run_report.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace tkm::course {
struct Exercise;
}

namespace tkm::app {

/// Which language the learner practises an exercise in.
enum class Track { Triton, Cuda };

/// "triton" / "cuda" (the spelling stored with runs and in the report's `language`).
QString trackName(Track track);
/// Parses "triton" / "cuda"; `fallback` for anything else.
Track parseTrack(const QString& name, Track fallback);
/// Whether the exercise has a Triton track (spec "triton" block).
bool hasTritonTrack(const course::Exercise& exercise);
/// The track an exercise opens in when the learner has chosen none: Triton when it has one.
Track defaultTrack(const course::Exercise& exercise);

/// The files of one track.
struct TrackCode
{
    QString starter;  ///< starter text (empty when unreadable)
    QString solution; ///< solution text
    QString fileName; ///< what the engine and the editor call the learner's file: "kernel.py" or "kernel.cu"
    QString language; ///< editor language: "python" or "cuda"
    QString prompt;   ///< Markdown task of this track; a Triton track without its own prompt gets the CUDA one
                      ///< under a one-line note (promptNote())
    QStringList hints; ///< this track's hints (never the other track's)
};

/// The Markdown task of `track`: the Triton prompt, or (Triton track without one) the CUDA prompt under
/// promptNote() in italics; the CUDA track's prompt otherwise.
QString trackPrompt(const course::Exercise& exercise, Track track);
/// The hints of `track` (Triton: the spec's "triton"/"hints", possibly none; never the CUDA hints).
QStringList trackHints(const course::Exercise& exercise, Track track);

/// The one-line note above a CUDA prompt shown in the Triton track (the exercise has no Triton prompt).
QString promptNote();

/// The track that produced `report`: its `language`, else the extension of the file its diagnostics or fault
/// name (kernel.py / kernel.cu); nullopt when the report says neither.
std::optional<Track> reportTrack(const report::RunReport& report);

/// The starter, solution, prompt, hints and names of `track` of `exercise` (Triton files read from the exercise
/// folder).
TrackCode trackCode(const course::Exercise& exercise, Track track);

/// Where the learner's code of `track` is kept: the CUDA file of paths.h's exerciseCodePath(), or its `.py`.
QString trackCodePath(const QString& moduleId, const QString& activityId, Track track);

/// The sentence said once when a run used the CPU interpreter (report `executor` "cpu-interpreter").
QString interpreterNote();

/// The report's compile diagnostics for the learner's own file, with a hint where NVRTC says `expected a ";"` at
/// a line's first token (the `;` is missing at the end of the line before).
QList<EditorDiagnostic> reportDiagnostics(const report::RunReport& report, const QString& fileName,
                                         const QString& source);

/// The fault of a report placed on its line (report `fault` with `line`: CPU interpreter or a GPU fault mapped
/// through -lineinfo); line 0 when the fault has no line.
EditorDiagnostic faultDiagnostic(const report::RunReport& report);

/// What of `report` belongs on the editor of `track` (file `fileName`): nothing when the report came from the
/// other track (reportTrack()), else the fault (first, when it has a line) and the diagnostics naming that file.
QList<EditorDiagnostic> trackDiagnostics(const report::RunReport& report, Track track, const QString& fileName,
                                         const QString& source);

/// One line naming the fault's line, program and lane ("line 5, program (0, 0, 0), lane 1000: …"), or empty.
QString faultSummary(const report::RunReport& report);

} // namespace tkm::app
