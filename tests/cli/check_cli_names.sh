#!/usr/bin/env bash
# check_cli_names.sh -- zonepuny --to-ascii / --to-unicode: results, messages, stdin, exit status
# Expected ACE forms are Python's encodings.idna (RFC 3490) results, written out here.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${ZONEPUNY:=$repo_dir/build/zonepuny}" "${PYTHON:=/usr/bin/python3}"
make_tmp

# A refused label gets the sentence a zone run gives it (zones/bad-names.err, zones/bad/*.err
# pin that wording): the label, the rule it breaks, the code point and the RFC.
# expect NAME EXIT STDOUT STDERR -- ARGS...: runs zonepuny with ARGS and stdin from $input.
input=
expect() {
  local name=$1 want_rc=$2 want_out=$3 want_err=$4
  shift 5
  printf '%s' "$input" | "$ZONEPUNY" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" = "$want_rc" ] && [ "$(cat "$tmp/out")" = "$want_out" ] &&
     [ "$(cat "$tmp/err")" = "$want_err" ]; then
    ok "$name"
  else
    bad "$name: exit $rc (want $want_rc)"
    diff -u <(printf '%s\n' "$want_out") "$tmp/out" | sed 's/^/  out /'
    diff -u <(printf '%s\n' "$want_err") "$tmp/err" | sed 's/^/  err /'
  fi
}

expect bucher 0 'xn--bcher-kva.example' '' -- --to-ascii Bücher.example
expect ace-ascii 1 'ok.example' \
  'zonepuny: error: xn--abc-.example: label "xn--abc-" is an ACE label that decodes to pure ASCII "abc"' \
  -- --to-ascii xn--abc-.example ok.example
expect www 1 '' \
  'zonepuny: error: xn--www-: label "xn--www-" is an ACE label that decodes to pure ASCII "www"' \
  -- --to-ascii xn--www-
expect ace-upper 0 'XN--MNCHEN-3YA.de' '' -- --to-ascii XN--MNCHEN-3YA.de
expect not-canonical 1 '' \
  'zonepuny: error: xn--BCHER-2pa: label "xn--BCHER-2pa" is not the canonical ACE form of "BÜCHER" (ToASCII gives "xn--bcher-kva")' \
  -- --to-ascii xn--BCHER-2pa
expect ace-decode 1 '' \
  'zonepuny: error: xn--99999999999: label "xn--99999999999" is an ACE label that does not decode as Punycode' \
  -- --to-ascii xn--99999999999
expect unassigned 1 '' \
  'zonepuny: error: aȡ.example: label "aȡ" contains U+0221, unassigned in Unicode 3.2 (RFC 3454 table A.1); IDNA2008 makes it "xn--a-4xa" (--idna=2008)' \
  -- --to-ascii aȡ.example
expect after-ace 1 '' \
  'zonepuny: error: xn--bcher-kva.abcȡ: label "abcȡ" contains U+0221, unassigned in Unicode 3.2 (RFC 3454 table A.1)' \
  -- -W no-idna-divergence --to-ascii xn--bcher-kva.abcȡ
expect bidi 1 '' \
  'zonepuny: error: אa: label "אa" breaks the bidi rule: it mixes left-to-right and right-to-left characters, at U+0061 (RFC 3454 section 6)' \
  -- --to-ascii אa
expect non-ascii-ldh 1 '' \
  'zonepuny: error: x.ä_b: label "ä_b" contains U+005F after Nameprep, which is not a letter, digit or hyphen' \
  -- --to-ascii x.ä_b
expect ascii-punct 0 $'_dmarc.example\n*.example' '' -- --to-ascii _dmarc.example '*.example'
expect std3 1 '' \
  'zonepuny: error: _dmarc.example: label "_dmarc" contains U+005F, which is not a letter, digit or hyphen (--std3)' \
  -- --std3 --to-ascii _dmarc.example
expect hyphen 1 '' \
  'zonepuny: error: a.-b: label "-b" starts with a hyphen (--std3)' -- --std3 --to-ascii a.-b
expect too-long 1 '' \
  'zonepuny: error: üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü: label "üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü" is longer than 63 octets after ToASCII' \
  -- --to-ascii üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü
expect empty-label 1 '' 'zonepuny: error: a..b: label "": empty label' -- --to-ascii a..b
expect separators 0 'xn--wgv71a119e.jp.' '' -- --to-ascii 日本語。jp．
expect bad-utf8 1 '' \
  'zonepuny: error: a\255b: label "a\255b" is not valid UTF-8: invalid UTF-8 byte at octet 2' \
  -- --to-ascii "$(printf 'a\xffb')"

# stdin: CRLF, a last line without a newline, an empty line (the root, printed empty)
input=$'Bücher.example\r\nxn--abc-\n\nmünchen.de'
expect stdin 1 $'xn--bcher-kva.example\n\nxn--mnchen-3ya.de' \
  'zonepuny: error: xn--abc-: label "xn--abc-" is an ACE label that decodes to pure ASCII "abc"' \
  -- --to-ascii
