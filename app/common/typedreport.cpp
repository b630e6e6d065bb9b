#include "app/common/typedreport.h"

#include <QJsonDocument>

namespace tkm::app {

namespace {

nlohmann::json toNlohmann(const QJsonObject& o)
{
    return nlohmann::json::parse(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
}

} // namespace

std::optional<report::RunReport> typedReport(const QJsonObject& report)
{
    try {
        return toNlohmann(report).get<report::RunReport>();
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

std::optional<report::TrafficInfo> typedTraffic(const QJsonObject& report)
{
    const QJsonValue traffic = report.value(QStringLiteral("traffic"));
    if (!traffic.isObject())
        return std::nullopt;
    try {
        return toNlohmann(traffic.toObject()).get<report::TrafficInfo>();
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

} // namespace tkm::app
