/* burn.c - leave no key material in the stack or the vector registers
 *
 * A module's key setup and bulk functions keep round keys in vector
 * registers and, when there are more than registers, spill them to
 * the stack; neither is wiped by wiping the context.  libgcrypt
 * burns its stack and clears the registers after such work; the
 * cipher handles here do the same when a key is set and when they are
 * closed, so that nothing of the key outlives its handle
 * (tests/sfenc-secrets.bats searches a dump of the whole process).
 */
#include <config.h>

#include "libsfcipher.h"

#if defined(__x86_64__) || defined(__i386__)
# include <cpuid.h>
#endif

/* More than any module's deepest call below the handle functions.  */
#define STACK_BURN_SIZE 16384

/* Overwrite the stack below the caller's frame, where the functions
 * it called had theirs.  Not inlined, so the area really lies below.  */
static void __attribute__ ((noinline))
burn_stack (void)
{
  unsigned char area[STACK_BURN_SIZE];

  sf_wipememory (area, sizeof area);
  __asm__ volatile ("" : : "r" (area) : "memory");
}


#if defined(__x86_64__) || defined(__i386__)
/* Which vector registers the OS saves, and so which there are to clear:
 * VZEROALL clears the sixteen YMM registers and leaves ZMM16-31 alone,
 * where glibc's EVEX memcpy moves 32 bytes at a time, so a key schedule
 * copied by memcpy (libgcrypt copies its contexts) stays there.  */
enum vector_state { VECTORS_SSE, VECTORS_AVX, VECTORS_AVX512 };

static enum vector_state
saved_vector_state (void)
{
  unsigned int eax, ebx, ecx, edx, xcr0_lo, xcr0_hi;

  if (!__get_cpuid (1, &eax, &ebx, &ecx, &edx)
      || !(ecx & bit_OSXSAVE) || !(ecx & bit_AVX))
    return VECTORS_SSE;
  __asm__ ("xgetbv" : "=a" (xcr0_lo), "=d" (xcr0_hi) : "c" (0));
  if ((xcr0_lo & 0x06) != 0x06)
    return VECTORS_SSE;
  /* XCR0 bits 5-7: the opmask registers, the upper halves of ZMM0-15
   * and ZMM16-31.  */
  if ((xcr0_lo & 0xe0) == 0xe0
      && __get_cpuid_count (7, 0, &eax, &ebx, &ecx, &edx)
      && (ebx & bit_AVX512F))
    return VECTORS_AVX512;
  return VECTORS_AVX;
}

static void
clear_vector_registers (void)
{
  static int state = -1;

  if (state < 0)
    state = saved_vector_state ();
  if (state == VECTORS_SSE)
    {
      __asm__ volatile ("pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\t"
                        "pxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
                        "pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
                        "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7"
                        ::: "memory");
# ifdef __x86_64__
      __asm__ volatile ("pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"
                        "pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
                        "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
                        "pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15"
                        ::: "memory");
# endif
      return;
    }
  __asm__ volatile ("vzeroall" ::: "memory");
# ifdef __x86_64__
  /* A VEX or EVEX write to a register zeroes it up to its full width;
   * the 512-bit form needs AVX512F alone.  */
  if (state == VECTORS_AVX512)
    __asm__ volatile ("vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
                      "vpxord %%zmm17, %%zmm17, %%zmm17\n\t"
                      "vpxord %%zmm18, %%zmm18, %%zmm18\n\t"
                      "vpxord %%zmm19, %%zmm19, %%zmm19\n\t"
                      "vpxord %%zmm20, %%zmm20, %%zmm20\n\t"
                      "vpxord %%zmm21, %%zmm21, %%zmm21\n\t"
                      "vpxord %%zmm22, %%zmm22, %%zmm22\n\t"
                      "vpxord %%zmm23, %%zmm23, %%zmm23\n\t"
                      "vpxord %%zmm24, %%zmm24, %%zmm24\n\t"
                      "vpxord %%zmm25, %%zmm25, %%zmm25\n\t"
                      "vpxord %%zmm26, %%zmm26, %%zmm26\n\t"
                      "vpxord %%zmm27, %%zmm27, %%zmm27\n\t"
                      "vpxord %%zmm28, %%zmm28, %%zmm28\n\t"
                      "vpxord %%zmm29, %%zmm29, %%zmm29\n\t"
                      "vpxord %%zmm30, %%zmm30, %%zmm30\n\t"
                      "vpxord %%zmm31, %%zmm31, %%zmm31"
                      ::: "memory");
# endif
}
#elif defined(__aarch64__)
/* The round keys of rijndael-armce.c live in the SIMD registers.  The
 * compiler saves and restores the low halves of v8-v15, which the
 * procedure call standard makes the callee's to keep, around the asm:
 * what comes back there is the caller's own.  */
static void
clear_vector_registers (void)
{
  __asm__ volatile ("movi v0.16b, #0\n\tmovi v1.16b, #0\n\t"
                    "movi v2.16b, #0\n\tmovi v3.16b, #0\n\t"
                    "movi v4.16b, #0\n\tmovi v5.16b, #0\n\t"
                    "movi v6.16b, #0\n\tmovi v7.16b, #0\n\t"
                    "movi v8.16b, #0\n\tmovi v9.16b, #0\n\t"
                    "movi v10.16b, #0\n\tmovi v11.16b, #0\n\t"
                    "movi v12.16b, #0\n\tmovi v13.16b, #0\n\t"
                    "movi v14.16b, #0\n\tmovi v15.16b, #0\n\t"
                    "movi v16.16b, #0\n\tmovi v17.16b, #0\n\t"
                    "movi v18.16b, #0\n\tmovi v19.16b, #0\n\t"
                    "movi v20.16b, #0\n\tmovi v21.16b, #0\n\t"
                    "movi v22.16b, #0\n\tmovi v23.16b, #0\n\t"
                    "movi v24.16b, #0\n\tmovi v25.16b, #0\n\t"
                    "movi v26.16b, #0\n\tmovi v27.16b, #0\n\t"
                    "movi v28.16b, #0\n\tmovi v29.16b, #0\n\t"
                    "movi v30.16b, #0\n\tmovi v31.16b, #0"
                    ::: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
                      "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15",
                      "v16", "v17", "v18", "v19", "v20", "v21", "v22",
                      "v23", "v24", "v25", "v26", "v27", "v28", "v29",
                      "v30", "v31", "memory");
}
#else
static void
clear_vector_registers (void)
{
}
#endif


void
sf_burn_key_traces (void)
{
  burn_stack ();
  clear_vector_registers ();
}
