# public-key.bash - a message encrypted to a public key, for the suites
# that check how sfenc and its clients refuse one (bats "load").

# Write to $T/pkmsg the file $T/in encrypted by gpg to a key of a
# keyring of its own, $T/keys: quick with the future-default
# algorithms (ed25519, cv25519).
public_key_message () {
  mkdir -m 700 "$T/keys"
  gpg --homedir "$T/keys" --batch --quiet --passphrase '' \
    --quick-gen-key 'Bob <bob@example.org>' future-default default 2> /dev/null
  gpg --homedir "$T/keys" --batch --quiet --trust-model always \
    -e -r bob@example.org -o "$T/pkmsg" "$T/in"
  gpgconf --homedir "$T/keys" --kill gpg-agent > /dev/null 2>&1 || true
}
