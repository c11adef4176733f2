// OpenCL C twins of ptxsuite's global-memory kernels (kernels-gpu/src/global_memory/):
// the third implementation beside the Rust kernels and their CUDA C twins, with the
// same algorithms, indexing and launch shapes (1-D work-groups of 256 work-items,
// one element per work-item, no bounds check inside: the host launchers check
// every index first). get_group_id(0) * get_local_size(0) + get_local_id(0) is
// CUDA's blockIdx.x * blockDim.x + threadIdx.x, computed in 32-bit int as there.
// Performance against the Rust and CUDA C builds on the same GPU: to be measured.

// Best Practices Guide Listing 3.5: misaligned but sequential accesses.
__kernel void offset_copy(__global float *odata, __global const float *idata, int offset)
{
    int xid = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0)) + offset;
    odata[xid] = idata[xid];
}

// Best Practices Guide Listing 3.6: neighbouring work-items `stride` elements apart.
__kernel void stride_copy(__global float *odata, __global const float *idata, int stride)
{
    int xid = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0)) * stride;
    odata[xid] = idata[xid];
}

// Best Practices Guide Listing 3.12: misaligned reads, aligned writes.
__kernel void shift_copy(__global float *odata, __global const float *idata, int shift)
{
    int xid = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0));
    odata[xid] = idata[xid + shift];
}

// Best Practices Guide §3.2.1.1: each group of 32 work-items (a warp on
// NVIDIA) reads the 32 words of its own aligned 128-byte segment in a scrambled
// order (item l reads word (l * (2 key + 1)) mod 32 XOR key; key 0 is in order)
// and writes in order.
__kernel void permuted_copy(__global float *odata, __global const float *idata, int key)
{
    uint xid = (uint)(get_group_id(0) * get_local_size(0) + get_local_id(0));
    uint lane = xid & 31;
    uint k = (uint)key & 31;
    uint word = ((lane * (2 * k + 1)) & 31) ^ k;
    odata[xid] = idata[(xid - lane) + word];
}

// Best Practices Guide Listing 3.13 (tex1Dfetch through a texture over linear
// memory): OpenCL's form is an image1d_buffer_t over the buffer, read with
// the sampler-less read_imagef. A sampler-less read uses CLK_ADDRESS_NONE, and
// with CLK_ADDRESS_NONE a coordinate outside the image gives an undefined
// result (OpenCL C spec, image read functions), unlike the CUDA texture, whose
// tex1Dfetch past the end of linear memory returns 0; and image1d_buffer_t
// takes no sampler, so no border mode can be asked for. So the kernel guards
// the coordinate itself: texels past the image read as 0, as on the CUDA side.
// The bound is the `texels` argument (the image's width, which the launcher
// knows): get_image_width would do on NVIDIA, but PoCL 3.1 lacks it for
// image1d_buffer_t (an undefined symbol when the kernel loads).
// An image with the CL_R channel order returns (r, 0, 0, 1); .x is the texel.
__kernel void texture_shift_copy(__global float *odata, __read_only image1d_buffer_t image, int shift, int texels)
{
    int xid = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0));
    int texel = xid + shift;
    odata[xid] = texel >= 0 && texel < texels ? read_imagef(image, texel).x : 0.0f;
}

// Offset and stride copies for 2-, 8- and 16-byte elements. f16 data moves as
// its bits (ushort), as in the Rust and CUDA C kernels. 8-byte elements are
// double where the device has cl_khr_fp64 (NVIDIA, PoCL) and ulong otherwise:
// a copy moves the same 8 bytes either way.
#define WIDTH_KERNELS(OFFSET, STRIDE, T)                                            \
    __kernel void OFFSET(__global T *odata, __global const T *idata, int offset)    \
    {                                                                               \
        int xid = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0)) + offset; \
        odata[xid] = idata[xid];                                                    \
    }                                                                               \
    __kernel void STRIDE(__global T *odata, __global const T *idata, int stride)    \
    {                                                                               \
        int xid = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0)) * stride; \
        odata[xid] = idata[xid];                                                    \
    }

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double eight_byte_element;
#else
typedef ulong eight_byte_element;
#endif

WIDTH_KERNELS(offset_copy_f16, stride_copy_f16, ushort)
WIDTH_KERNELS(offset_copy_f64, stride_copy_f64, eight_byte_element)
WIDTH_KERNELS(offset_copy_f32x4, stride_copy_f32x4, float4)

#undef WIDTH_KERNELS

// The suite's best-practice copy: float4 accesses, a grid-stride loop, a
// scalar tail; launched with min(ceil(n/4/256), one wave x 1024) work-groups.
// OpenCL buffers start at CL_DEVICE_MEM_BASE_ADDR_ALIGN (at least 128 bytes on
// NVIDIA and PoCL), so the float4 view of a whole buffer is aligned.
__kernel void vector_copy(__global float *out, __global const float *inp, ulong n)
{
    __global float4 *out4 = (__global float4 *)out;
    __global const float4 *inp4 = (__global const float4 *)inp;
    ulong vectors = n / 4;
    ulong first = (ulong)get_group_id(0) * get_local_size(0) + get_local_id(0);
    ulong step = (ulong)get_num_groups(0) * get_local_size(0);
    for (ulong v = first; v < vectors; v += step)
        out4[v] = inp4[v];
    if (first < n % 4) {
        ulong i = vectors * 4 + first;
        out[i] = inp[i];
    }
}
