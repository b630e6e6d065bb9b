// engine/common: dtypes and host rounding, poison, hashing, paths, Expected.

#include "engine/common/dtype.h"
#include "engine/common/error.h"
#include "engine/common/hash.h"
#include "engine/common/paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace tkm::engine;

TEST(DType, SizesNamesAndCudaTypes)
{
    EXPECT_EQ(dtypeBytes(DType::F16), 2);
    EXPECT_EQ(dtypeBytes(DType::BF16), 2);
    EXPECT_EQ(dtypeBytes(DType::F32), 4);
    EXPECT_EQ(dtypeBytes(DType::F64), 8);
    EXPECT_EQ(dtypeBytes(DType::I32), 4);
    EXPECT_EQ(dtypeBytes(DType::I64), 8);
    EXPECT_EQ(dtypeCudaType(DType::F16), "__half");
    EXPECT_EQ(dtypeCudaType(DType::BF16), "__nv_bfloat16");
    EXPECT_EQ(dtypeCudaType(DType::I64), "long long");
    EXPECT_EQ(parseDType("bf16"), DType::BF16);
    EXPECT_FALSE(parseDType("f8").has_value());
    EXPECT_EQ(referenceDType(DType::F16), DType::F64);
    EXPECT_EQ(referenceDType(DType::I32), DType::I32);
}

TEST(DType, HalfRoundsToNearestEven)
{
    EXPECT_EQ(doubleToHalfBits(1.0), 0x3C00);
    EXPECT_EQ(doubleToHalfBits(-2.0), 0xC000);
    EXPECT_EQ(doubleToHalfBits(65504.0), 0x7BFF);                        // largest finite
    EXPECT_EQ(doubleToHalfBits(65519.99), 0x7BFF);                       // below the rounding boundary
    EXPECT_EQ(doubleToHalfBits(65520.0), 0x7C00);                        // ties to even → overflow to inf
    EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);           // smallest subnormal
    EXPECT_EQ(doubleToHalfBits(std::ldexp(1.0, -25)), 0x0000);           // tie → even (0)
    EXPECT_EQ(doubleToHalfBits(std::ldexp(3.0, -25)), 0x0002);           // tie → even (2)
    EXPECT_EQ(doubleToHalfBits(1.0 + std::ldexp(1.0, -11)), 0x3C00);     // tie → even
    EXPECT_EQ(doubleToHalfBits(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02); // tie → even (up)
    EXPECT_EQ(doubleToHalfBits(std::ldexp(1023.0, -24) + std::ldexp(1.0, -25)), 0x0400); // carry into normal
    EXPECT_EQ(doubleToHalfBits(-0.0), 0x8000);
    EXPECT_EQ(doubleToHalfBits(std::numeric_limits<double>::infinity()), 0x7C00);
    const uint16_t nan = doubleToHalfBits(std::nan(""));
    EXPECT_EQ(nan & 0x7C00, 0x7C00);
    EXPECT_NE(nan & 0x03FF, 0);
    EXPECT_EQ(halfBitsToDouble(0x3555), 0.333251953125);
    EXPECT_EQ(halfBitsToDouble(0x0001), std::ldexp(1.0, -24));
    // Every half value survives a round trip.
    for (uint32_t b = 0; b < 0x7C00; ++b) {
        ASSERT_EQ(doubleToHalfBits(halfBitsToDouble(static_cast<uint16_t>(b))), b);
    }
}

