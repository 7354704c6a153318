/* Programmatic dependent launch (PDL). A kernel launched with the
 * programmatic-stream-serialization attribute may start while the kernel
 * before it in the stream is still running: its launch and set-up overlap
 * that kernel's tail. It must then wait before it touches memory the earlier
 * kernel writes, or memory that kernel reads and this one writes. */
#ifndef COMMON_GRIDDEP_CUH
#define COMMON_GRIDDEP_CUH

/* Wait until the grids this one depends on have completed and their memory
 * operations are visible. Returns at once where the kernel was launched
 * without the attribute. */
__device__ __forceinline__ void griddepcontrol_wait()
{
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
}

/* Let the dependent grid launch once every CTA of this grid has issued this
 * (or exited). It moves nothing in time for this grid's own work. */
__device__ __forceinline__ void griddepcontrol_launch_dependents()
{
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}

#endif
