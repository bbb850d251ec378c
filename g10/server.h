/* server.h - sfenc --server: gpg 2.2's Assuan server (server.c)
 *
 * gpg --server answers the Assuan protocol on stdin and stdout: one
 * command a line, answered by "OK", "ERR CODE TEXT <SOURCE>", data
 * lines "D ..." and comments "# ...".  sfenc answers every command of
 * gpg 2.2.40's server as gpg does when it has no keys, and DECRYPT
 * runs sfenc's own decryption (decrypt.c) from the descriptor of INPUT
 * to that of OUTPUT, with the passphrase of the command line.
 */
#ifndef SFENC_SERVER_H
#define SFENC_SERVER_H

/* Serve the client on stdin and stdout until BYE or the end of stdin;
 * return the exit status: 2 when a command failed as gpg logs a
 * failure ("command 'DECRYPT' failed"), else 0, as gpg.  */
int server_run (void);

#endif /*SFENC_SERVER_H*/
