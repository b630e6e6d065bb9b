#include "app/common/format.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QStringList>

#include <cmath>

namespace tkm::app {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("tkm::app::ReportFormat", text);
}

QString scaled(double value, const char* const units[], int count, double step)
{
    int unit = 0;
    double v = value;
    while (std::abs(v) >= step && unit + 1 < count) {
        v /= step;
        ++unit;
    }
    const int decimals = std::abs(v) >= 100 ? 0 : (std::abs(v) >= 10 ? 1 : 2);
    return QString::number(v, 'f', unit == 0 && std::floor(v) == v ? 0 : decimals) + QLatin1Char(' ') +
           QLatin1String(units[unit]);
}
} // namespace

QString formatBytes(double bytes)
{
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB"};
    return scaled(bytes, units, 5, 1000.0);
}

QString formatMs(double ms)
{
    if (ms < 0.1)
        return QString::number(ms * 1000.0, 'f', ms * 1000.0 >= 10 ? 1 : 2) + QStringLiteral(" µs");
    if (ms >= 1000.0)
        return QString::number(ms / 1000.0, 'f', 2) + QStringLiteral(" s");
    return QString::number(ms, 'f', ms >= 100 ? 1 : 3) + QStringLiteral(" ms");
}

QString formatStageMs(double ms)
{
    if (ms >= 1000.0)
        return QString::number(ms / 1000.0, 'g', 3) + QStringLiteral(" s");
    return QString::number(ms, 'g', 3) + QStringLiteral(" ms");
}

QString formatGbps(double gbps)
{
    if (gbps >= 1000.0)
        return QString::number(gbps / 1000.0, 'f', 2) + QStringLiteral(" TB/s");
    return QString::number(gbps, 'f', gbps >= 100 ? 0 : 1) + QStringLiteral(" GB/s");
}

QString formatGflops(double gflops)
{
    if (gflops >= 1000.0)
        return QString::number(gflops / 1000.0, 'f', gflops >= 100000 ? 0 : 1) + QStringLiteral(" TFLOP/s");
    return QString::number(gflops, 'f', gflops >= 100 ? 0 : 1) + QStringLiteral(" GFLOP/s");
}

QString formatValue(const QJsonValue& value)
{
    if (value.isDouble()) {
        const double v = value.toDouble();
        if (std::isfinite(v) && std::floor(v) == v && std::abs(v) < 1e15)
            return QString::number(static_cast<qint64>(v));
        return QString::number(v, 'g', 6);
    }
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? tr("yes") : tr("no");
    if (value.isArray()) {
        QStringList parts;
        for (const QJsonValue& v : value.toArray())
            parts << formatValue(v);
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    return QStringLiteral("—");
}

QString formatSizes(const QJsonObject& sizes)
{
    QStringList parts;
    for (auto it = sizes.begin(); it != sizes.end(); ++it)
        parts << it.key() + QStringLiteral(" = ") + formatValue(it.value());
    return parts.join(QStringLiteral(", "));
}

QString formatSizes(const std::map<std::string, int64_t>& sizes)
{
    QStringList parts;
    for (const auto& [name, value] : sizes)
        parts << QString::fromStdString(name) + QStringLiteral(" = ") + QString::number(value);
    return parts.join(QStringLiteral(", "));
}

QString formatPercent(double value, double ceiling)
{
    if (ceiling <= 0.0 || !std::isfinite(value))
        return QStringLiteral("—");
    const double pct = 100.0 * value / ceiling;
    return QString::number(pct, 'f', pct < 10 ? 1 : 0) + QStringLiteral(" %");
}

QString verdictTitle(report::Verdict verdict)
{
    using report::Verdict;
    switch (verdict) {
    case Verdict::Pass:
        return tr("Pass");
    case Verdict::Fail:
        return tr("Wrong results");
    case Verdict::Fault:
        return tr("The kernel faulted");
    case Verdict::Timeout:
        return tr("Time-out");
    case Verdict::CompileError:
        return tr("Does not compile");
    case Verdict::Compiled:
        return tr("Compiles");
    case Verdict::Error:
        break;
    }
    return tr("Could not run");
}

QString verdictTitle(report::ConfigVerdict verdict)
{
    // "skipped" kept its wire name as its headline before the enum; the run verdicts share their headlines.
    const std::optional<report::Verdict> run = report::toRunVerdict(verdict);
    return run ? verdictTitle(*run) : QStringLiteral("skipped");
}

namespace {

QString wireName(std::string_view name)
{
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

} // namespace

QString verdictWord(report::CaseVerdict verdict)
{
    return wireName(report::verdictName(verdict));
}

QString verdictWord(report::Verdict verdict)
{
    return wireName(report::verdictName(verdict));
}

} // namespace tkm::app
