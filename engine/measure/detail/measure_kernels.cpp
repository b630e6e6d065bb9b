#include "engine/measure/detail/measure_kernels.h"

#include "engine/cuda/driver.h"

#include <utility>

namespace tkm::measure::detail {
namespace {

// Generated once with `nvcc -ptx -arch=compute_75` (CUDA 13.0) from this source, then lowered to PTX ISA 7.5 so
// drivers back to CUDA 11.5 can JIT it:
//
//   extern "C" __global__ void tkm_l2_flush(const uint4* __restrict__ p, unsigned long long n, unsigned magic,
//                                           unsigned* sink) {
//       unsigned acc = 0;
//       for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
//            i += (unsigned long long)gridDim.x * blockDim.x) {
//           uint4 v = __ldcg(p + i);
//           acc ^= v.x ^ v.y ^ v.z ^ v.w;
//       }
//       if (acc == magic) *sink = acc;
//   }
//   extern "C" __global__ void tkm_copy(uint4* __restrict__ dst, const uint4* __restrict__ src,
//                                       unsigned long long n) {
//       for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
//            i += (unsigned long long)gridDim.x * blockDim.x)
//           dst[i] = src[i];
//   }
//   extern "C" __global__ void tkm_copy_bytes(unsigned char* __restrict__ dst, const unsigned char* __restrict__ src,
//                                             unsigned long long n)   // same loop, one byte per iteration
//
// The calibration kernels (issue 17: the ceiling is the best streaming kernel, vectorised and fully occupied):
//
//   extern "C" __global__ void tkm_copy4(uint4* __restrict__ dst, const uint4* __restrict__ src,
//                                        unsigned long long n)      // grid-stride, four 16-byte loads in flight
//   {                                                               // per thread before the four stores, then a
//       stride = gridDim.x * blockDim.x; i = global thread index;   // one-vector tail loop
//       for (; i + 3 * stride < n; i += 4 * stride) { a..d = src[i + {0,1,2,3} * stride]; dst[...] = a..d; }
//       for (; i < n; i += stride) dst[i] = src[i];
//   }
//   extern "C" __global__ void tkm_copy_tile(uint4* dst, const uint4* src, unsigned long long n)
//       // one tile of 2 * blockDim.x vectors per block (Triton's and torch's elementwise shape): thread t copies
//       // vectors t and t + blockDim.x of its tile, both loads before both stores
//   extern "C" __global__ void tkm_add_tile(float4* out, const float4* x, const float4* y, unsigned long long n)
//       // the same tile shape for out = x + y: two reads and one write per element, as a vector add
constexpr char kPtx[] = R"PTX(

.version 7.5
.target sm_75
.address_size 64

.visible .entry tkm_l2_flush(
	.param .u64 tkm_l2_flush_param_0,
	.param .u64 tkm_l2_flush_param_1,
	.param .u32 tkm_l2_flush_param_2,
	.param .u64 tkm_l2_flush_param_3
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd6, [tkm_l2_flush_param_0];
	ld.param.u64 	%rd7, [tkm_l2_flush_param_1];
	ld.param.u32 	%r4, [tkm_l2_flush_param_2];
	ld.param.u64 	%rd8, [tkm_l2_flush_param_3];
	mov.u32 	%r6, %ctaid.x;
	mov.u32 	%r7, %ntid.x;
	cvt.u64.u32 	%rd1, %r7;
	mul.wide.u32 	%rd9, %r6, %r7;
	mov.u32 	%r8, %tid.x;
	cvt.u64.u32 	%rd10, %r8;
	add.s64 	%rd15, %rd9, %rd10;
	setp.ge.u64 	%p1, %rd15, %rd7;
	mov.u32 	%r19, 0;
	@%p1 bra 	$L__BB0_3;

	mov.u32 	%r10, %nctaid.x;
	cvt.u64.u32 	%rd11, %r10;
	mul.lo.s64 	%rd3, %rd11, %rd1;
	mov.u32 	%r19, 0;

$L__BB0_2:
	shl.b64 	%rd13, %rd15, 4;
	add.s64 	%rd12, %rd6, %rd13;
	ld.global.cg.v4.u32 {%r11,%r12,%r13,%r14}, [%rd12];
	xor.b32  	%r15, %r12, %r19;
	xor.b32  	%r16, %r15, %r11;
	xor.b32  	%r17, %r16, %r13;
	xor.b32  	%r19, %r17, %r14;
	add.s64 	%rd15, %rd15, %rd3;
	setp.lt.u64 	%p2, %rd15, %rd7;
	@%p2 bra 	$L__BB0_2;

$L__BB0_3:
	setp.ne.s32 	%p3, %r19, %r4;
	@%p3 bra 	$L__BB0_5;

	cvta.to.global.u64 	%rd14, %rd8;
	st.global.u32 	[%rd14], %r4;

$L__BB0_5:
	ret;

}
.visible .entry tkm_copy(
	.param .u64 tkm_copy_param_0,
	.param .u64 tkm_copy_param_1,
	.param .u64 tkm_copy_param_2
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<13>;
	.reg .b64 	%rd<18>;

	ld.param.u64 	%rd8, [tkm_copy_param_0];
	ld.param.u64 	%rd9, [tkm_copy_param_1];
	ld.param.u64 	%rd10, [tkm_copy_param_2];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	cvt.u64.u32 	%rd1, %r2;
	mul.wide.u32 	%rd11, %r1, %r2;
	mov.u32 	%r3, %tid.x;
	cvt.u64.u32 	%rd12, %r3;
	add.s64 	%rd17, %rd11, %rd12;
	setp.ge.u64 	%p1, %rd17, %rd10;
	@%p1 bra 	$L__BB1_3;

	mov.u32 	%r4, %nctaid.x;
	cvt.u64.u32 	%rd13, %r4;
	mul.lo.s64 	%rd3, %rd13, %rd1;
	cvta.to.global.u64 	%rd4, %rd9;
	cvta.to.global.u64 	%rd5, %rd8;

$L__BB1_2:
	shl.b64 	%rd14, %rd17, 4;
	add.s64 	%rd15, %rd4, %rd14;
	add.s64 	%rd16, %rd5, %rd14;
	ld.global.nc.v4.u32 	{%r5, %r6, %r7, %r8}, [%rd15];
	st.global.v4.u32 	[%rd16], {%r5, %r6, %r7, %r8};
	add.s64 	%rd17, %rd17, %rd3;
	setp.lt.u64 	%p2, %rd17, %rd10;
	@%p2 bra 	$L__BB1_2;

$L__BB1_3:
	ret;

}
.visible .entry tkm_copy_bytes(
	.param .u64 tkm_copy_bytes_param_0,
	.param .u64 tkm_copy_bytes_param_1,
	.param .u64 tkm_copy_bytes_param_2
)
{
	.reg .pred 	%p<3>;
	.reg .b16 	%rs<2>;
	.reg .b32 	%r<5>;
	.reg .b64 	%rd<17>;

	ld.param.u64 	%rd8, [tkm_copy_bytes_param_0];
	ld.param.u64 	%rd9, [tkm_copy_bytes_param_1];
	ld.param.u64 	%rd10, [tkm_copy_bytes_param_2];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	cvt.u64.u32 	%rd1, %r2;
	mul.wide.u32 	%rd11, %r1, %r2;
	mov.u32 	%r3, %tid.x;
	cvt.u64.u32 	%rd12, %r3;
	add.s64 	%rd16, %rd11, %rd12;
	setp.ge.u64 	%p1, %rd16, %rd10;
	@%p1 bra 	$L__BB2_3;

	mov.u32 	%r4, %nctaid.x;
	cvt.u64.u32 	%rd13, %r4;
	mul.lo.s64 	%rd3, %rd13, %rd1;
	cvta.to.global.u64 	%rd4, %rd9;
	cvta.to.global.u64 	%rd5, %rd8;

$L__BB2_2:
	add.s64 	%rd14, %rd4, %rd16;
	ld.global.nc.u8 	%rs1, [%rd14];
	add.s64 	%rd15, %rd5, %rd16;
	st.global.u8 	[%rd15], %rs1;
	add.s64 	%rd16, %rd16, %rd3;
	setp.lt.u64 	%p2, %rd16, %rd10;
	@%p2 bra 	$L__BB2_2;

$L__BB2_3:
	ret;

}

.visible .entry tkm_copy4(
	.param .u64 tkm_copy4_param_0,
	.param .u64 tkm_copy4_param_1,
	.param .u64 tkm_copy4_param_2
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<45>;
	.reg .b64 	%rd<46>;


	ld.param.u64 	%rd19, [tkm_copy4_param_0];
	ld.param.u64 	%rd20, [tkm_copy4_param_1];
	ld.param.u64 	%rd18, [tkm_copy4_param_2];
	cvta.to.global.u64 	%rd1, %rd19;
	cvta.to.global.u64 	%rd2, %rd20;
	mov.u32 	%r1, %nctaid.x;
	cvt.u64.u32 	%rd3, %r1;
	mov.u32 	%r2, %ntid.x;
	cvt.u64.u32 	%rd4, %r2;
	mul.wide.u32 	%rd5, %r1, %r2;
	mov.u32 	%r3, %ctaid.x;
	mul.wide.u32 	%rd21, %r3, %r2;
	mov.u32 	%r4, %tid.x;
	cvt.u64.u32 	%rd22, %r4;
	add.s64 	%rd44, %rd21, %rd22;
	mul.lo.s64 	%rd7, %rd5, 3;
	add.s64 	%rd23, %rd44, %rd7;
	setp.ge.u64 	%p1, %rd23, %rd18;
	@%p1 bra 	$L__BB0_3;

	mul.lo.s64 	%rd24, %rd3, %rd4;
	shl.b64 	%rd8, %rd24, 4;
	shl.b64 	%rd25, %rd44, 4;
	add.s64 	%rd43, %rd1, %rd25;
	neg.s64 	%rd10, %rd24;
	shl.b64 	%rd33, %rd10, 4;

$L__BB0_2:
	shl.b64 	%rd26, %rd44, 4;
	add.s64 	%rd27, %rd2, %rd26;
	shl.b64 	%rd28, %rd5, 2;
	shl.b64 	%rd29, %rd5, 4;
	add.s64 	%rd30, %rd27, %rd29;
	ld.global.nc.v4.u32 	{%r5, %r6, %r7, %r8}, [%rd30];
	add.s64 	%rd31, %rd30, %rd8;
	ld.global.nc.v4.u32 	{%r13, %r14, %r15, %r16}, [%rd31];
	add.s64 	%rd32, %rd31, %rd8;
	ld.global.nc.v4.u32 	{%r21, %r22, %r23, %r24}, [%rd32];
	add.s64 	%rd34, %rd30, %rd33;
	ld.global.nc.v4.u32 	{%r29, %r30, %r31, %r32}, [%rd34];
	st.global.v4.u32 	[%rd43], {%r29, %r30, %r31, %r32};
	add.s64 	%rd35, %rd43, %rd8;
	st.global.v4.u32 	[%rd35], {%r5, %r6, %r7, %r8};
	add.s64 	%rd36, %rd35, %rd8;
	st.global.v4.u32 	[%rd36], {%r13, %r14, %r15, %r16};
	add.s64 	%rd37, %rd36, %rd8;
	add.s64 	%rd43, %rd37, %rd8;
	st.global.v4.u32 	[%rd37], {%r21, %r22, %r23, %r24};
	add.s64 	%rd44, %rd28, %rd44;
	add.s64 	%rd38, %rd44, %rd7;
	setp.lt.u64 	%p2, %rd38, %rd18;
	@%p2 bra 	$L__BB0_2;

$L__BB0_3:
	setp.ge.u64 	%p3, %rd44, %rd18;
	@%p3 bra 	$L__BB0_5;

$L__BB0_4:
	shl.b64 	%rd39, %rd44, 4;
	add.s64 	%rd40, %rd2, %rd39;
	add.s64 	%rd41, %rd1, %rd39;
	ld.global.nc.v4.u32 	{%r37, %r38, %r39, %r40}, [%rd40];
	st.global.v4.u32 	[%rd41], {%r37, %r38, %r39, %r40};
	add.s64 	%rd44, %rd44, %rd5;
	setp.lt.u64 	%p4, %rd44, %rd18;
	@%p4 bra 	$L__BB0_4;

$L__BB0_5:
	ret;

}
.visible .entry tkm_copy_tile(
	.param .u64 tkm_copy_tile_param_0,
	.param .u64 tkm_copy_tile_param_1,
	.param .u64 tkm_copy_tile_param_2
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<28>;
	.reg .b64 	%rd<20>;


	ld.param.u64 	%rd8, [tkm_copy_tile_param_0];
	ld.param.u64 	%rd9, [tkm_copy_tile_param_1];
	ld.param.u64 	%rd7, [tkm_copy_tile_param_2];
	cvta.to.global.u64 	%rd10, %rd8;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	cvt.u64.u32 	%rd1, %r2;
	mul.wide.u32 	%rd11, %r1, %r2;
	shl.b64 	%rd12, %rd11, 1;
	mov.u32 	%r3, %tid.x;
	cvt.u64.u32 	%rd13, %r3;
	add.s64 	%rd2, %rd12, %rd13;
	add.s64 	%rd14, %rd2, %rd1;
	setp.lt.u64 	%p1, %rd14, %rd7;
	cvta.to.global.u64 	%rd15, %rd9;
	shl.b64 	%rd16, %rd2, 4;
	add.s64 	%rd4, %rd15, %rd16;
	add.s64 	%rd6, %rd10, %rd16;
	@%p1 bra 	$L__BB1_3;
	bra.uni 	$L__BB1_1;

$L__BB1_3:
	shl.b64 	%rd17, %rd1, 4;
	add.s64 	%rd18, %rd4, %rd17;
	ld.global.nc.v4.u32 	{%r12, %r13, %r14, %r15}, [%rd18];
	ld.global.nc.v4.u32 	{%r20, %r21, %r22, %r23}, [%rd4];
	st.global.v4.u32 	[%rd6], {%r20, %r21, %r22, %r23};
	add.s64 	%rd19, %rd6, %rd17;
	st.global.v4.u32 	[%rd19], {%r12, %r13, %r14, %r15};
	bra.uni 	$L__BB1_4;

$L__BB1_1:
	setp.ge.u64 	%p2, %rd2, %rd7;
	@%p2 bra 	$L__BB1_4;

	ld.global.nc.v4.u32 	{%r4, %r5, %r6, %r7}, [%rd4];
	st.global.v4.u32 	[%rd6], {%r4, %r5, %r6, %r7};

$L__BB1_4:
	ret;

}
.visible .entry tkm_add_tile(
	.param .u64 tkm_add_tile_param_0,
	.param .u64 tkm_add_tile_param_1,
	.param .u64 tkm_add_tile_param_2,
	.param .u64 tkm_add_tile_param_3
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<61>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<25>;


	ld.param.u64 	%rd10, [tkm_add_tile_param_0];
	ld.param.u64 	%rd11, [tkm_add_tile_param_1];
	ld.param.u64 	%rd12, [tkm_add_tile_param_2];
	ld.param.u64 	%rd9, [tkm_add_tile_param_3];
	cvta.to.global.u64 	%rd13, %rd10;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	cvt.u64.u32 	%rd1, %r2;
	mul.wide.u32 	%rd14, %r1, %r2;
	shl.b64 	%rd15, %rd14, 1;
	mov.u32 	%r3, %tid.x;
	cvt.u64.u32 	%rd16, %r3;
	add.s64 	%rd2, %rd15, %rd16;
	add.s64 	%rd17, %rd2, %rd1;
	setp.lt.u64 	%p1, %rd17, %rd9;
	cvta.to.global.u64 	%rd18, %rd11;
	shl.b64 	%rd19, %rd2, 4;
	add.s64 	%rd4, %rd18, %rd19;
	cvta.to.global.u64 	%rd20, %rd12;
	add.s64 	%rd6, %rd20, %rd19;
	add.s64 	%rd8, %rd13, %rd19;
	@%p1 bra 	$L__BB2_3;
	bra.uni 	$L__BB2_1;

$L__BB2_3:
	ld.global.nc.v4.f32 	{%f21, %f22, %f23, %f24}, [%rd4];
	shl.b64 	%rd21, %rd1, 4;
	add.s64 	%rd22, %rd4, %rd21;
	ld.global.nc.v4.f32 	{%f29, %f30, %f31, %f32}, [%rd22];
	ld.global.nc.v4.f32 	{%f37, %f38, %f39, %f40}, [%rd6];
	add.s64 	%rd23, %rd6, %rd21;
	ld.global.nc.v4.f32 	{%f45, %f46, %f47, %f48}, [%rd23];
	add.f32 	%f53, %f24, %f40;
	add.f32 	%f54, %f23, %f39;
	add.f32 	%f55, %f22, %f38;
	add.f32 	%f56, %f21, %f37;
	st.global.v4.f32 	[%rd8], {%f56, %f55, %f54, %f53};
	add.s64 	%rd24, %rd8, %rd21;
	add.f32 	%f57, %f32, %f48;
	add.f32 	%f58, %f31, %f47;
	add.f32 	%f59, %f30, %f46;
	add.f32 	%f60, %f29, %f45;
	st.global.v4.f32 	[%rd24], {%f60, %f59, %f58, %f57};
	bra.uni 	$L__BB2_4;

$L__BB2_1:
	setp.ge.u64 	%p2, %rd2, %rd9;
	@%p2 bra 	$L__BB2_4;

	ld.global.nc.v4.f32 	{%f1, %f2, %f3, %f4}, [%rd4];
	ld.global.nc.v4.f32 	{%f9, %f10, %f11, %f12}, [%rd6];
	add.f32 	%f17, %f4, %f12;
	add.f32 	%f18, %f3, %f11;
	add.f32 	%f19, %f2, %f10;
	add.f32 	%f20, %f1, %f9;
	st.global.v4.f32 	[%rd8], {%f20, %f19, %f18, %f17};

$L__BB2_4:
	ret;

}

)PTX";

} // namespace

