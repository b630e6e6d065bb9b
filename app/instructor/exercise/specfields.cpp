#include "app/instructor/exercise/specfields.h"

#include <QRegularExpression>

namespace tkm::app {

namespace {

QString scalarText(const SpecJson &v)
{
  if (v.is_string())
    return QString::fromStdString(v.get<std::string>());
  if (v.is_null() || v.is_discarded())
    return {};
  return QString::fromStdString(v.dump());
}

// A number when the whole text is one (integers stay integers), else nothing.
bool parseNumber(const QString &text, SpecJson *out)
{
  static const QRegularExpression numeric(QStringLiteral("^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$"));
  const QString t = text.trimmed();
  if (!numeric.match(t).hasMatch())
    return false;
  bool ok = false;
  const qlonglong i = t.toLongLong(&ok);
  if (ok) {
    *out = static_cast<int64_t>(i);
    return true;
  }
  const double d = t.toDouble(&ok);
  if (ok)
    *out = d;
  return ok;
}

SpecJson exprValue(const QString &text)
{
  SpecJson v;
  return parseNumber(text, &v) ? v : SpecJson(text.trimmed().toStdString());
}

} // namespace

QString fieldText(FieldKind kind, const SpecJson &value)
{
  if (value.is_null() || value.is_discarded())
    return {};
  QStringList parts;
  switch (kind) {
  case FieldKind::Text:
  case FieldKind::Expr:
  case FieldKind::Integer:
  case FieldKind::Number:
  case FieldKind::Choice:
    return scalarText(value);
  case FieldKind::ExprList:
  case FieldKind::IntList:
  case FieldKind::Names:
  case FieldKind::Lines:
    if (!value.is_array())
      return QString::fromStdString(value.dump());
    for (const auto &item : value)
      parts << scalarText(item);
    return parts.join(kind == FieldKind::Lines ? u"\n" : u", ");
  case FieldKind::Sizes:
    if (!value.is_object())
      return QString::fromStdString(value.dump());
    for (auto it = value.begin(); it != value.end(); ++it)
      parts << QString::fromStdString(it.key()) + QStringLiteral(" = ") + scalarText(it.value());
    return parts.join(u", ");
  case FieldKind::Json:
    return QString::fromStdString(formatSpecJson(value, 1 << 20)).trimmed();
  }
  return {};
}

bool fieldValue(FieldKind kind, const QString &text, bool optional, SpecJson *value, QString *error)
{
  const QString t = kind == FieldKind::Lines ? text : text.trimmed();
  if (t.trimmed().isEmpty() && optional) {
    *value = SpecJson(SpecJson::value_t::discarded);
    return true;
  }
  switch (kind) {
  case FieldKind::Text:
  case FieldKind::Choice:
    *value = t.toStdString();
    return true;
  case FieldKind::Expr:
    *value = exprValue(t);
    return true;
  case FieldKind::Integer: {
    bool ok = false;
    const qlonglong i = t.toLongLong(&ok);
    if (!ok) {
      *error = QStringLiteral("\"%1\" is not an integer.").arg(t);
      return false;
    }
    *value = static_cast<int64_t>(i);
    return true;
  }
  case FieldKind::Number:
    if (!parseNumber(t, value)) {
      *error = QStringLiteral("\"%1\" is not a number (e.g. 1e-5).").arg(t);
      return false;
    }
    return true;
  case FieldKind::ExprList:
  case FieldKind::IntList:
  case FieldKind::Names: {
    SpecJson array = SpecJson::array();
    for (const QString &part : splitTopLevel(t)) {
      if (part.isEmpty()) {
        *error = QStringLiteral("An empty item between commas.");
        return false;
      }
      if (kind == FieldKind::IntList) {
        bool ok = false;
        const qlonglong i = part.toLongLong(&ok);
        if (!ok) {
          *error = QStringLiteral("\"%1\" is not an integer; write integers separated by commas.").arg(part);
          return false;
        }
        array.push_back(static_cast<int64_t>(i));
      } else {
        array.push_back(kind == FieldKind::ExprList ? exprValue(part) : SpecJson(part.toStdString()));
      }
    }
    *value = std::move(array);
    return true;
  }
  case FieldKind::Sizes: {
    SpecJson object = SpecJson::object();
    static const QRegularExpression item(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)\\s*[=:]\\s*(\\d+)$"));
    for (const QString &part : splitTopLevel(t)) {
      const auto m = item.match(part);
      if (!m.hasMatch()) {
        *error = QStringLiteral("\"%1\" is not a size; write name = value pairs, e.g. n = 1000, M = 64.").arg(part);
        return false;
      }
      object[m.captured(1).toStdString()] = m.captured(2).toLongLong();
    }
    *value = std::move(object);
    return true;
  }
  case FieldKind::Json: {
    SpecJson parsed = SpecJson::parse(t.toStdString(), nullptr, false);
    if (parsed.is_discarded()) {
      *error = QStringLiteral("Not valid JSON.");
      return false;
    }
    *value = std::move(parsed);
    return true;
  }
  case FieldKind::Lines: {
    SpecJson array = SpecJson::array();
    for (const QString &line : t.split(QLatin1Char('\n')))
      if (!line.trimmed().isEmpty())
        array.push_back(line.trimmed().toStdString());
    *value = std::move(array);
    return true;
  }
  }
  return false;
}

SpecJson defaultGenerator(const QString &dist)
{
  const std::string d = dist.toStdString();
  if (d == "uniform")
    return {{"dist", d}, {"low", -1}, {"high", 1}};
  if (d == "negative")
    return {{"dist", d}, {"low", -50}, {"high", -1}};
  if (d == "large")
    return {{"dist", d}, {"magnitude", 100}};
  if (d == "int")
    return {{"dist", d}, {"low", 0}, {"high", 9}};
  if (d == "arange")
    return {{"dist", d}, {"start", 0}, {"step", 1}};
  return {{"dist", "normal"}, {"mean", 0}, {"std", 1}};
}

QStringList generatorFields(const QString &dist)
{
  if (dist == QLatin1String("uniform") || dist == QLatin1String("negative") || dist == QLatin1String("int"))
    return {QStringLiteral("low"), QStringLiteral("high")};
  if (dist == QLatin1String("large"))
    return {QStringLiteral("magnitude")};
  if (dist == QLatin1String("arange"))
    return {QStringLiteral("start"), QStringLiteral("step")};
  return {QStringLiteral("mean"), QStringLiteral("std")};
}

} // namespace tkm::app