input=$'xn--bcher-kva.example\r\nXN--MNCHEN-3YA\nxn--abc-.xn--wgv71a119e'
expect unicode 0 $'bücher.example\nMüNCHEN\nxn--abc-.日本語' '' -- --to-unicode
input=
expect unicode-bad 1 'ok' \
  'zonepuny: error: a\255: invalid UTF-8: invalid UTF-8 byte' -- --to-unicode "$(printf 'a\xff')" ok

# a million names through stdin, and an output error
"$PYTHON" - >"$tmp/many" <<'EOF'
import sys
w = sys.stdout.write
for i in range(1000000):
    w('bücher%d.example\n' % i if i % 2 else 'www%d.example\n' % i)
EOF
if "$ZONEPUNY" --to-ascii <"$tmp/many" >"$tmp/many.out" 2>"$tmp/err" &&
   [ "$(wc -l <"$tmp/many.out")" = 1000000 ] && [ ! -s "$tmp/err" ] &&
   [ "$(sed -n 2p "$tmp/many.out")" = "$("$PYTHON" -c 'print("bücher1.example".encode("idna").decode())')" ]; then
  ok million
else
  bad million
fi
# --idna=2008: IDNA2008 with UTS #46 non-transitional mapping. Expected values: Unicode's
# IdnaTestV2 15.0.0 (faß.de, βόλος.com), UTS #46's mapping table (U+1E9E maps to "ss" at 15.0),
# RFC 5892's derived property (U+2603 DISALLOWED) and appendix A.1 (ZWNJ between Latin letters).
input=
expect i8-sharp-s 0 $'xn--fa-hia.de\nxn--strae-oqa' '' -- -W no-idna-divergence --idna=2008 --to-ascii faß.de straße
expect i8-final-sigma 0 'xn--nxasmm1c.com' '' -- -W no-idna-divergence --idna=2008 --to-ascii βόλος.com
expect i8-capital-sharp-s 0 'ss' '' -- -W no-idna-divergence --idna=2008 --to-ascii ẞ
expect i8-snowman 1 '' \
  'zonepuny: error: ☃.com: label "☃" contains U+2603, a symbol UTS #46 keeps but IDNA2008 disallows (RFC 5892; NV8)' \
  -- -W no-idna-divergence --idna=2008 --to-ascii ☃.com
expect i8-zwnj 1 '' \
  'zonepuny: error: a‌b: label "a‌b" contains U+200C where its rule does not allow it (RFC 5892 appendix A.1, A.2: a joiner after a virama, a non-joiner between joining letters)' \
  -- -W no-idna-divergence --idna=2008 --to-ascii a‌b
expect i8-ace 0 $'xn--fa-hia.de\n_dmarc.xn--nxasmm1c.com' '' \
  -- -W no-idna-divergence --idna=2008 --to-ascii xn--fa-hia.de _dmarc.xn--nxasmm1c.com
expect i8-unicode 0 $'faß.de\nβόλος.com' '' -- --idna=2008 --to-unicode xn--fa-hia.de xn--nxasmm1c.com
expect i8-empty 1 '' \
  'zonepuny: error: x.​: label "​" is empty once mapped: IDNA maps every code point in it to nothing' \
  -- --idna=2008 --to-ascii x.​
# -W idna-divergence: a label the standards convert apart, with both results and the reason.
# Hand-derived: RFC 3491's table B.2 maps U+00DF to "ss"; U+2603 is NV8 in UTS #46 and
# DISALLOWED in RFC 5892 (its IDNA2003 ACE form "xn--n3h" is RFC 3492 on U+2603, as Python's
# punycode codec computes it); U+1E9E is unassigned in Unicode 3.2 and maps to "ss" in UTS #46;
# "xn--fa-hia" decodes to "faß", which IDNA2003 writes "fass".
div_strasse='label "straße" is "strasse" under IDNA2003 and "xn--strae-oqa" under IDNA2008: U+00DF is a deviation character, which IDNA2003 maps and IDNA2008 keeps (UTS #46 section 2.3) [-Widna-divergence]'
expect div-deviation 0 'strasse' "zonepuny: warning: straße: $div_strasse" -- --to-ascii straße
expect div-deviation-2008 0 'xn--strae-oqa' "zonepuny: warning: straße: $div_strasse" \
  -- --idna=2008 --to-ascii straße
expect div-only-2003 1 '' \
  'zonepuny: error: ☃.com: label "☃" contains U+2603, a symbol UTS #46 keeps but IDNA2008 disallows (RFC 5892; NV8); IDNA2003 makes it "xn--n3h" (--idna=2003)' \
  -- --idna=2008 --to-ascii ☃.com
