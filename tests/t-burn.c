/* t-burn.c - sf_burn_key_traces leaves no vector register holding data
 *
 * Every vector register the caller does not own is filled with a
 * pattern, sf_burn_key_traces is called, and each is read back: none
 * may still hold a byte of the pattern.  The registers are those the
 * OS saves here: on x86-64 XMM0-15, YMM0-15 with AVX and ZMM0-31 with
 * AVX-512, where glibc's memcpy moves 32 bytes at a time through
 * YMM16-31 (a key schedule libgcrypt copied stayed there, and lazy
 * symbol binding's XSAVE put it on the stack); on AArch64 V0-V7 and
 * V16-V31: the procedure call standard gives V8-V15 back to the caller
 * as the caller left them.  */
#include <config.h>

#include "t-common.h"

#define PATTERN 0xa5

#if defined(__x86_64__)
# define N_REGS 32
# define REG_BYTES 64

/* The widest registers the OS saves, and how many there are.  */
static size_t
vector_width (size_t *nregs)
{
  __builtin_cpu_init ();
  *nregs = 16;
  if (__builtin_cpu_supports ("avx512f"))
    {
      *nregs = 32;
      return 64;
    }
  if (__builtin_cpu_supports ("avx"))
    return 32;
  return 16;
}

static void __attribute__ ((noinline))
fill_xmm (const unsigned char *p)
{
  __asm__ volatile (
    "movdqu 0x000(%0), %%xmm0\n\tmovdqu 0x040(%0), %%xmm1\n\t"
    "movdqu 0x080(%0), %%xmm2\n\tmovdqu 0x0c0(%0), %%xmm3\n\t"
    "movdqu 0x100(%0), %%xmm4\n\tmovdqu 0x140(%0), %%xmm5\n\t"
    "movdqu 0x180(%0), %%xmm6\n\tmovdqu 0x1c0(%0), %%xmm7\n\t"
    "movdqu 0x200(%0), %%xmm8\n\tmovdqu 0x240(%0), %%xmm9\n\t"
    "movdqu 0x280(%0), %%xmm10\n\tmovdqu 0x2c0(%0), %%xmm11\n\t"
    "movdqu 0x300(%0), %%xmm12\n\tmovdqu 0x340(%0), %%xmm13\n\t"
    "movdqu 0x380(%0), %%xmm14\n\tmovdqu 0x3c0(%0), %%xmm15"
    : : "r" (p)
    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
      "xmm15", "memory");
}

static void __attribute__ ((noinline))
read_xmm (unsigned char *p)
{
  __asm__ volatile (
    "movdqu %%xmm0, 0x000(%0)\n\tmovdqu %%xmm1, 0x040(%0)\n\t"
    "movdqu %%xmm2, 0x080(%0)\n\tmovdqu %%xmm3, 0x0c0(%0)\n\t"
    "movdqu %%xmm4, 0x100(%0)\n\tmovdqu %%xmm5, 0x140(%0)\n\t"
    "movdqu %%xmm6, 0x180(%0)\n\tmovdqu %%xmm7, 0x1c0(%0)\n\t"
    "movdqu %%xmm8, 0x200(%0)\n\tmovdqu %%xmm9, 0x240(%0)\n\t"
    "movdqu %%xmm10, 0x280(%0)\n\tmovdqu %%xmm11, 0x2c0(%0)\n\t"
    "movdqu %%xmm12, 0x300(%0)\n\tmovdqu %%xmm13, 0x340(%0)\n\t"
    "movdqu %%xmm14, 0x380(%0)\n\tmovdqu %%xmm15, 0x3c0(%0)"
    : : "r" (p) : "memory");
}

static void __attribute__ ((noinline, target ("avx")))
fill_ymm (const unsigned char *p)
{
  __asm__ volatile (
    "vmovdqu 0x000(%0), %%ymm0\n\tvmovdqu 0x040(%0), %%ymm1\n\t"
    "vmovdqu 0x080(%0), %%ymm2\n\tvmovdqu 0x0c0(%0), %%ymm3\n\t"
    "vmovdqu 0x100(%0), %%ymm4\n\tvmovdqu 0x140(%0), %%ymm5\n\t"
    "vmovdqu 0x180(%0), %%ymm6\n\tvmovdqu 0x1c0(%0), %%ymm7\n\t"
    "vmovdqu 0x200(%0), %%ymm8\n\tvmovdqu 0x240(%0), %%ymm9\n\t"
    "vmovdqu 0x280(%0), %%ymm10\n\tvmovdqu 0x2c0(%0), %%ymm11\n\t"
    "vmovdqu 0x300(%0), %%ymm12\n\tvmovdqu 0x340(%0), %%ymm13\n\t"
    "vmovdqu 0x380(%0), %%ymm14\n\tvmovdqu 0x3c0(%0), %%ymm15"
    : : "r" (p)
    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
      "xmm15", "memory");
}

