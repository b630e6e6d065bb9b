#include "engine/cuda/context.h"

#include "engine/cuda/driver.h"

#include <chrono>
#include <utility>

namespace tkm::cuda {

engine::Expected<Context> Context::create(int ordinal)
{
    const auto t0 = std::chrono::steady_clock::now();
    const Driver& d = Driver::instance();
    if (!d.ready()) {
        return d.unavailableError();
    }
    auto info = queryDevice(ordinal);
    if (!info) {
        return info.error();
    }
    const DriverApi& a = d.api();
    Context c;
    if (auto s = check(a.cuDeviceGet(&c.m_device, ordinal), "cuDeviceGet"); !s) {
        return s.error();
    }
    if (auto s = check(a.cuDevicePrimaryCtxRetain(&c.m_ctx, c.m_device), "cuDevicePrimaryCtxRetain"); !s) {
        c.m_ctx = nullptr;
        return s.error();
    }
    c.m_info = std::move(*info);
    if (auto s = c.makeCurrent(); !s) {
        return s.error();
    }
    c.m_createMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return c;
}

Context::~Context()
{
    if (m_ctx != nullptr) {
        api().cuDevicePrimaryCtxRelease(m_device);
    }
}

Context::Context(Context&& other) noexcept
    : m_ctx(std::exchange(other.m_ctx, nullptr)), m_device(other.m_device), m_info(std::move(other.m_info)),
      m_createMs(other.m_createMs)
{
}

Context& Context::operator=(Context&& other) noexcept
{
    if (this != &other) {
        if (m_ctx != nullptr) {
            api().cuDevicePrimaryCtxRelease(m_device);
        }
        m_ctx = std::exchange(other.m_ctx, nullptr);
        m_device = other.m_device;
        m_info = std::move(other.m_info);
        m_createMs = other.m_createMs;
    }
    return *this;
}

engine::Status Context::makeCurrent() const
{
    return check(api().cuCtxSetCurrent(m_ctx), "cuCtxSetCurrent");
}

engine::Status Context::synchronize() const
{
    return check(api().cuCtxSynchronize(), "cuCtxSynchronize");
}

engine::Expected<Stream> Stream::create()
{
    Stream s;
    if (auto st = check(api().cuStreamCreate(&s.m_stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"); !st) {
        s.m_stream = nullptr;
        return st.error();
    }
    return s;
}

Stream::~Stream()
{
    if (m_stream != nullptr) {
        api().cuStreamDestroy(m_stream);
    }
}

Stream::Stream(Stream&& other) noexcept : m_stream(std::exchange(other.m_stream, nullptr)) {}

Stream& Stream::operator=(Stream&& other) noexcept
{
    if (this != &other) {
        if (m_stream != nullptr) {
            api().cuStreamDestroy(m_stream);
        }
        m_stream = std::exchange(other.m_stream, nullptr);
    }
    return *this;
}

engine::Status Stream::synchronize() const
{
    return check(api().cuStreamSynchronize(m_stream), "cuStreamSynchronize");
}

engine::Expected<Event> Event::create(bool timing)
{
    Event e;
    const unsigned flags = timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING;
    if (auto st = check(api().cuEventCreate(&e.m_event, flags), "cuEventCreate"); !st) {
        e.m_event = nullptr;
        return st.error();
    }
    return e;
}

Event::~Event()
{
    if (m_event != nullptr) {
        api().cuEventDestroy(m_event);
    }
}

Event::Event(Event&& other) noexcept : m_event(std::exchange(other.m_event, nullptr)) {}

Event& Event::operator=(Event&& other) noexcept
{
    if (this != &other) {
        if (m_event != nullptr) {
            api().cuEventDestroy(m_event);
        }
        m_event = std::exchange(other.m_event, nullptr);
    }
    return *this;
}

engine::Status Event::record(const Stream& stream) const
{
    return check(api().cuEventRecord(m_event, stream.handle()), "cuEventRecord");
}

engine::Status Event::synchronize() const
{
    return check(api().cuEventSynchronize(m_event), "cuEventSynchronize");
}

engine::Expected<float> Event::elapsedMsSince(const Event& start) const
{
    float ms = 0;
    if (auto st = check(api().cuEventElapsedTime(&ms, start.m_event, m_event), "cuEventElapsedTime"); !st) {
        return st.error();
    }
    return ms;
}

} // namespace tkm::cuda
