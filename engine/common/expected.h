#pragma once
// The one value-or-error type of the project (a C++20 stand-in for std::expected): BasicExpected<T, E> holds a T
// or an error E. Each library names its own error type and alias: engine::Expected<T> (engine/common/error.h),
// progress::Expected<T> (modules/progress/result.h).

#include <utility>
#include <variant>

namespace tkm {

/// Either a value or an error. Construct from a T or an E.
template <class T, class E> class BasicExpected
{
public:
    BasicExpected(T value) : m_v(std::in_place_index<0>, std::move(value)) {} ///< success
    BasicExpected(E error) : m_v(std::in_place_index<1>, std::move(error)) {} ///< failure

    bool ok() const { return m_v.index() == 0; }           ///< true when a value is held
    explicit operator bool() const { return ok(); }        ///< same as ok()
    T& value() & { return std::get<0>(m_v); }              ///< the value (precondition: ok())
    const T& value() const& { return std::get<0>(m_v); }   ///< the value (precondition: ok())
    T&& value() && { return std::get<0>(std::move(m_v)); } ///< the value, moved out
    T& operator*() & { return value(); }                   ///< the value
    const T& operator*() const& { return value(); }        ///< the value
    T* operator->() { return &value(); }                   ///< member access to the value
    const T* operator->() const { return &value(); }       ///< member access to the value
    const E& error() const { return std::get<1>(m_v); }    ///< the error (precondition: !ok())

private:
    std::variant<T, E> m_v;
};

/// Success-or-error for calls that return nothing.
template <class E> class BasicExpected<void, E>
{
public:
    BasicExpected() = default;                                            ///< success
    BasicExpected(E error) : m_error(std::move(error)), m_failed(true) {} ///< failure
    bool ok() const { return !m_failed; }                                 ///< true on success
    explicit operator bool() const { return ok(); }                       ///< same as ok()
    const E& error() const { return m_error; }                            ///< the error (precondition: !ok())

private:
    E m_error;
    bool m_failed = false;
};

} // namespace tkm
