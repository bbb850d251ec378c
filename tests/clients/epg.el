;;; epg.el --- symmetric encryption through Emacs's EasyPG (epg.el)
;;
;; emacs --batch -Q -l epg.el OPERATION INFILE OUTFILE
;;
;; OPERATION is encrypt (armored) or decrypt.  The program is
;; $GPG_PROGRAM, set as a user sets epg-gpg-program with customize; the
;; home directory $GNUPGHOME; the passphrase $TEST_PASSPHRASE, given
;; through EasyPG's passphrase callback under loopback pinentry, so it
;; travels on gpg's command descriptor.  Exits 0 on success, 1 with
;; EasyPG's error message.

(require 'epg)

(customize-set-variable 'epg-gpg-program (getenv "GPG_PROGRAM"))
(setq epg-gpg-home-directory (getenv "GNUPGHOME"))
(setq epg-pinentry-mode 'loopback)

(let* ((operation (nth 0 command-line-args-left))
       (infile (nth 1 command-line-args-left))
       (outfile (nth 2 command-line-args-left))
       (passphrase (getenv "TEST_PASSPHRASE"))
       (context (epg-make-context 'OpenPGP t)))
  (setq command-line-args-left nil)
  (epg-context-set-passphrase-callback
   context (cons (lambda (_context _key-id _data) (copy-sequence passphrase))
                 nil))
  (condition-case err
      (let ((coding-system-for-write 'binary)
            (coding-system-for-read 'binary))
        (if (equal operation "encrypt")
            (epg-encrypt-file context infile nil outfile)
          (epg-decrypt-file context infile outfile))
        (kill-emacs 0))
    (error
     (message "EasyPG error: %s" (error-message-string err))
     (kill-emacs 1))))
