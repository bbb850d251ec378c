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

/* The asm that loads (LOAD) or stores (STORE) registers 0-15 of kind
 * R with INSN, register N from or to the 64 bytes at %0 + 64 N, and
 * (REGS16_HIGH) registers 16-31.  */
#define REGS8(op, insn, r, a, b, c, d, e, f, g, h)                      \
  op (insn, r, a) op (insn, r, b) op (insn, r, c) op (insn, r, d)       \
  op (insn, r, e) op (insn, r, f) op (insn, r, g) op (insn, r, h)
#define REGS16(op, insn, r)                                             \
  REGS8 (op, insn, r, 0, 1, 2, 3, 4, 5, 6, 7)                           \
  REGS8 (op, insn, r, 8, 9, 10, 11, 12, 13, 14, 15)
#define REGS16_HIGH(op, insn, r)                                        \
  REGS8 (op, insn, r, 16, 17, 18, 19, 20, 21, 22, 23)                   \
  REGS8 (op, insn, r, 24, 25, 26, 27, 28, 29, 30, 31)

#if defined(__x86_64__)
# define LOAD(insn, r, n) insn " " #n "*64(%0), %%" r #n "\n\t"
# define STORE(insn, r, n) insn " %%" r #n ", " #n "*64(%0)\n\t"
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

# define CLOBBERS16                                                     \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",       \
  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

static void __attribute__ ((noinline))
fill_xmm (const unsigned char *p)
{
  __asm__ volatile (REGS16 (LOAD, "movdqu", "xmm")
                    : : "r" (p) : CLOBBERS16, "memory");
}

static void __attribute__ ((noinline))
read_xmm (unsigned char *p)
{
  __asm__ volatile (REGS16 (STORE, "movdqu", "xmm") : : "r" (p) : "memory");
}

static void __attribute__ ((noinline, target ("avx")))
fill_ymm (const unsigned char *p)
{
  __asm__ volatile (REGS16 (LOAD, "vmovdqu", "ymm")
                    : : "r" (p) : CLOBBERS16, "memory");
}

static void __attribute__ ((noinline, target ("avx")))
read_ymm (unsigned char *p)
{
  __asm__ volatile (REGS16 (STORE, "vmovdqu", "ymm") : : "r" (p) : "memory");
}

static void __attribute__ ((noinline, target ("avx512f")))
fill_zmm (const unsigned char *p)
{
  __asm__ volatile (REGS16 (LOAD, "vmovdqu64", "zmm")
                    REGS16_HIGH (LOAD, "vmovdqu64", "zmm")
                    : : "r" (p)
                    : CLOBBERS16, "xmm16", "xmm17", "xmm18", "xmm19",
                      "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25",
                      "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31",
                      "memory");
}

static void __attribute__ ((noinline, target ("avx512f")))
read_zmm (unsigned char *p)
{
  __asm__ volatile (REGS16 (STORE, "vmovdqu64", "zmm")
                    REGS16_HIGH (STORE, "vmovdqu64", "zmm")
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

# define LOAD(insn, r, n) insn " " r #n ", [%0, #" #n "*64]\n\t"
# define STORE LOAD

static void __attribute__ ((noinline))
fill_registers (const unsigned char *p, size_t width)
{
  (void) width;
  __asm__ volatile (REGS16 (LOAD, "ldr", "q") REGS16_HIGH (LOAD, "ldr", "q")
                    : : "r" (p)
                    : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8",
                      "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16",
                      "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
                      "v25", "v26", "v27", "v28", "v29", "v30", "v31",
                      "memory");
}

static void __attribute__ ((noinline))
read_registers (unsigned char *p, size_t width)
{
  (void) width;
  __asm__ volatile (REGS16 (STORE, "str", "q")
                    REGS16_HIGH (STORE, "str", "q")
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
