#pragma once
// RAII owners of CUDA driver objects that the engine keeps: the device's primary context, streams and events.
// All are move-only; destruction releases the handle and ignores errors (a sticky error makes every call fail).
// Creating the primary context costs 320–350 ms on an H200 (../shared/DESIGN.md): the worker keeps one warm.

#include "engine/common/error.h"
#include "engine/cuda/device.h"

#include <cuda.h>

namespace tkm::cuda {

/// The primary context of one device, retained for the owner's lifetime and made current on creation.
class Context
{
public:
    /// Retains device `ordinal`'s primary context and makes it current on this thread.
    /// Errors: NoDriver/NoGpu when CUDA is unavailable, Cuda when the device or context cannot be used.
    static engine::Expected<Context> create(int ordinal = 0);

    Context() = default;                          ///< empty (no context)
    ~Context();                                   ///< releases the primary context
    Context(Context&& other) noexcept;            ///< moves ownership
    Context& operator=(Context&& other) noexcept; ///< moves ownership
    Context(const Context&) = delete;             ///< owner: not copyable
    Context& operator=(const Context&) = delete;  ///< owner: not copyable

    /// Makes the context current on the calling thread (the worker may call from another thread).
    engine::Status makeCurrent() const;
    /// Waits for all work of the context; a kernel fault surfaces here (sticky error).
    engine::Status synchronize() const;
    CUcontext handle() const { return m_ctx; }        ///< raw handle (not owned by the caller)
    CUdevice device() const { return m_device; }      ///< raw device
    const DeviceInfo& info() const { return m_info; } ///< properties of the device
    bool valid() const { return m_ctx != nullptr; }   ///< holds a context
    double createMs() const { return m_createMs; }    ///< wall time of create() [ms]

private:
    CUcontext m_ctx = nullptr;
    CUdevice m_device = 0;
    DeviceInfo m_info;
    double m_createMs = 0;
};

/// A non-blocking CUDA stream.
class Stream
{
public:
    /// Creates a stream (CU_STREAM_NON_BLOCKING) in the current context.
    static engine::Expected<Stream> create();

    Stream() = default;                         ///< empty: the legacy default stream (handle nullptr)
    ~Stream();                                  ///< destroys the stream
    Stream(Stream&& other) noexcept;            ///< moves ownership
    Stream& operator=(Stream&& other) noexcept; ///< moves ownership
    Stream(const Stream&) = delete;             ///< owner: not copyable
    Stream& operator=(const Stream&) = delete;  ///< owner: not copyable

    /// Waits for the stream's work; a kernel fault surfaces here.
    engine::Status synchronize() const;
    CUstream handle() const { return m_stream; } ///< raw handle

private:
    CUstream m_stream = nullptr;
};

/// A CUDA event (timing enabled unless asked otherwise).
class Event
{
public:
    /// Creates an event in the current context; `timing` false gives CU_EVENT_DISABLE_TIMING.
    static engine::Expected<Event> create(bool timing = true);

    Event() = default;                        ///< empty
    ~Event();                                 ///< destroys the event
    Event(Event&& other) noexcept;            ///< moves ownership
    Event& operator=(Event&& other) noexcept; ///< moves ownership
    Event(const Event&) = delete;             ///< owner: not copyable
    Event& operator=(const Event&) = delete;  ///< owner: not copyable

    /// Records the event on `stream`.
    engine::Status record(const Stream& stream) const;
    /// Waits until the event has completed.
    engine::Status synchronize() const;
    /// Time from `start` to this event [ms] (both recorded and completed; resolution about 0.5 µs).
    engine::Expected<float> elapsedMsSince(const Event& start) const;
    CUevent handle() const { return m_event; } ///< raw handle

private:
    CUevent m_event = nullptr;
};

} // namespace tkm::cuda