static void __attribute__ ((noinline, target ("avx")))
read_ymm (unsigned char *p)
{
  __asm__ volatile (
    "vmovdqu %%ymm0, 0x000(%0)\n\tvmovdqu %%ymm1, 0x040(%0)\n\t"
    "vmovdqu %%ymm2, 0x080(%0)\n\tvmovdqu %%ymm3, 0x0c0(%0)\n\t"
    "vmovdqu %%ymm4, 0x100(%0)\n\tvmovdqu %%ymm5, 0x140(%0)\n\t"
    "vmovdqu %%ymm6, 0x180(%0)\n\tvmovdqu %%ymm7, 0x1c0(%0)\n\t"
    "vmovdqu %%ymm8, 0x200(%0)\n\tvmovdqu %%ymm9, 0x240(%0)\n\t"
    "vmovdqu %%ymm10, 0x280(%0)\n\tvmovdqu %%ymm11, 0x2c0(%0)\n\t"
    "vmovdqu %%ymm12, 0x300(%0)\n\tvmovdqu %%ymm13, 0x340(%0)\n\t"
    "vmovdqu %%ymm14, 0x380(%0)\n\tvmovdqu %%ymm15, 0x3c0(%0)"
    : : "r" (p) : "memory");
}

static void __attribute__ ((noinline, target ("avx512f")))
fill_zmm (const unsigned char *p)
{
  __asm__ volatile (
    "vmovdqu64 0x000(%0), %%zmm0\n\tvmovdqu64 0x040(%0), %%zmm1\n\t"
    "vmovdqu64 0x080(%0), %%zmm2\n\tvmovdqu64 0x0c0(%0), %%zmm3\n\t"
    "vmovdqu64 0x100(%0), %%zmm4\n\tvmovdqu64 0x140(%0), %%zmm5\n\t"
    "vmovdqu64 0x180(%0), %%zmm6\n\tvmovdqu64 0x1c0(%0), %%zmm7\n\t"
    "vmovdqu64 0x200(%0), %%zmm8\n\tvmovdqu64 0x240(%0), %%zmm9\n\t"
    "vmovdqu64 0x280(%0), %%zmm10\n\tvmovdqu64 0x2c0(%0), %%zmm11\n\t"
    "vmovdqu64 0x300(%0), %%zmm12\n\tvmovdqu64 0x340(%0), %%zmm13\n\t"
    "vmovdqu64 0x380(%0), %%zmm14\n\tvmovdqu64 0x3c0(%0), %%zmm15\n\t"
    "vmovdqu64 0x400(%0), %%zmm16\n\tvmovdqu64 0x440(%0), %%zmm17\n\t"
    "vmovdqu64 0x480(%0), %%zmm18\n\tvmovdqu64 0x4c0(%0), %%zmm19\n\t"
    "vmovdqu64 0x500(%0), %%zmm20\n\tvmovdqu64 0x540(%0), %%zmm21\n\t"
    "vmovdqu64 0x580(%0), %%zmm22\n\tvmovdqu64 0x5c0(%0), %%zmm23\n\t"
    "vmovdqu64 0x600(%0), %%zmm24\n\tvmovdqu64 0x640(%0), %%zmm25\n\t"
    "vmovdqu64 0x680(%0), %%zmm26\n\tvmovdqu64 0x6c0(%0), %%zmm27\n\t"
    "vmovdqu64 0x700(%0), %%zmm28\n\tvmovdqu64 0x740(%0), %%zmm29\n\t"
    "vmovdqu64 0x780(%0), %%zmm30\n\tvmovdqu64 0x7c0(%0), %%zmm31"
    : : "r" (p)
    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
      "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
      "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28",
      "xmm29", "xmm30", "xmm31", "memory");
}

