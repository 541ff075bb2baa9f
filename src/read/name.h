/* name.h -- presentation-format domain names to wire format, label by label */
#ifndef ZP_NAME_H
#define ZP_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idna/status.h"
#include "idna/wire.h"
#include "record/wire_name.h"

typedef struct zp_name_error {
  size_t offset;   /* byte offset in the text where the offending label or escape starts */
  char msg[1024];  /* a full sentence naming the label and the rule */
  /* NULL, or told each warning of the label policy (a label it converts, writing a message):
   * the byte offset of the label in the text, and the message */
  void (*warn)(void *user, size_t offset, const char *msg);
  void *user;
} zp_name_error;

/* Parses text[0..len) (RFC 1035 section 5.1: \DDD and \X escapes, "\." is not a separator) into
 * wire form in out (capacity ZP_NAME_MAX). "@" is the origin. A name not ending in an unescaped
 * dot is relative and gets origin (wire form, absolute) appended; with origin NULL that is an
 * error. conv may be NULL: labels are then stored as written. The 63 and 255 octet limits are
 * checked on the converted labels. *outlen is set to the wire length. */
ZP_NODISCARD zp_status zp_name_parse(const char *text, size_t len, const uint8_t *origin,
                                     const zp_label_conv *conv, uint8_t *out, size_t *outlen,
                                     zp_name_error *err);
/* The same, setting *relative to whether the origin completed the name ("@" included): RDATA
 * names tell the whole-zone checks so, which then ask about a final dot forgotten. */
ZP_NODISCARD zp_status zp_name_parse_rel(const char *text, size_t len, const uint8_t *origin,
                                         const zp_label_conv *conv, uint8_t *out, size_t *outlen,
                                         bool *relative, zp_name_error *err);

#endif
