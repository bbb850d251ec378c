#!/usr/bin/perl
# corrupt-table.pl - copy a cipher module's source with one bit flipped
# in the first constant of its first table, for the t-corrupt-* tests:
# a module built that way must fail its self-test at registration.
use strict;
use warnings;

my ($in_table, $done) = (0, 0);
while (my $line = <>) {
    $in_table = 1 if !$done && $line =~ /^\s*static const [\w\s]+\[[^\]]*\].*=/;
    if ($in_table && !$done
        && $line =~ s/\b0x([0-9a-fA-F]*)([0-9a-fA-F])\b/sprintf("0x%s%x", $1, hex($2) ^ 1)/e) {
        $done = 1;
    }
    print $line;
}
die "corrupt-table.pl: no table constant found\n" unless $done;