static void __attribute__ ((noinline, target ("avx512f")))
read_zmm (unsigned char *p)
{
  __asm__ volatile (
    "vmovdqu64 %%zmm0, 0x000(%0)\n\tvmovdqu64 %%zmm1, 0x040(%0)\n\t"
    "vmovdqu64 %%zmm2, 0x080(%0)\n\tvmovdqu64 %%zmm3, 0x0c0(%0)\n\t"
    "vmovdqu64 %%zmm4, 0x100(%0)\n\tvmovdqu64 %%zmm5, 0x140(%0)\n\t"
    "vmovdqu64 %%zmm6, 0x180(%0)\n\tvmovdqu64 %%zmm7, 0x1c0(%0)\n\t"
    "vmovdqu64 %%zmm8, 0x200(%0)\n\tvmovdqu64 %%zmm9, 0x240(%0)\n\t"
    "vmovdqu64 %%zmm10, 0x280(%0)\n\tvmovdqu64 %%zmm11, 0x2c0(%0)\n\t"
    "vmovdqu64 %%zmm12, 0x300(%0)\n\tvmovdqu64 %%zmm13, 0x340(%0)\n\t"
    "vmovdqu64 %%zmm14, 0x380(%0)\n\tvmovdqu64 %%zmm15, 0x3c0(%0)\n\t"
    "vmovdqu64 %%zmm16, 0x400(%0)\n\tvmovdqu64 %%zmm17, 0x440(%0)\n\t"
    "vmovdqu64 %%zmm18, 0x480(%0)\n\tvmovdqu64 %%zmm19, 0x4c0(%0)\n\t"
    "vmovdqu64 %%zmm20, 0x500(%0)\n\tvmovdqu64 %%zmm21, 0x540(%0)\n\t"
    "vmovdqu64 %%zmm22, 0x580(%0)\n\tvmovdqu64 %%zmm23, 0x5c0(%0)\n\t"
    "vmovdqu64 %%zmm24, 0x600(%0)\n\tvmovdqu64 %%zmm25, 0x640(%0)\n\t"
    "vmovdqu64 %%zmm26, 0x680(%0)\n\tvmovdqu64 %%zmm27, 0x6c0(%0)\n\t"
    "vmovdqu64 %%zmm28, 0x700(%0)\n\tvmovdqu64 %%zmm29, 0x740(%0)\n\t"
    "vmovdqu64 %%zmm30, 0x780(%0)\n\tvmovdqu64 %%zmm31, 0x7c0(%0)"
    : : "r" (p) : "memory");
}

static void
fill_registers (const unsigned char *p, size_t width)
{
  if (width == 64)
    fill_zmm (p);
  else if (width == 32)
    fill_ymm (p);
  else
    fill_xmm (p);
}

static void
read_registers (unsigned char *p, size_t width)
{
  if (width == 64)
    read_zmm (p);
  else if (width == 32)
    read_ymm (p);
  else
    read_xmm (p);
}

static int
caller_owns (size_t reg)
{
  (void) reg;
  return 0;
}

static const char register_name[] = "zmm";

#elif defined(__aarch64__)
# define N_REGS 32
# define REG_BYTES 64

static size_t
vector_width (size_t *nregs)
{
  *nregs = 32;
  return 16;
}

static void __attribute__ ((noinline))
fill_registers (const unsigned char *p, size_t width)
{
  (void) width;
  __asm__ volatile (
    "ldr q0, [%0, #0x000]\n\tldr q1, [%0, #0x040]\n\t"
    "ldr q2, [%0, #0x080]\n\tldr q3, [%0, #0x0c0]\n\t"
    "ldr q4, [%0, #0x100]\n\tldr q5, [%0, #0x140]\n\t"
    "ldr q6, [%0, #0x180]\n\tldr q7, [%0, #0x1c0]\n\t"
    "ldr q8, [%0, #0x200]\n\tldr q9, [%0, #0x240]\n\t"
    "ldr q10, [%0, #0x280]\n\tldr q11, [%0, #0x2c0]\n\t"
    "ldr q12, [%0, #0x300]\n\tldr q13, [%0, #0x340]\n\t"
    "ldr q14, [%0, #0x380]\n\tldr q15, [%0, #0x3c0]\n\t"
    "ldr q16, [%0, #0x400]\n\tldr q17, [%0, #0x440]\n\t"
    "ldr q18, [%0, #0x480]\n\tldr q19, [%0, #0x4c0]\n\t"
    "ldr q20, [%0, #0x500]\n\tldr q21, [%0, #0x540]\n\t"
    "ldr q22, [%0, #0x580]\n\tldr q23, [%0, #0x5c0]\n\t"
    "ldr q24, [%0, #0x600]\n\tldr q25, [%0, #0x640]\n\t"
    "ldr q26, [%0, #0x680]\n\tldr q27, [%0, #0x6c0]\n\t"
    "ldr q28, [%0, #0x700]\n\tldr q29, [%0, #0x740]\n\t"
    "ldr q30, [%0, #0x780]\n\tldr q31, [%0, #0x7c0]"
    : : "r" (p)
    : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
      "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19",
      "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28",
      "v29", "v30", "v31", "memory");
}

