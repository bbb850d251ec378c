# byte-edit.bash - read and change single bytes of a file, for the bats
# suites that damage messages on purpose (load byte-edit).

# The byte at offset $2 of file $1, in decimal.
get_byte () {
  od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '
}

# Set the byte at offset $2 of file $1 to $3 (decimal).
set_byte () {
  # shellcheck disable=SC2059
  printf "$(printf '\\%03o' "$3")" |
    dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# XOR the byte at offset $2 of file $1 with $3 (decimal, not 0).  Unlike
# setting a byte of ciphertext to a fixed value, which leaves it as it
# was once in 256 runs, this always changes the file.
flip_byte () {
  set_byte "$1" "$2" $(( $(get_byte "$1" "$2") ^ $3 ))
}