expect div-only-2003-warn 0 'xn--n3h.com' \
  'zonepuny: warning: ☃.com: label "☃" is "xn--n3h" under IDNA2003, but IDNA2008 refuses it: it contains U+2603, a symbol UTS #46 keeps but IDNA2008 disallows (RFC 5892; NV8) [-Widna-divergence]' \
  -- --to-ascii ☃.com
expect div-only-2008 0 'ss' \
  'zonepuny: warning: ẞ: label "ẞ" is "ss" under IDNA2008, but IDNA2003 refuses it: it contains U+1E9E, unassigned in Unicode 3.2 (RFC 3454 table A.1) [-Widna-divergence]' \
  -- --idna=2008 --to-ascii ẞ
expect div-ace 0 'a.xn--fa-hia.de' \
  'zonepuny: warning: a.xn--fa-hia.de: label "xn--fa-hia" is valid under IDNA2008, but IDNA2003 refuses it: it is not the canonical ACE form of "faß" (ToASCII gives "fass") (U+00DF is a deviation character, which IDNA2003 maps and IDNA2008 keeps: UTS #46 section 2.3) [-Widna-divergence]' \
  -- --idna=2008 --to-ascii a.xn--fa-hia.de
expect div-ace-2003 1 '' \
  'zonepuny: error: xn--fa-hia.de: label "xn--fa-hia" is not the canonical ACE form of "faß" (ToASCII gives "fass"); IDNA2008 takes it (--idna=2008)' \
  -- --to-ascii xn--fa-hia.de
expect div-ace-case 1 '' \
  'zonepuny: error: xn--Fa-hia: label "xn--Fa-hia" is not the canonical ACE form of "Faß" (ToASCII gives "fass"); IDNA2008 takes it (--idna=2008)' \
  -- --to-ascii xn--Fa-hia
# A name: "0à" starts with a digit (Bidi class EN), which RFC 5893 rule 1 forbids in a name with
# a right-to-left label (א, class R); IDNA2003 has no rule across labels. à.א keeps the rule.
expect div-bidi-name 0 $'xn--0-sfa.xn--4db\nxn--0ca.xn--4db' \
  'zonepuny: warning: 0à.א: label "0à" breaks the Bidi rule of a name with right-to-left labels (RFC 5893 section 2): IDNA2008 refuses the name, IDNA2003 takes it [-Widna-divergence]' \
  -- --to-ascii 0à.א à.א
expect div-off 0 'strasse' '' -- -W no-idna-divergence --to-ascii straße
expect div-error 1 'strasse' "zonepuny: error: straße: $div_strasse" \
  -- -W error=idna-divergence --to-ascii straße
expect div-werror 1 'strasse' "zonepuny: error: straße: $div_strasse" -- -W error --to-ascii straße
# a name refused as a whole (here by the Bidi rule across its labels, RFC 5893) still has its
# diverging label told
expect div-name-refused 1 '' \
  'zonepuny: error: ב.1ß: label "1ß" breaks the Bidi rule of a name with right-to-left labels (RFC 5893 section 2)
zonepuny: warning: ב.1ß: label "1ß" is "1ss" under IDNA2003 and "xn--1-qfa" under IDNA2008: U+00DF is a deviation character, which IDNA2003 maps and IDNA2008 keeps (UTS #46 section 2.3) [-Widna-divergence]' \
  -- --idna=2008 --to-ascii 'ב.1ß'
# nowhere else: labels both standards convert alike, ASCII, and a name whose label is refused
# by both (U+0378 is unassigned in Unicode 3.2 and 15.0)
expect div-none 0 $'xn--mnchen-3ya.de\n_dmarc.xn--wgv71a\nXN--MNCHEN-3YA' '' \
  -- --to-ascii münchen.de _dmarc.日本 XN--MNCHEN-3YA
expect div-none-2008 0 $'xn--mnchen-3ya.de\n_dmarc.xn--wgv71a\nXN--MNCHEN-3YA' '' \
  -- --idna=2008 --to-ascii münchen.de _dmarc.日本 XN--MNCHEN-3YA
expect div-both-refuse 1 '' \
  'zonepuny: error: a͸: label "a͸" contains U+0378, unassigned in Unicode 3.2 (RFC 3454 table A.1)' \
  -- --to-ascii a͸
expect idna-bad 2 '' "zonepuny: error: --idna takes 2003 or 2008, not '2019'
Try 'zonepuny --help'." -- --idna=2019 --to-ascii x

if [ -w /dev/full ]; then
  "$ZONEPUNY" --to-ascii <"$tmp/many" >/dev/full 2>"$tmp/err"
  rc=$?
  if [ $rc = 2 ] && grep -q 'writing standard output' "$tmp/err"; then
    ok /dev/full
  else
    bad "/dev/full: exit $rc"
  fi
else
  skip "/dev/full: not writable here, the output error is not checked"
fi

finish
