#!/usr/bin/perl
# ct-leak.pl - copy cipher/rijndael-ct.c with one memory load indexed by
# the secret state added to its encryption rounds, for ctgrind.sh's
# second control: the copy names its implementation "ct-leak" and still
# claims "constant", and ct-probe links it, so the check must flag one
# such load in code that is otherwise constant-time (the table-based
# AES, the first control, leaks everywhere).  The table is zero and
# volatile: the cipher still computes AES, so the copy passes its
# self-test and registers, and the compiler cannot drop the load.
# Fails when an anchor is missing, so that a change to rijndael-ct.c
# cannot quietly turn the control into an intact copy.
use strict;
use warnings;

my ($in_encrypt_planes, $loads, $impls) = (0, 0, 0);
while (my $line = <>) {
    $impls += ($line =~ s/\.impl = "ct",/.impl = "ct-leak",/);
    $in_encrypt_planes = 1 if $line =~ /^encrypt_planes \(/;
    print $line;
    if ($in_encrypt_planes
        && $line =~ /^\s*add_round_key \(q, ctx->round_keys\[r\]\);$/) {
        print "      {\n",
              "        static volatile uint64_t leak_table[256];\n",
              "\n",
              "        q[1] ^= leak_table[q[0] & 0xff];\n",
              "      }\n";
        $loads++;
        $in_encrypt_planes = 0;
    }
    $in_encrypt_planes = 0 if $line =~ /^}/;
}
die "ct-leak.pl: no 'add_round_key (q, ctx->round_keys[r]);' in the"
    . " round loop of encrypt_planes: nowhere to add the load\n"
    unless $loads == 1;
die "ct-leak.pl: expected one '.impl = \"ct\",', found $impls\n"
    unless $impls == 1;
