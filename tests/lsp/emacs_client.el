;;; emacs_client.el -- Emacs's eglot (batch) against zonepuny --lsp, driven by
;;; tests/lsp/check_lsp_emacs.py after doc/editors.md's eglot set-up: the zone ZONE opened
;;; as a user opens it, its diagnostics as flymake holds them ("diag LINE COLUMN TYPE CODE",
;;; lines from 1, columns in characters from 0) written to RESULT.
(require 'eglot)
(find-file (getenv "ZONE"))
;; (eglot-ensure connects after the command that opened the file: batch runs no command loop)
(run-hooks 'post-command-hook)
(let ((n 0))
  ;; a state waited for; the bound (a minute) only keeps a hung server from hanging the test
  (while (and (< n 600) (< (length (flymake-diagnostics)) 3))
    (accept-process-output nil 0.1)
    (when (bound-and-true-p flymake-mode) (flymake-start))
    (setq n (1+ n))))
(let ((lines
       (with-current-buffer (get-file-buffer (getenv "ZONE"))
         (cons (format "mode %s\n" major-mode)
               (mapcar (lambda (d)
                         (let ((text (flymake-diagnostic-text d)))
                           (format "diag %d %d %s %s\n"
                                   (line-number-at-pos (flymake-diagnostic-beg d))
                                   (save-excursion (goto-char (flymake-diagnostic-beg d))
                                                   (current-column))
                                   (flymake-diagnostic-type d)
                                   (if (string-match "\\[\\([a-z-]+\\)\\]" text)
                                       (match-string 1 text)
                                     "?"))))
                       (flymake-diagnostics))))))
  (with-temp-file (getenv "RESULT")
    (apply #'insert lines)))
(ignore-errors (eglot-shutdown (eglot-current-server)))
