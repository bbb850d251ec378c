#!/usr/bin/python3
"""s3cmd's own encryption of an upload and decryption of a download.

usage: s3cmd-gpg.py S3CMD BINARY OPERATION INFILE PASSPHRASE

s3cmd encrypts a file before it uploads it (put --encrypt) and
decrypts it after a download, each through its functions gpg_encrypt
and gpg_decrypt, which run gpg_command with its configured command
lines (Config.gpg_encrypt, gpg_decrypt) and the passphrase on fd 0.
This loads the s3cmd script itself and calls those functions, with
BINARY as its gpg_command: no S3 endpoint is needed.

OPERATION encrypt prints the name of the temporary file s3cmd wrote;
decrypt decrypts INFILE in place, as s3cmd does after a download.
Exits with gpg's exit code, as s3cmd reads it.
"""
import importlib.machinery
import importlib.util
import sys


def load_s3cmd(path):
    """The s3cmd script as a module, with the names its main block
    imports from s3cmd's package and its gpg functions use."""
    from S3 import Utils
    from S3.Config import Config
    from S3.Utils import deunicodise, unicodise

    loader = importlib.machinery.SourceFileLoader("s3cmd_script", path)
    spec = importlib.util.spec_from_loader("s3cmd_script", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    module.Utils = Utils
    module.Config = Config
    module.deunicodise = deunicodise
    module.unicodise = unicodise
    return module


def main():
    s3cmd_path, binary, operation, infile, passphrase = sys.argv[1:6]
    s3cmd = load_s3cmd(s3cmd_path)
    cfg = s3cmd.Config()
    cfg.gpg_command = binary
    cfg.gpg_passphrase = passphrase
    if operation == "encrypt":
        code, outfile, _ = s3cmd.gpg_encrypt(infile)
        print(outfile)
    else:
        code, _ = s3cmd.gpg_decrypt(infile, "gpg", True)
    return code


if __name__ == "__main__":
    sys.exit(main())
