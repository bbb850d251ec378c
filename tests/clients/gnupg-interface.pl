#!/usr/bin/perl
# Symmetric encryption through Perl's GnuPG::Interface.
#
# usage: gnupg-interface.pl BINARY HOME OPERATION INFILE OUTFILE PASSPHRASE
#
# OPERATION is encrypt (encrypt_symmetrically, armored) or decrypt.
# The passphrase goes on the descriptor GnuPG::Interface opens for
# --passphrase-fd; the status lines are read from its --status-fd.
# Prints them; exits with the program's exit status.
use strict;
use warnings;

use GnuPG::Handles;
use GnuPG::Interface;
use IO::Handle;

my ($binary, $home, $operation, $infile, $outfile, $passphrase) = @ARGV;
my $gnupg = GnuPG::Interface->new ();
$gnupg->call ($binary);
$gnupg->options->hash_init (armor => 1, homedir => $home);
$gnupg->passphrase ($passphrase);

my ($stdin, $stdout, $stderr, $status) =
  (IO::Handle->new, IO::Handle->new, IO::Handle->new, IO::Handle->new);
my $handles = GnuPG::Handles->new (stdin => $stdin, stdout => $stdout,
                                   stderr => $stderr, status => $status);
my $pid = $operation eq 'encrypt'
  ? $gnupg->encrypt_symmetrically (handles => $handles)
  : $gnupg->decrypt (handles => $handles);

# Small inputs only: written whole before the output is read.
open my $in, '<:raw', $infile or die "$infile: $!";
my $data = do { local $/; <$in> };
close $in;
print $stdin $data;
close $stdin;
my $result = do { local $/; <$stdout> };
my @status = <$status>;
close $_ for $stdout, $stderr, $status;
waitpid $pid, 0;
my $exit = $? >> 8;

open my $out, '>:raw', $outfile or die "$outfile: $!";
print $out $result;
close $out;
print @status;
exit $exit;
