#include "app/shell/statusarea.h"

#include "app/common/theme.h"
#include "app/engine/engineclient.h"

#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>

namespace tkm::app {

QString noGpuSentence()
{
    return StatusArea::tr("No NVIDIA GPU: Triton kernels run on the CPU interpreter, CUDA kernels are compiled only, "
                          "and nothing is timed.");
}

GpuInfo parseDevicesReport(const report::RunReport& report)
{
    GpuInfo info;
    if (report.device && !report.device->name.empty()) {
        info.present = true;
        info.name = QString::fromStdString(report.device->name);
        info.cc = QString::fromStdString(report.device->cc);
        info.memoryBytes = static_cast<double>(report.device->memoryBytes);
        return info;
    }
    info.message = report.error ? QString::fromStdString(report.error->message) : QString();
    if (info.message.isEmpty())
        info.message = QString::fromStdString(report.summary);
    return info;
}

StatusArea::StatusArea(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    m_label = new QLabel(tr("Looking for a GPU…"), this);
    m_label->setTextFormat(Qt::PlainText);
    layout->addWidget(m_label);
    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("gpuDetails"));
    m_details->setTextFormat(Qt::RichText);
    m_details->setText(QStringLiteral("<a href=\"details\">%1</a>").arg(tr("details")));
    m_details->hide();
    layout->addWidget(m_details);
    connect(m_details, &QLabel::linkActivated, this, [this] {
        auto* box = new QMessageBox(QMessageBox::Information, tr("Why no GPU is used"),
                                    tr("The engine worker reported:\n\n%1").arg(m_gpu.message), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

QString StatusArea::text() const
{
    return m_label->text();
}

void StatusArea::queryDevices(EngineClient* engine)
{
    EngineJob job;
    job.op = QStringLiteral("devices");
    job.title = tr("GPU query");
    job.quiet = true;
    m_jobId = engine->submit(job);
    connect(engine, &EngineClient::finished, this, [this](int id, const report::RunReport& report) {
        if (id == m_jobId)
            showGpu(parseDevicesReport(report));
    });
}

void StatusArea::showGpu(const GpuInfo& info)
{
    m_gpu = info;
    if (info.present) {
        QString text = tr("GPU: %1 · compute capability %2").arg(info.name, info.cc);
        if (info.memoryBytes > 0)
            text += tr(" · %1 GiB").arg(QString::number(info.memoryBytes / (1024.0 * 1024.0 * 1024.0), 'f', 0));
        m_label->setText(text);
        m_label->setToolTip(tr("Kernels run on this GPU through the engine worker (tkm-run)."));
        m_label->setAutoFillBackground(false);
        m_label->setStyleSheet(QString());
        m_details->hide();
    } else {
        // Said once, in plain words; the raw reason (cuInit, libcuda.so.1 …) sits behind "details".
        m_label->setText(noGpuSentence());
        m_label->setToolTip(QString());
        m_label->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(toneColor(Tone::Caution, palette()).name()));
        m_details->setVisible(!info.message.isEmpty());
    }
    emit gpuKnown(info);
}

} // namespace tkm::app
