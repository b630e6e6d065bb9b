// The tile runtime: device helpers every lowered kernel includes (layout indices, conversions with Triton's
// rounding, Triton's numerics for math, vector memory access, atomics). Kept as text: the lowering prepends it.

#include "engine/triton/lower/lower_impl.h"

namespace tkm::triton::lower {

const char* runtimeSource()
{
    return R"TKM(
namespace tkm {
template <class A, class B> struct same { static constexpr bool value = false; };
template <class A> struct same<A, A> { static constexpr bool value = true; };
/// Flat (row-major) index of register slot i of this thread in a tile of N elements, SPT per thread.
template <int N, int SPT, int NT> __device__ __forceinline__ int flat(int i)
{
    return ((i / SPT) * (SPT * NT) + (int)threadIdx.x * SPT + (i % SPT)) & (N - 1);
}
/// flat() of a tile that is not replicated (numel = slots × threads): no wrap-around.
template <int SPT, int NT> __device__ __forceinline__ int flat_exact(int i)
{
    return (i / SPT) * (SPT * NT) + (int)threadIdx.x * SPT + (i % SPT);
}
/// Whether slot i of this thread is the unique owner of its element (not a replica).
template <int N, int SPT, int NT> __device__ __forceinline__ bool owner(int i)
{
    return (i / SPT) * (SPT * NT) + (int)threadIdx.x * SPT + (i % SPT) < N;
}
template <class T> __device__ __forceinline__ T up(T x) { return x; }
#ifdef TKM_FP16
__device__ __forceinline__ float up(__half x) { return __half2float(x); }
#endif
#ifdef TKM_BF16
__device__ __forceinline__ float up(__nv_bfloat16 x) { return __bfloat162float(x); }
#endif
/// Conversion with Triton's rules: to bool is != 0, to fp16/bf16 rounds to nearest even (rtz when asked).
template <class To, bool RTZ = false, class From> __device__ __forceinline__ To cast(From x)
{
    if constexpr (same<To, From>::value) {
        return x;
    } else if constexpr (same<To, bool>::value) {
        return up(x) != 0;
#ifdef TKM_FP16
    } else if constexpr (same<To, __half>::value) {
        if constexpr (same<From, double>::value) return __double2half(x);
        else if constexpr (RTZ) return __float2half_rz((float)up(x));
        else return __float2half_rn((float)up(x));
#endif
#ifdef TKM_BF16
    } else if constexpr (same<To, __nv_bfloat16>::value) {
        if constexpr (same<From, double>::value) return __double2bfloat16(x);
        else if constexpr (RTZ) return __float2bfloat16_rz((float)up(x));
        else return __float2bfloat16_rn((float)up(x));
#endif
    } else {
        return (To)up(x);
    }
}
template <class To, class From> __device__ __forceinline__ To bitcast(From x)
{
    static_assert(sizeof(To) == sizeof(From), "bitcast of different widths");
    To t;
    memcpy(&t, &x, sizeof t);
    return t;
}
/// fp32 exp as Triton lowers it: ex2.approx.f32 of x·log2(e).
__device__ __forceinline__ float exp_f32(float x)
{
    float y;
    asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x * 1.4426950408889634f));
    return y;
}
__device__ __forceinline__ float exp2_f32(float x)
{
    float y;
    asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
__device__ __forceinline__ float exp_(float x) { return exp_f32(x); }
__device__ __forceinline__ double exp_(double x) { return ::exp(x); }
__device__ __forceinline__ float exp2_(float x) { return exp2_f32(x); }
__device__ __forceinline__ double exp2_(double x) { return ::exp2(x); }
__device__ __forceinline__ float div_(float a, float b) { return __fdiv_rn(a, b); }
/// fp32 `/` as Triton 3.6 lowers it (ElementwiseOpToLLVM: div.full.f32, within 2 ulp).
__device__ __forceinline__ float div_full(float a, float b)
{
    float y;
    asm("div.full.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));
    return y;
}
__device__ __forceinline__ double div_full(double a, double b) { return a / b; }
__device__ __forceinline__ double div_(double a, double b) { return a / b; }
__device__ __forceinline__ float sqrt_(float a) { return __fsqrt_rn(a); }
__device__ __forceinline__ double sqrt_(double a) { return ::sqrt(a); }
__device__ __forceinline__ float rsqrt_(float a) { return rsqrtf(a); }
__device__ __forceinline__ double rsqrt_(double a) { return ::rsqrt(a); }
__device__ __forceinline__ float sigmoid_(float a) { return __fdiv_rn(1.0f, 1.0f + exp_f32(-a)); }
__device__ __forceinline__ double sigmoid_(double a) { return 1.0 / (1.0 + ::exp(-a)); }
template <class T> __device__ __forceinline__ T abs_(T a) { return a < 0 ? -a : a; }
__device__ __forceinline__ float abs_(float a) { return fabsf(a); }
__device__ __forceinline__ double abs_(double a) { return fabs(a); }
template <class T> __device__ __forceinline__ bool isnan_(T a) { return a != a; }
/// tl.minimum / tl.maximum: NaN-ignoring (NONE) or NaN-propagating (ALL) for floats.
template <bool ALL, class T> __device__ __forceinline__ T min_(T a, T b)
{
    if (isnan_(a)) return ALL ? a : b;
    if (isnan_(b)) return ALL ? b : a;
    return b < a ? b : a;
}
template <bool ALL, class T> __device__ __forceinline__ T max_(T a, T b)
{
    if (isnan_(a)) return ALL ? a : b;
    if (isnan_(b)) return ALL ? b : a;
    return b > a ? b : a;
}
template <class T> __device__ __forceinline__ T floordiv_(T a, T b)
{
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
__device__ __forceinline__ float tf32_(float x)
{
    unsigned u = __float_as_uint(x);
    if ((u & 0x7f800000u) != 0x7f800000u) {
        u += 0xfffu + ((u >> 13) & 1u);
        u &= 0xffffe000u;
    }
    return __uint_as_float(u);
}
__device__ __forceinline__ unsigned umulhi_(unsigned a, unsigned b) { return __umulhi(a, b); }
__device__ __forceinline__ int umulhi_(int a, int b) { return __mulhi(a, b); }
__device__ __forceinline__ unsigned long long umulhi_(unsigned long long a, unsigned long long b) { return __umul64hi(a, b); }
__device__ __forceinline__ long long umulhi_(long long a, long long b) { return __mul64hi(a, b); }
template <int BYTES> struct vec;
template <> struct vec<16> { using type = uint4; };
template <> struct vec<8> { using type = uint2; };
template <> struct vec<4> { using type = unsigned; };
template <> struct vec<2> { using type = unsigned short; };
/// Loads n contiguous elements at p into r[0..n) with one access (p aligned to n·sizeof(T)).
template <int n, class T> __device__ __forceinline__ void vload(T* r, const T* p)
{
    using V = typename vec<n * (int)sizeof(T)>::type;
    V v = *reinterpret_cast<const V*>(p);
    memcpy(r, &v, sizeof v);
}
template <int n, class T> __device__ __forceinline__ void vstore(T* p, const T* r)
{
    using V = typename vec<n * (int)sizeof(T)>::type;
    V v;
    memcpy(&v, r, sizeof v);
    *reinterpret_cast<V*>(p) = v;
}
/// Atomic read-modify-write with a CAS loop on the bits (any 4- or 8-byte T; 2-byte via the aligned word).
template <class T, class F> __device__ T atomic_cas_loop(T* p, T v, F f)
{
    if constexpr (sizeof(T) == 8) {
        unsigned long long* a = reinterpret_cast<unsigned long long*>(p);
        unsigned long long old = *a, assumed;
        do {
            assumed = old;
            old = atomicCAS(a, assumed, bitcast<unsigned long long>(f(bitcast<T>(assumed), v)));
        } while (assumed != old);
        return bitcast<T>(old);
    } else if constexpr (sizeof(T) == 4) {
        unsigned* a = reinterpret_cast<unsigned*>(p);
        unsigned old = *a, assumed;
        do {
            assumed = old;
            old = atomicCAS(a, assumed, bitcast<unsigned>(f(bitcast<T>(assumed), v)));
        } while (assumed != old);
        return bitcast<T>(old);
    } else {
        static_assert(sizeof(T) == 2, "atomics on 1-byte elements are not supported");
        unsigned* a = reinterpret_cast<unsigned*>(reinterpret_cast<size_t>(p) & ~(size_t)3);
        const unsigned shift = (reinterpret_cast<size_t>(p) & 2) ? 16u : 0u;
        unsigned old = *a, assumed;
        do {
            assumed = old;
            const T cur = bitcast<T>((unsigned short)(assumed >> shift));
            const unsigned short nv = bitcast<unsigned short>(f(cur, v));
            old = atomicCAS(a, assumed, (assumed & ~(0xffffu << shift)) | ((unsigned)nv << shift));
        } while (assumed != old);
        return bitcast<T>((unsigned short)(old >> shift));
    }
}
template <class T> __device__ T atomic_rmw(int kind, T* p, T v)
{
    switch (kind) {
    case 0: return atomic_cas_loop(p, v, [](T a, T b) { return cast<T>(up(a) + up(b)); });
    case 1: return atomic_cas_loop(p, v, [](T a, T b) { return max_<false>(a, b); });
    case 2: return atomic_cas_loop(p, v, [](T a, T b) { return min_<false>(a, b); });
    case 3: return atomic_cas_loop(p, v, [](T a, T b) { return (T)(a & b); });
    case 4: return atomic_cas_loop(p, v, [](T a, T b) { return (T)(a | b); });
    case 5: return atomic_cas_loop(p, v, [](T a, T b) { return (T)(a ^ b); });
    default: return atomic_cas_loop(p, v, [](T, T b) { return b; });
    }
}
template <class T> __device__ T atomic_rmw_f(int kind, T* p, T v)
{
    switch (kind) {
    case 0: return atomic_cas_loop(p, v, [](T a, T b) { return cast<T>(up(a) + up(b)); });
    case 1: return atomic_cas_loop(p, v, [](T a, T b) { return max_<false>(a, b); });
    case 2: return atomic_cas_loop(p, v, [](T a, T b) { return min_<false>(a, b); });
    default: return atomic_cas_loop(p, v, [](T, T b) { return b; });
    }
}
__device__ __forceinline__ float atomic_rmw_f(int kind, float* p, float v)
{
    if (kind == 0) return atomicAdd(p, v);
    if (kind == 6) return atomicExch(p, v);
    return atomic_cas_loop(p, v, [kind](float a, float b) { return kind == 1 ? max_<false>(a, b) : min_<false>(a, b); });
}
__device__ __forceinline__ int atomic_rmw(int kind, int* p, int v)
{
    switch (kind) {
    case 0: return atomicAdd(p, v);
    case 1: return atomicMax(p, v);
    case 2: return atomicMin(p, v);
    case 3: return atomicAnd(p, v);
    case 4: return atomicOr(p, v);
    case 5: return atomicXor(p, v);
    default: return atomicExch(p, v);
    }
}
__device__ __forceinline__ unsigned atomic_rmw(int kind, unsigned* p, unsigned v)
{
    switch (kind) {
    case 0: return atomicAdd(p, v);
    case 1: return atomicMax(p, v);
    case 2: return atomicMin(p, v);
    case 3: return atomicAnd(p, v);
    case 4: return atomicOr(p, v);
    case 5: return atomicXor(p, v);
    default: return atomicExch(p, v);
    }
}
template <class T> __device__ T atomic_cas(T* p, T cmp, T val)
{
    if constexpr (sizeof(T) == 8) {
        return bitcast<T>(atomicCAS(reinterpret_cast<unsigned long long*>(p), bitcast<unsigned long long>(cmp),
                                    bitcast<unsigned long long>(val)));
    } else if constexpr (sizeof(T) == 4) {
        return bitcast<T>(atomicCAS(reinterpret_cast<unsigned*>(p), bitcast<unsigned>(cmp), bitcast<unsigned>(val)));
    } else {
        static_assert(sizeof(T) == 2, "atomic_cas on 1-byte elements is not supported");
        return bitcast<T>(atomicCAS(reinterpret_cast<unsigned short*>(p), bitcast<unsigned short>(cmp),
                                    bitcast<unsigned short>(val)));
    }
}
/// Identities of max / min reductions.
template <class T> __device__ __forceinline__ T lowest();
template <> __device__ __forceinline__ float lowest<float>() { return -__int_as_float(0x7f800000); }
template <> __device__ __forceinline__ double lowest<double>() { return -__longlong_as_double(0x7ff0000000000000LL); }
template <> __device__ __forceinline__ int lowest<int>() { return (int)0x80000000u; }
template <> __device__ __forceinline__ long long lowest<long long>() { return (long long)0x8000000000000000ULL; }
template <> __device__ __forceinline__ unsigned lowest<unsigned>() { return 0u; }
template <> __device__ __forceinline__ unsigned long long lowest<unsigned long long>() { return 0ull; }
template <class T> __device__ __forceinline__ T highest();
template <> __device__ __forceinline__ float highest<float>() { return __int_as_float(0x7f800000); }
template <> __device__ __forceinline__ double highest<double>() { return __longlong_as_double(0x7ff0000000000000LL); }
template <> __device__ __forceinline__ int highest<int>() { return 0x7fffffff; }
template <> __device__ __forceinline__ long long highest<long long>() { return 0x7fffffffffffffffLL; }
template <> __device__ __forceinline__ unsigned highest<unsigned>() { return 0xffffffffu; }
template <> __device__ __forceinline__ unsigned long long highest<unsigned long long>() { return ~0ull; }
template <class T> __device__ __forceinline__ double print_(T x) { return (double)up(x); }
} // namespace tkm
)TKM";
}

} // namespace tkm::triton::lower