static void __attribute__ ((noinline))
read_registers (unsigned char *p, size_t width)
{
  (void) width;
  __asm__ volatile (
    "str q0, [%0, #0x000]\n\tstr q1, [%0, #0x040]\n\t"
    "str q2, [%0, #0x080]\n\tstr q3, [%0, #0x0c0]\n\t"
    "str q4, [%0, #0x100]\n\tstr q5, [%0, #0x140]\n\t"
    "str q6, [%0, #0x180]\n\tstr q7, [%0, #0x1c0]\n\t"
    "str q8, [%0, #0x200]\n\tstr q9, [%0, #0x240]\n\t"
    "str q10, [%0, #0x280]\n\tstr q11, [%0, #0x2c0]\n\t"
    "str q12, [%0, #0x300]\n\tstr q13, [%0, #0x340]\n\t"
    "str q14, [%0, #0x380]\n\tstr q15, [%0, #0x3c0]\n\t"
    "str q16, [%0, #0x400]\n\tstr q17, [%0, #0x440]\n\t"
    "str q18, [%0, #0x480]\n\tstr q19, [%0, #0x4c0]\n\t"
    "str q20, [%0, #0x500]\n\tstr q21, [%0, #0x540]\n\t"
    "str q22, [%0, #0x580]\n\tstr q23, [%0, #0x5c0]\n\t"
    "str q24, [%0, #0x600]\n\tstr q25, [%0, #0x640]\n\t"
    "str q26, [%0, #0x680]\n\tstr q27, [%0, #0x6c0]\n\t"
    "str q28, [%0, #0x700]\n\tstr q29, [%0, #0x740]\n\t"
    "str q30, [%0, #0x780]\n\tstr q31, [%0, #0x7c0]"
    : : "r" (p) : "memory");
}

/* The low 64 bits of V8-V15 are callee-saved: every function that
 * uses them restores them on return with a load that zeroes the upper
 * 64 bits, fill_registers as well as sf_burn_key_traces.  */
static int
caller_owns (size_t reg)
{
  return reg >= 8 && reg <= 15;
}

static const char register_name[] = "v";

#endif


#ifdef N_REGS
/* Check that every register of AFTER the caller does not own holds a
 * byte of PATTERN when FILLED, and that none does otherwise.  */
static void
check_registers (const unsigned char *after, size_t nregs, size_t width,
                 int filled, const char *what)
{
  size_t reg, byte, checked = 0, holding = 0;

  for (reg = 0; reg < nregs; reg++)
    {
      if (caller_owns (reg))
        continue;
      checked++;
      for (byte = 0; byte < width; byte++)
        if (after[reg * REG_BYTES + byte] == PATTERN)
          {
            if (!filled)
              fprintf (stderr, "t-burn: %s%zu byte %zu still holds data\n",
                       register_name, reg, byte);
            holding++;
            break;
          }
    }
  check (holding == (filled ? checked : 0), "%s: %zu of %zu registers hold"
         " data", what, holding, checked);
}
#endif


int
main (void)
{
  test_init ("t-burn");
#ifdef N_REGS
  {
    static unsigned char pattern[N_REGS * REG_BYTES];
    static unsigned char after[N_REGS * REG_BYTES];
    size_t nregs, width = vector_width (&nregs);

    memset (pattern, PATTERN, sizeof pattern);
    printf ("t-burn: %zu registers of %zu bytes checked\n", nregs, width);
    /* The control: what is filled is read back.  */
    memset (after, 0, sizeof after);
    fill_registers (pattern, width);
    read_registers (after, width);
    check_registers (after, nregs, width, 1, "without a burn");

    memset (after, PATTERN, sizeof after);
    fill_registers (pattern, width);
    sf_burn_key_traces ();
    read_registers (after, width);
    check_registers (after, nregs, width, 0, "after sf_burn_key_traces");
  }
#else
  printf ("t-burn: NOT CHECKED: no vector registers known on this"
          " architecture, so sf_burn_key_traces clears none\n");
#endif
  return test_finish ();
}
