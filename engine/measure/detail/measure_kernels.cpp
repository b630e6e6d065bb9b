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
