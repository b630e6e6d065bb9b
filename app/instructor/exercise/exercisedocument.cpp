#include "app/instructor/exercise/exercisedocument.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace tkm::app {

namespace {

using Pointer = SpecJson::json_pointer;

// One-line form of a value: ", " and ": " separators, as the built-in specs are written.
std::string oneLine(const SpecJson &v)
{
  if (v.is_object()) {
    std::string s = "{";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      s += (first ? "" : ", ") + SpecJson(it.key()).dump() + ": " + oneLine(it.value());
      first = false;
    }
    return s + "}";
  }
  if (v.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + oneLine(v[i]);
    return s + "]";
  }
  return v.dump(-1, ' ', false, SpecJson::error_handler_t::replace);
}

void format(const SpecJson &v, int indent, int column, int width, std::string &out)
{
  const std::string flat = oneLine(v);
  if ((!v.is_object() && !v.is_array()) || v.empty() || column + static_cast<int>(flat.size()) <= width) {
    out += flat;
    return;
  }
  const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
  out += v.is_object() ? "{\n" : "[\n";
  std::size_t i = 0;
  for (auto it = v.begin(); it != v.end(); ++it, ++i) {
    out += pad;
    int col = indent + 2;
    if (v.is_object()) {
      const std::string key = SpecJson(it.key()).dump() + ": ";
      out += key;
      col += static_cast<int>(key.size());
    }
    format(it.value(), indent + 2, col, width, out);
    out += i + 1 < v.size() ? ",\n" : "\n";
  }
  out += std::string(static_cast<std::size_t>(indent), ' ') + (v.is_object() ? "}" : "]");
}

bool readText(const QString &path, QString *text)
{
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly))
    return false;
  *text = QString::fromUtf8(f.readAll());
  return true;
}

bool writeText(const QString &path, const QByteArray &bytes, QString *error)
{
  QDir().mkpath(QFileInfo(path).absolutePath());
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
    if (error)
      *error = QStringLiteral("Could not write %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
    return false;
  }
  return true;
}

} // namespace

std::string formatSpecJson(const SpecJson &value, int width)
{
  std::string out;
  format(value, 0, 0, width, out);
  return out + "\n";
}

