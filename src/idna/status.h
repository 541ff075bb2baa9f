/* status.h -- the one status enum of zonepuny, with a message table */
#ifndef ZP_STATUS_H
#define ZP_STATUS_H

#if defined(__GNUC__)
#define ZP_NODISCARD __attribute__((warn_unused_result))
/* Every printf-like function of zonepuny tells of a problem, and is cold: the compiler keeps its
 * calls off the straight path of the code around them, which then fits the instruction cache
 * (callgrind's I1 misses on a 30k-record zone: 3.6M to 3.0M). */
#define ZP_PRINTF(f, a) __attribute__((format(printf, f, a), cold))
#else
#define ZP_NODISCARD
#define ZP_PRINTF(f, a)
#endif

/* X(name, value, message). Groups: 0 ok; -1.. system; -20.. UTF-8; -40.. Punycode;
 * -60.. Nameprep/IDNA; -100.. zone syntax and semantics. Append within a group only:
 * values are part of the library ABI. */
#define ZP_STATUS_LIST(X) \
  X(ZP_OK,                   0,   "success") \
  X(ZP_ENOMEM,              -1,   "out of memory") \
  X(ZP_EIO,                 -2,   "input/output error") \
  X(ZP_EBUFFER,             -3,   "output buffer too small") \
  X(ZP_EINVAL,              -4,   "invalid argument") \
  X(ZP_ELIMIT,              -5,   "implementation limit exceeded") \
  X(ZP_EWRITE,              -6,   "cannot write the output") \
  X(ZP_EOWNER,              -7,   "cannot give the new file the owner and group of the one it replaces") \
  X(ZP_ETMPFILE,            -8,   "cannot make or use a temporary file in $TMPDIR") \
  X(ZP_ETMPLIMIT,           -9,   "temporary files reached their limit (--tmp-limit)") \
  X(ZP_ECHECKMEM,          -10,   "the whole-zone checks need more memory than --check-memory gives") \
  X(ZP_UTF8_TRUNCATED,     -20,   "truncated UTF-8 sequence") \
  X(ZP_UTF8_BAD_BYTE,      -21,   "invalid UTF-8 byte") \
  X(ZP_UTF8_OVERLONG,      -22,   "overlong UTF-8 encoding") \
  X(ZP_UTF8_SURROGATE,     -23,   "UTF-8 encodes a surrogate code point") \
  X(ZP_UTF8_RANGE,         -24,   "code point beyond U+10FFFF") \
  X(ZP_PUNY_BAD_DIGIT,     -40,   "invalid Punycode digit") \
  X(ZP_PUNY_TRUNCATED,     -41,   "truncated Punycode input") \
  X(ZP_PUNY_OVERFLOW,      -42,   "Punycode arithmetic overflow") \
  X(ZP_PUNY_NON_BASIC,     -44,   "non-basic code point before the Punycode delimiter") \
  X(ZP_PUNY_BAD_CODE_POINT,-45,   "decoded value is not a Unicode scalar value") \
  X(ZP_IDNA_PROHIBITED,    -60,   "prohibited code point (RFC 3491 section 5)") \
  X(ZP_IDNA_UNASSIGNED,    -61,   "unassigned code point in Unicode 3.2 (RFC 3454 table A.1)") \
  X(ZP_IDNA_BIDI_MIXED,    -62,   "bidi: label mixes right-to-left and left-to-right characters (RFC 3454 section 6)") \
  X(ZP_IDNA_BIDI_ENDS,     -63,   "bidi: right-to-left label must start and end with a right-to-left character (RFC 3454 section 6)") \
  X(ZP_IDNA_NOT_LDH,       -64,   "label contains a code point that is not a letter, digit or hyphen") \
  X(ZP_IDNA_HYPHEN,        -65,   "label starts or ends with a hyphen") \
  X(ZP_IDNA_ACE_PREFIX,    -66,   "label already starts with the ACE prefix \"xn--\"") \
  X(ZP_IDNA_EMPTY,         -67,   "empty label") \
  X(ZP_IDNA_TOO_LONG,      -68,   "label longer than 63 octets") \
  X(ZP_IDNA_NAME_TOO_LONG, -69,   "name longer than 255 octets") \
  X(ZP_IDNA_ACE_DECODE,    -70,   "ACE label does not decode as Punycode") \
  X(ZP_IDNA_ACE_ASCII,     -71,   "ACE label decodes to pure ASCII") \
  X(ZP_IDNA_ACE_NOT_CANONICAL, -72, "ACE label does not round-trip through ToASCII") \
  X(ZP_IDNA_UNSUPPORTED,   -73,   "not yet supported") \
  X(ZP_IDNA_DISALLOWED,    -74,   "code point disallowed in IDNA2008 (RFC 5892)") \
  X(ZP_IDNA_NV8,           -75,   "symbol that UTS #46 keeps but IDNA2008 disallows (RFC 5892; NV8, XV8)") \
  X(ZP_IDNA_UNASSIGNED_15, -76,   "unassigned code point in Unicode 15.0") \
  X(ZP_IDNA_LEADING_MARK,  -77,   "label starts with a combining mark (RFC 5891 section 5.4)") \
  X(ZP_IDNA_HYPHEN_34,     -78,   "label has hyphens in its third and fourth positions (RFC 5891 section 4.2.3.1)") \
  X(ZP_IDNA_CONTEXTJ,      -79,   "zero width joiner or non-joiner out of its context (RFC 5892 appendix A.1, A.2)") \
  X(ZP_IDNA_CONTEXTO,      -80,   "code point out of its context (RFC 5892 appendix A.3-A.9)") \
  X(ZP_IDNA_BIDI_RULE,     -81,   "label breaks the Bidi rule (RFC 5893 section 2)") \
  X(ZP_IDNA_DOT,           -82,   "code point maps to a full stop, which separates labels (UTS #46 section 4)") \
  X(ZP_ZONE_SYNTAX,       -100,   "syntax error")

typedef enum zp_status {
#define ZP_STATUS_ENUM(name, value, msg) name = value,
  ZP_STATUS_LIST(ZP_STATUS_ENUM)
#undef ZP_STATUS_ENUM
} zp_status;

/* Message for a status ("unknown status" for a value not in the table). Static storage. */
const char *zp_strerror(zp_status st);
/* The enumerator's name, e.g. "ZP_PUNY_OVERFLOW"; static storage. */
const char *zp_errname(zp_status st);

#endif
