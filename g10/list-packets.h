/* list-packets.h - sfenc --list-packets: the packets of a message
 *
 * gpg --list-packets prints on stdout one "# off=..." line per packet
 * (its offset, first octet, tag, header and body lengths) and then
 * what the packet holds, in gpg's words; it decrypts the encrypted
 * data when it gets the key, and lists the packets inside with
 * offsets that run on from the encrypted packet's header, decrypted
 * and decompressed octets counted as they are read.  Without the key
 * it lists the packets before and fails.  sfenc does the same, line
 * for line, for what gpg 2.2 reads (SKESK v4 and v5, SEIPD v1, the
 * LibrePGP AEAD packet, SED, compressed and literal data), and in the
 * same structure for what gpg 2.2 cannot read (SKESK v6, SEIPD v2,
 * the Argon2 S2K), as sfenc(1) shows.
 */
#ifndef SFENC_LIST_PACKETS_H
#define SFENC_LIST_PACKETS_H

#include <gpg-error.h>

/* List the packets of the message in INFILE (stdin when NULL or "-"),
 * binary or armored.  */
gpg_error_t list_packets_file (const char *infile);

#endif /*SFENC_LIST_PACKETS_H*/
