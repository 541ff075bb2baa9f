/* name.h -- presentation-format domain names to wire format, label by label */
#ifndef ZP_NAME_H
#define ZP_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "wire.h"


/* The label policy (IDNA, lowercasing, --std3) is not the name parser's business: it is handed
 * each label with escapes resolved (raw octets) and writes the label to store. out has room for
 * *outlen octets (at least ZP_LABEL_MAX + 1); it sets *outlen to the length written. On failure
 * it returns a status and writes a message naming the label and the rule into msg. */
typedef struct zp_label_conv {
  zp_status (*fn)(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen,
                  char *msg, size_t msgcap);
  void *ctx;
} zp_label_conv;

typedef struct zp_name_error {
  size_t offset;   /* byte offset in the text where the offending label or escape starts */
  char msg[512];   /* a full sentence naming the label and the rule */
} zp_name_error;

/* Parses text[0..len) (RFC 1035 section 5.1: \DDD and \X escapes, "\." is not a separator) into
 * wire form in out (capacity ZP_NAME_MAX). "@" is the origin. A name not ending in an unescaped
 * dot is relative and gets origin (wire form, absolute) appended; with origin NULL that is an
 * error. conv may be NULL: labels are then stored as written. The 63 and 255 octet limits are
 * checked on the converted labels. *outlen is set to the wire length. */
ZP_NODISCARD zp_status zp_name_parse(const char *text, size_t len, const uint8_t *origin,
                                     const zp_label_conv *conv, uint8_t *out, size_t *outlen,
                                     zp_name_error *err);

/* Length of the wire-form name at wire (up to and including the root label). */
size_t zp_name_wire_len(const uint8_t *wire);

#endif
