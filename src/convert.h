/* convert.h -- the label policy: what every label of every name goes through */
#ifndef ZP_CONVERT_H
#define ZP_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "name.h"
#include "status.h"

typedef struct zp_convert {
  bool std3;   /* --std3: ASCII labels are letters, digits and hyphens, no hyphen at either end */
  bool keep_case;  /* ASCII and "xn--" labels keep their case instead of being lowercased */
} zp_convert;

/* The policy for one label (raw octets, escapes resolved), as a zp_label_conv function with ctx
 * a zp_convert:
 *  - octets >= 0x80: valid UTF-8, then IDNA2003 ToASCII with the host-name restrictions always
 *    on and unassigned code points refused;
 *  - "xn--" in any case: zp_idna_ace_check, then lowercased (unless keep_case);
 *  - other ASCII: lowercased (unless keep_case); under std3, LDH and no leading or trailing
 *    hyphen.
 * Failures write a sentence naming the label, the code point (U+XXXX) and the rule to msg. */
ZP_NODISCARD zp_status zp_convert_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                                        size_t *outlen, char *msg, size_t msgcap);

/* What the spelling policy remembers of the non-ASCII labels it has seen: zones repeat them,
 * and finding whether one is kept by IDNA costs a ToASCII and a ToUnicode. */
typedef struct zp_spelled {
  uint8_t len;           /* of label; 0: an empty slot */
  bool kept;
  uint8_t ace_len;
  uint8_t label[4 * ZP_LABEL_MAX];
  uint8_t ace[ZP_LABEL_MAX];
} zp_spelled;

typedef struct zp_spelling {
  zp_spelled seen[256];
} zp_spelling;

/* The policy of zp_record.spelling, over s (borrowed, zeroed before first use): a label that
 * ToASCII maps onto another label's name (ToUnicode of its result is not the label, ASCII case
 * aside: "ß", "Ü", fullwidth forms) is kept as written (cut to 63 octets at a character); every
 * other label as zp_convert_label converts it. */
zp_label_conv zp_convert_spelling(zp_spelling *s);

/* A zp_label_conv over c (borrowed). */
zp_label_conv zp_convert_policy(zp_convert *c);

#endif