TEST(DType, Bf16RoundsStraightFromDouble)
{
    EXPECT_EQ(doubleToBf16Bits(1.0), 0x3F80);
    EXPECT_EQ(doubleToBf16Bits(1.0 + std::ldexp(1.0, -8)), 0x3F80); // tie → even
    EXPECT_EQ(doubleToBf16Bits(1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82);
    // Just above the tie: a double-rounding path through float would land on the tie and round to even.
    EXPECT_EQ(doubleToBf16Bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3F81);
    EXPECT_EQ(doubleToBf16Bits(3.0e38), 0x7F62);
    EXPECT_EQ(doubleToBf16Bits(1e39), 0x7F80); // overflow → inf
    EXPECT_EQ(bf16BitsToDouble(0xC040), -3.0);
    for (uint32_t b = 0; b < 0x7F80; ++b) {
        ASSERT_EQ(doubleToBf16Bits(bf16BitsToDouble(static_cast<uint16_t>(b))), b);
    }
}

TEST(DType, StoreLoadAndRounding)
{
    std::byte buf[8];
    storeAs(DType::F32, 0.1, buf);
    EXPECT_EQ(loadAs(DType::F32, buf), static_cast<double>(0.1f));
    storeAs(DType::I32, 2.6, buf);
    EXPECT_EQ(loadAs(DType::I32, buf), 3.0);
    storeAs(DType::I32, 1e12, buf);
    EXPECT_EQ(loadAs(DType::I32, buf), 2147483647.0); // saturated
    EXPECT_EQ(roundToDType(DType::F16, 0.1), 0.0999755859375);
    EXPECT_EQ(roundToDType(DType::F64, 0.1), 0.1);
}

TEST(DType, PoisonIsARecognisableQuietNaN)
{
    for (DType t : {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I32, DType::I64}) {
        std::byte buf[3 * 8];
        fillPoison(t, buf, 3);
        for (int i = 0; i < 3; ++i) {
            EXPECT_TRUE(isPoison(t, buf + i * dtypeBytes(t))) << dtypeName(t);
        }
        if (isFloating(t)) {
            EXPECT_TRUE(std::isnan(loadAs(t, buf))) << dtypeName(t);
        }
        // A value computed by a kernel is not poison, not even the canonical NaN.
        storeAs(t, 1.5, buf);
        EXPECT_FALSE(isPoison(t, buf));
    }
    const uint32_t canonical = 0x7FFFFFFF;
    std::byte f[4];
    std::memcpy(f, &canonical, 4);
    EXPECT_FALSE(isPoison(DType::F32, f));
    EXPECT_EQ(poisonBits(DType::F32), 0x7FC0DEADu);
    EXPECT_EQ(poisonBits(DType::I32), 0x7EADBEEFu);
}

TEST(Hash, Fnv1a128KnownVectors)
{
    // Offset basis for the empty input, and the FNV reference value for "a".
    EXPECT_EQ(contentHash(""), "6c62272e07bb014262b821756295c58d");
    EXPECT_EQ(contentHash("a"), "d228cb696f1a8caf78912b704e4a8964");
    EXPECT_NE(Hasher().addField("ab").addField("c").hex(), Hasher().addField("a").addField("bc").hex());
    EXPECT_EQ(contentHash("kernel").size(), 32u);
    EXPECT_NE(mix64(1), mix64(2));
}

TEST(Paths, EnvironmentOverrides)
{
    ::setenv("TKM_CACHE_DIR", "/tmp/tkm-cache-test", 1);
    EXPECT_EQ(cacheDir(), std::filesystem::path("/tmp/tkm-cache-test"));
    ::unsetenv("TKM_CACHE_DIR");
    ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
    EXPECT_EQ(cacheDir(), std::filesystem::path("/tmp/xdg/tkm"));
    ::unsetenv("XDG_CACHE_HOME");
    ::setenv("HOME", "/home/learner", 1);
    EXPECT_EQ(cacheDir(), std::filesystem::path("/home/learner/.cache/tkm"));
    ::setenv("TKM_CONTENT_DIR", "/srv/content", 1);
    EXPECT_EQ(contentDir(), std::filesystem::path("/srv/content"));
    ::setenv("TKM_CUDA_ROOT", "/opt/cuda", 1);
    EXPECT_EQ(cudaRoot(), std::filesystem::path("/opt/cuda"));
}

TEST(Paths, SafeRelativePaths)
{
    EXPECT_TRUE(isSafeRelativePath("bugs/no-mask.cu"));
    EXPECT_TRUE(isSafeRelativePath("a..b.cu"));
    EXPECT_FALSE(isSafeRelativePath("/etc/passwd"));
    EXPECT_FALSE(isSafeRelativePath("../other/x.cu"));
    EXPECT_FALSE(isSafeRelativePath("bugs/../../x.cu"));
    EXPECT_FALSE(isSafeRelativePath(""));
}

TEST(Paths, AtomicWriteAndRead)
{
    const auto dir = std::filesystem::temp_directory_path() / ("tkm-common-" + std::to_string(::getpid()));
    const auto file = dir / "sub" / "x.bin";
    ASSERT_TRUE(writeFileAtomic(file, std::string_view("abc\0def", 7)).ok());
    auto back = readTextFile(file);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, std::string("abc\0def", 7));
    auto missing = readTextFile(dir / "nope");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().kind, ErrorKind::Io);
    EXPECT_NE(missing.error().message.find("nope"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(Expected, HoldsValueOrError)
{
    Expected<int> a = 3;
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(*a, 3);
    Expected<int> b = makeError(ErrorKind::BadSpec, "bad");
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().message, "bad");
    EXPECT_EQ(errorKindName(b.error().kind), "bad-spec");
    Status s;
    EXPECT_TRUE(s.ok());
    Status f = makeError(ErrorKind::Io, "x");
    EXPECT_FALSE(f.ok());
}