QStringList splitTopLevel(const QString &text)
{
  QStringList parts;
  int depth = 0;
  QString current;
  for (const QChar c : text) {
    if (c == QLatin1Char('(') || c == QLatin1Char('['))
      ++depth;
    else if (c == QLatin1Char(')') || c == QLatin1Char(']'))
      --depth;
    if (c == QLatin1Char(',') && depth == 0) {
      parts << current.trimmed();
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.trimmed().isEmpty() || !parts.isEmpty())
    parts << current.trimmed();
  return parts;
}

bool ExerciseDocument::load(const QString &dir, QString *error)
{
  const QString specPath = QDir(dir).filePath(QStringLiteral("exercise.json"));
  QString text;
  if (!readText(specPath, &text)) {
    if (error)
      *error = QStringLiteral("%1 has no readable exercise.json.").arg(QDir::toNativeSeparators(dir));
    return false;
  }
  SpecJson spec = SpecJson::parse(text.toStdString(), nullptr, false);
  if (spec.is_discarded() || !spec.is_object()) {
    if (error)
      *error = QStringLiteral("%1 is not a JSON object; fix it in a text editor first.")
                   .arg(QDir::toNativeSeparators(specPath));
    return false;
  }
  m_dir = QDir(dir).absolutePath();
  m_spec = std::move(spec);
  m_sources.clear();
  m_diskSources.clear();
  QStringList missing;
  for (const QString &rel : sourceFiles()) {
    QString code;
    if (!readText(QDir(m_dir).filePath(rel), &code))
      missing << rel;
    m_sources[rel] = code;
    m_diskSources[rel] = code;
  }
  if (error)
    *error = missing.isEmpty() ? QString()
                               : QStringLiteral("Missing source files (they start empty): %1").arg(missing.join(u", "));
  return true;
}

bool ExerciseDocument::save(QString *error)
{
  const QByteArray spec = QByteArray::fromStdString(formatSpecJson(m_spec));
  if (!writeText(QDir(m_dir).filePath(QStringLiteral("exercise.json")), spec, error))
    return false;
  for (auto it = m_sources.cbegin(); it != m_sources.cend(); ++it) {
    const QString path = QDir(m_dir).filePath(it.key());
    if (m_diskSources.contains(it.key()) && m_diskSources.value(it.key()) == it.value() && QFileInfo::exists(path))
      continue;
    if (!writeText(path, it.value().toUtf8(), error))
      return false;
    m_diskSources[it.key()] = it.value();
  }
  return true;
}

SpecJson ExerciseDocument::value(const std::string &pointer) const
{
  try {
    const Pointer p(pointer);
    return m_spec.contains(p) ? m_spec.at(p) : SpecJson();
  } catch (const SpecJson::exception &) {
    return SpecJson();
  }
}

bool ExerciseDocument::contains(const std::string &pointer) const
{
  try {
    return m_spec.contains(Pointer(pointer));
  } catch (const SpecJson::exception &) {
    return false;
  }
}

void ExerciseDocument::setValue(const std::string &pointer, const SpecJson &value)
{
  try {
    const Pointer p(pointer);
    if (!value.is_discarded()) {
      m_spec[p] = value;
      return;
    }
    if (!m_spec.contains(p))
      return;
    SpecJson &parent = m_spec[p.parent_pointer()];
    if (parent.is_array())
      parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
    else
      parent.erase(p.back());
  } catch (const SpecJson::exception &) {
    // A malformed pointer changes nothing.
  }
}

QStringList ExerciseDocument::sourceFiles() const
{
  QStringList files;
  auto add = [&](const SpecJson &v) {
    if (v.is_string() && !v.get<std::string>().empty() && !files.contains(QString::fromStdString(v.get<std::string>())))
      files << QString::fromStdString(v.get<std::string>());
  };
  add(value("/starter"));
  add(value("/solution"));
  add(value("/reference/file"));
  // Then the Triton track's files (docs/exercise-spec.md "Triton track"), in the same order.
  for (const std::string &track : {std::string(), std::string("/triton")}) {
    if (!track.empty()) {
      add(value(track + "/starter"));
      add(value(track + "/solution"));
      add(value(track + "/reference/file"));
    }
    const SpecJson bugs = value(track + "/bugs");
    if (bugs.is_array())
      for (const auto &bug : bugs)
        if (bug.is_object() && bug.contains("file"))
          add(bug["file"]);
  }
  add(value("/prompt"));
  add(value("/triton/prompt"));
  return files;
}

bool ExerciseDocument::writeCopy(const QString &targetDir, QString *error) const
{
  QDir target(targetDir);
  QDirIterator it(m_dir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString file = it.next();
    const QString rel = QDir(m_dir).relativeFilePath(file);
    QDir().mkpath(QFileInfo(target.filePath(rel)).absolutePath());
    QFile::remove(target.filePath(rel));
    if (!QFile::copy(file, target.filePath(rel))) {
      if (error)
        *error = QStringLiteral("Could not copy %1 for validation.").arg(QDir::toNativeSeparators(file));
      return false;
    }
  }
  if (!writeText(target.filePath(QStringLiteral("exercise.json")), QByteArray::fromStdString(formatSpecJson(m_spec)),
                 error))
    return false;
  for (auto s = m_sources.cbegin(); s != m_sources.cend(); ++s) {
    // Only paths inside the folder: the spec parser rejects the others anyway.
    if (s.key().startsWith(QLatin1Char('/')) || s.key().contains(QLatin1String("..")))
      continue;
    if (!writeText(target.filePath(s.key()), s.value().toUtf8(), error))
      return false;
  }
  return true;
}

} // namespace tkm::app
