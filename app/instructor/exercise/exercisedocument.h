#pragma once
// An exercise folder held for editing (docs/exercise-spec.md): exercise.json as an order-preserving JSON document,
// addressed by JSON pointer, and the texts of its kernel sources (starter, solution, reference, bug variants).
// Fields the editor has no widget for stay in the document untouched, so saving never loses them; keys keep their
// order and small objects stay on one line (formatSpecJson), so a saved file diffs cleanly against the original.

#include <nlohmann/json.hpp>

#include <QMap>
#include <QString>
#include <QStringList>

#include <string>

namespace tkm::app {

/// exercise.json as edited: key order preserved.
using SpecJson = nlohmann::ordered_json;

/// Formats a spec like the built-in ones: two-space indentation, and any object or array that fits in `width`
/// columns on one line ({"name": "x", "kind": "buffer", …}). Ends with a newline.
std::string formatSpecJson(const SpecJson &value, int width = 118);

/// Splits "cdiv(n, BLOCK_SIZE), 32 * NUM_WARPS" at its top-level commas: {"cdiv(n, BLOCK_SIZE)", "32 * NUM_WARPS"}.
QStringList splitTopLevel(const QString &text);

/// One exercise folder in memory.
class ExerciseDocument {
public:
  /// Reads `<dir>/exercise.json` and every source it names (a missing source reads as empty text and is listed in
  /// the error). False with `error` set when the folder has no readable, syntactically valid exercise.json.
  bool load(const QString &dir, QString *error);
  /// Writes exercise.json (formatSpecJson) and every source whose text differs from the file on disk (missing
  /// folders are created; files are replaced atomically). False with `error` naming the file that failed.
  bool save(QString *error);

  /// The folder.
  QString dir() const { return m_dir; }
  /// The whole spec.
  const SpecJson &spec() const { return m_spec; }
  /// Replaces the whole spec.
  void setSpec(const SpecJson &spec) { m_spec = spec; }
  /// The value at `pointer`, or null when absent.
  SpecJson value(const std::string &pointer) const;
  /// Whether `pointer` exists.
  bool contains(const std::string &pointer) const;
  /// Sets the value at `pointer` (parents are created); a discarded value removes the key or element.
  void setValue(const std::string &pointer, const SpecJson &value);

  /// Spec-relative paths of the sources, in editor order: starter, solution, reference file, each bug's file;
  /// then the same of the Triton track (`triton` block: .py files); last the Markdown prompts (`prompt`, then
  /// `triton/prompt` when set).
  QStringList sourceFiles() const;
  /// Text of a source (empty when unknown).
  QString source(const QString &relativePath) const { return m_sources.value(relativePath); }
  /// Sets the text of a source (a new path becomes a new file on save).
  void setSource(const QString &relativePath, const QString &text) { m_sources[relativePath] = text; }
  /// Every source text held, by path.
  const QMap<QString, QString> &sources() const { return m_sources; }

  /// Writes the document into `targetDir` (a copy of the folder with the spec and sources replaced), for validating
  /// what is on screen without saving it. False with `error` set on failure.
  bool writeCopy(const QString &targetDir, QString *error) const;

private:
  QString m_dir;
  SpecJson m_spec;
  QMap<QString, QString> m_sources;     ///< what the editor holds
  QMap<QString, QString> m_diskSources; ///< what was read or last written
};

} // namespace tkm::app
