#pragma once
// Element types of kernel buffers and scalars, their sizes and CUDA names, host-side f16/bf16 rounding,
// and the poison bit patterns written into output buffers so unwritten elements are found by exact compare.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tkm::engine {

/// Element type of a buffer or scalar (docs/exercise-spec.md: f16, bf16, f32, f64, i32, i64).
enum class DType { F16, BF16, F32, F64, I32, I64 };

/// Size of one element [bytes]: 2, 2, 4, 8, 4, 8.
int64_t dtypeBytes(DType t);
/// Spec name: "f16", "bf16", "f32", "f64", "i32", "i64".
std::string_view dtypeName(DType t);
/// CUDA C++ type: "__half", "__nv_bfloat16", "float", "double", "int", "long long".
std::string_view dtypeCudaType(DType t);
/// Parses a spec name ("f32"); nullopt when unknown.
std::optional<DType> parseDType(std::string_view name);
/// True for f16, bf16, f32, f64.
bool isFloating(DType t);
/// The element type the float64 reference kernel uses for a buffer of type t: f64 for floats, t for integers.
DType referenceDType(DType t);

/// IEEE binary16 bits nearest to x (round to nearest even; overflow → ±inf, NaN → quiet NaN 0x7E00).
uint16_t doubleToHalfBits(double x);
/// bfloat16 bits nearest to x (round to nearest even, straight from double: no double rounding via float).
uint16_t doubleToBf16Bits(double x);
/// Exact value of binary16 bits.
double halfBitsToDouble(uint16_t bits);
/// Exact value of bfloat16 bits.
double bf16BitsToDouble(uint16_t bits);

/// x rounded to type t and widened back to double (integers: rounded to nearest, saturated to the type's range).
double roundToDType(DType t, double x);
/// Writes x rounded to t into `dst` (dtypeBytes(t) bytes, little-endian host order).
void storeAs(DType t, double x, std::byte* dst);
/// Reads one element of type t from `src` and widens it to double (exact for all types but i64 beyond 2^53).
double loadAs(DType t, const std::byte* src);

/// Poison bits of type t (low dtypeBytes(t) bytes): a quiet NaN with payload 0xDEAD… for floats
/// (f16 0x7EAD, bf16 0x7FED, f32 0x7FC0DEAD, f64 0x7FF8DEADBEEFDEAD; a kernel's own NaN is 0x7FFF… and differs),
/// 0x7EADBEEF / 0x7EADBEEF7EADBEEF for i32 / i64.
uint64_t poisonBits(DType t);
/// Fills `elements` elements at dst with the poison pattern of t.
void fillPoison(DType t, std::byte* dst, int64_t elements);
/// True when the element at src has exactly the poison bits of t.
bool isPoison(DType t, const std::byte* src);

} // namespace tkm::engine
