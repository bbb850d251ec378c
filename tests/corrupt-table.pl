#!/usr/bin/perl
# corrupt-table.pl - copy a cipher module's source with the lowest bit
# of every constant in its first table flipped, for the t-corrupt-*
# tests: a module built from that copy must fail its self-test at
# registration.  (One wrong entry alone may lie where no known answer
# looks; a corrupted table must not.)
use strict;
use warnings;

my ($state, $flipped) = ('before', 0);
while (my $line = <>) {
    if ($state eq 'before' && $line =~ /^\s*static const [\w\s]+\[[^\]]*\].*=/) {
        $state = 'inside';
    }
    if ($state eq 'inside') {
        $flipped += ($line =~ s/\b0x([0-9a-fA-F]*)([0-9a-fA-F])\b/sprintf("0x%s%x", $1, hex($2) ^ 1)/ge);
        $state = 'after' if $line =~ /};/;
    }
    print $line;
}
die "corrupt-table.pl: no table constant found\n" unless $flipped;
