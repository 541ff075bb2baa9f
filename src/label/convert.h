/* convert.h -- the label policy: what every label of every name goes through */
#ifndef ZP_CONVERT_H
#define ZP_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idna/status.h"
#include "record/wire_name.h"

typedef struct zp_label_cache zp_label_cache;

typedef struct zp_convert {
  bool std3;   /* --std3: ASCII labels are letters, digits and hyphens, no hyphen at either end */
  bool keep_case;  /* ASCII and "xn--" labels keep their case instead of being lowercased */
  bool idna2008;   /* IDNA2008 with UTS #46 mapping (idna2008.h) instead of IDNA2003 */
  bool as_served;  /* the server reads the zone file itself, not zonepuny's output: a non-ASCII
                      label would be served as its raw octets, never as its ACE form, so it is
                      an error (ZP_EINVAL) rather than converted */
  zp_label_cache *cache;  /* NULL, or where converted non-ASCII and ACE labels are remembered */
  struct zp_label_set *diverged;  /* NULL, or the labels whose divergence was told: each label
                                     IDNA2003 and IDNA2008 convert apart gets a warning, once */
  struct zp_label_set *mixed;  /* NULL, or the labels told as mixing scripts beyond UTS #39's
                                  "Moderately Restrictive" (mixed.h): each gets a warning, once */
  bool mixed_fatal;  /* such a label is refused instead (-W error=mixed-script) */
  bool mapped;     /* set (never cleared) when a non-ASCII label is one IDNA maps onto another
                      label's name; told only with a cache */
  bool bidi_due;   /* a label of the name being read holds a right-to-left code point or would
                      break the Bidi rule in a name that does (RFC 5893), since the rule across
                      labels last ran (zp_label_conv.name_pending) */
} zp_convert;

/* The labels told about, by their octets (zp_convert.diverged). */
typedef struct zp_label_set zp_label_set;
ZP_NODISCARD zp_status zp_label_set_new(zp_label_set **s);
/* Adds in[0..len) (at most 255 octets); *added: it was not there. ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_label_set_add(zp_label_set *s, const uint8_t *in, size_t len,
                                        bool *added);
void zp_label_set_free(zp_label_set *s);

/* The policy for one label (raw octets, escapes resolved), as a zp_label_conv function with ctx
 * a zp_convert:
 *  - octets >= 0x80: valid UTF-8, then IDNA2003 ToASCII with the host-name restrictions always
 *    on and unassigned code points refused (or IDNA2008's ToASCII, under idna2008);
 *  - "xn--" in any case: zp_idna_ace_check, then lowercased (unless keep_case);
 *  - other ASCII: lowercased (unless keep_case); under std3, LDH and no leading or trailing
 *    hyphen.
 * Failures write a sentence naming the label, the code point (U+XXXX) and the rule to msg.
 * With diverged, a label converted otherwise by the other standard (diverge.h) gets that as a
 * warning in msg (with ZP_OK) the first time, and a refusal the other standard would not make
 * says so. */
ZP_NODISCARD zp_status zp_convert_label(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                                        size_t *outlen, char *msg, size_t msgcap, size_t *at);

/* The non-ASCII and ACE labels seen so far, a slot each by hash: zones repeat them, and a label
 * costs a ToASCII (and a ToUnicode, to know whether IDNA keeps it; and the other standard's
 * ToASCII, to know whether they differ) the first time only. */
typedef struct zp_label_seen {
  uint8_t len;           /* of label; 0: an empty slot */
  bool kept;             /* ToUnicode of ace is label, ASCII case aside (an ACE label: true) */
  uint8_t ace_len;
  uint8_t bidi;          /* ace's Bidi bits under IDNA2008 (ZP_IDNA_BIDI_*) */
  uint8_t label[4 * ZP_LABEL_MAX];
  uint8_t ace[ZP_LABEL_MAX];
} zp_label_seen;

/* An ACE label's Bidi bits (idna2008.h), for the rule across a name's labels. */
typedef struct zp_ace_bidi {
  uint8_t len, bits;
  uint8_t ace[ZP_LABEL_MAX];
} zp_ace_bidi;

typedef struct zp_label_cache {
  zp_label_seen seen[256];
  zp_ace_bidi bidi[256];
} zp_label_cache;

/* The policy of zp_record.spelling, with c's standard and cache (borrowed; the cache zeroed
 * before first use, and may be shared with other policies; a label it converts first is not
 * told as diverging later, so it must only convert what c's own policy converted before): a label that ToASCII maps onto
 * another label's name (ToUnicode of its result is not the label, ASCII case aside: "ß" under
 * IDNA2003, "Ü", fullwidth forms) is kept as written (cut to 63 octets at a character); every
 * other label as zp_convert_label converts it. */
zp_label_conv zp_convert_spelling(zp_convert *c);

/* A zp_label_conv over c (borrowed); under idna2008 it holds whole names to RFC 5893's Bidi
 * rule across their labels (a label not plain ASCII, in a name with a right-to-left label);
 * under IDNA2003, with diverged, a name that rule refuses gets a warning, once a name. */
zp_label_conv zp_convert_policy(zp_convert *c);

#endif