std::string_view measureKernelsPtx()
{
    return std::string_view(kPtx, sizeof(kPtx)); // includes the terminating NUL that cuModuleLoadData needs
}

engine::Expected<DeviceAllocation> DeviceAllocation::create(size_t bytes)
{
    DeviceAllocation a;
    if (auto st = cuda::check(cuda::api().cuMemAlloc(&a.m_ptr, bytes), "cuMemAlloc"); !st) {
        engine::Error e = st.error();
        e.message = "Could not allocate " + std::to_string(bytes >> 20) + " MiB for measuring: " + e.message;
        return e;
    }
    a.m_bytes = bytes;
    return a;
}

DeviceAllocation::~DeviceAllocation()
{
    if (m_ptr)
        cuda::api().cuMemFree(m_ptr);
}

DeviceAllocation::DeviceAllocation(DeviceAllocation&& other) noexcept
    : m_ptr(std::exchange(other.m_ptr, 0)), m_bytes(std::exchange(other.m_bytes, 0))
{
}

DeviceAllocation& DeviceAllocation::operator=(DeviceAllocation&& other) noexcept
{
    if (this != &other) {
        if (m_ptr)
            cuda::api().cuMemFree(m_ptr);
        m_ptr = std::exchange(other.m_ptr, 0);
        m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
}

} // namespace tkm::measure::detail
