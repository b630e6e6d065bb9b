#include "engine/common/error.h"

namespace tkm::engine {

std::string_view errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::BadSpec:
        return "bad-spec";
    case ErrorKind::BadInput:
        return "bad-input";
    case ErrorKind::Expression:
        return "expression";
    case ErrorKind::Io:
        return "io";
    case ErrorKind::Nvrtc:
        return "nvrtc";
    case ErrorKind::NoGpu:
        return "no-gpu";
    case ErrorKind::NoDriver:
        return "no-driver";
    case ErrorKind::Cuda:
        return "cuda";
    case ErrorKind::Internal:
        return "internal";
    }
    return "internal";
}

Error makeError(ErrorKind kind, std::string message, std::string detail)
{
    return Error{kind, std::move(message), std::move(detail)};
}

} // namespace tkm::engine
