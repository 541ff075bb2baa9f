/* wire_name.h -- domain names in wire form, as every stage holds them: their length, their
 * text (presentation form, and for people to read), their RFC 4034 order; and the interface of
 * the label policy every name's labels go through as the reader makes it */
#ifndef ZP_WIRE_NAME_H
#define ZP_WIRE_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idna/status.h"
#include "idna/wire.h"

/* The label policy (IDNA, lowercasing, --std3) is not the name parser's business: it is handed
 * each label with escapes resolved (raw octets) and writes the label to store. out has room for
 * *outlen octets (at least ZP_LABEL_MAX + 1); it sets *outlen to the length written. On failure
 * it returns a status and writes a message naming the label and the rule into msg, and into *at
 * the offset in in of what the message is about (0: the label as a whole; the caller sets 0
 * first); a message written with ZP_OK is a warning about the label (zp_name_error.warn). */
typedef struct zp_label_conv {
  zp_status (*fn)(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen,
                  char *msg, size_t msgcap, size_t *at);
  void *ctx;
  /* NULL, or a rule across the labels of the whole name (origin included), in wire form; like
   * fn, a message written with ZP_OK is a warning (zp_name_error.warn, at the name) */
  zp_status (*name)(void *ctx, const uint8_t *wire, char *msg, size_t msgcap);
  /* NULL, or set by fn when a label concerns the rule: the rule is asked only then, and the
   * flag cleared (most names hold no label any rule across labels is about) */
  bool *name_pending;
} zp_label_conv;

/* Length of the wire-form name at wire (up to and including the root label). */
size_t zp_name_wire_len(const uint8_t *wire);

/* Presentation text of a wire-form name, absolute (a final "."), not NUL-terminated: "\X" for
 * the characters that mean something in a master file, "\DDD" for octets that are not
 * printable ASCII; returns its length, at most ZP_NAME_TEXT_MAX. */
enum { ZP_NAME_TEXT_MAX = 4 * ZP_NAME_MAX };
size_t zp_name_text(char *out, const uint8_t *wire);

/* The same for people to read (--unicode, messages): ACE labels shown through ToUnicode, labels
 * of valid UTF-8 as they are, everything else as zp_name_text writes it. At most
 * ZP_NAME_UNICODE_MAX octets: 63 octets of ACE decode to at most 59 code points of 4 octets. */
enum { ZP_NAME_UNICODE_MAX = 128 * (4 * ZP_LABEL_MAX + 1) };
size_t zp_name_text_unicode(char *out, const uint8_t *wire, bool idna2008);

/* RFC 4034 section 6.1 order as an octet string that memcmp orders (a shorter string first):
 * labels from the root down, ASCII case folded, each ended by 0x00, octets 0x00 and 0x01
 * escaped as 0x01 0x01 and 0x01 0x02. A name's key is a prefix of its descendants' keys.
 * Returns the length, at most ZP_NAME_KEY_MAX. */
enum { ZP_NAME_KEY_MAX = 2 * ZP_NAME_MAX };
size_t zp_name_sort_key(const uint8_t *wire, uint8_t *key);
/* The wire form of the name whose sort key is key[0..len) (labels in their folded case). */
void zp_name_from_sort_key(const uint8_t *key, size_t len, uint8_t *wire);

#endif
