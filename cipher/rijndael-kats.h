/* rijndael-kats.h - known answers and names shared by the AES modules
 *
 * Included by every AES module (rijndael.c, rijndael-aesni.c,
 * rijndael-armce.c, rijndael-ct.c): the implementations of one
 * algorithm answer to the same names and must meet the same known
 * answers, so all come from here.
 */
#ifndef RIJNDAEL_KATS_H
#define RIJNDAEL_KATS_H

#include "sfcipher.h"

/* FIPS-197 Appendix C; NIST SP 800-38A F.1.1, F.1.3, F.1.5 (ECB, four
 * blocks); NIST CAVP AESAVS KAT_AES.zip, ECB GFSbox, KeySbox and
 * VarKey COUNT = 0.  */
static const sf_kat_t aes128_kats[] =
  {
    { "000102030405060708090a0b0c0d0e0f",
      "00112233445566778899aabbccddeeff",
      "69c4e0d86a7b0430d8cdb78070b4c55a" },
    { "2b7e151628aed2a6abf7158809cf4f3c",
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
      "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
      "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4" },
    { "00000000000000000000000000000000",
      "f34481ec3cc627bacd5dc3fb08f273e6",
      "0336763e966d92595a567cc9ce537f5e" },
    { "10a58869d74be5a374cf867cfb473859",
      "00000000000000000000000000000000",
      "6d251e6944b051e04eaa6fb4dbf78465" },
    { "80000000000000000000000000000000",
      "00000000000000000000000000000000",
      "0edd33d3c621e546455bd8ba1418bec8" }
  };

static const sf_kat_t aes192_kats[] =
  {
    { "000102030405060708090a0b0c0d0e0f1011121314151617",
      "00112233445566778899aabbccddeeff",
      "dda97ca4864cdfe06eaf70a0ec0d7191" },
    { "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
      "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
      "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e" },
    { "000000000000000000000000000000000000000000000000",
      "1b077a6af4b7f98229de786d7516b639",
      "275cfc0413d8ccb70513c3859b1d0f72" },
    { "e9f065d7c13573587f7875357dfbb16c53489f6a4bd0f7cd",
      "00000000000000000000000000000000",
      "0956259c9cd5cfd0181cca53380cde06" },
    { "800000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "de885dc87f5a92594082d02cc1e1b42c" }
  };

static const sf_kat_t aes256_kats[] =
  {
    { "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff",
      "8ea2b7ca516745bfeafc49904b496089" },
    { "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
      "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
      "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7" },
    { "0000000000000000000000000000000000000000000000000000000000000000",
      "014730f80ac625fe84f026c60bfd547d",
      "5c9d844ed46f9885085e5d6a4f94c7d7" },
    { "c47b0294dbbbee0fec4757f22ffeee3587ca4730c3d33b691df38bab076bc558",
      "00000000000000000000000000000000",
      "46f2fb342d6f0ab477476fc501242c5f" },
    { "8000000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "e35a6dcb19b201a01ebcfa8aa22b5759" }
  };

static const char *const aes128_aliases[] =
  { "AES128", "RIJNDAEL", "RIJNDAEL128", NULL };
static const char *const aes192_aliases[] = { "RIJNDAEL192", NULL };
static const char *const aes256_aliases[] = { "RIJNDAEL256", NULL };

#endif /*RIJNDAEL_KATS_H*/
