/* explain.h -- why a label is refused, in one sentence for zone runs and --to-ascii alike */
#ifndef ZP_EXPLAIN_H
#define ZP_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "idna/idna.h"
#include "idna/status.h"

/* Text as a message quotes it: UTF-8 as it is when all of it is valid UTF-8; control octets,
 * '"', '\' and (otherwise) octets >= 0x80 as \DDD, the way a zone file writes them. At most
 * cap - 1 bytes and a NUL go to out (4 * len + 1 always suffice); returns the length. */
size_t zp_explain_show(const uint8_t *in, size_t len, char *out, size_t cap);

/* The sentence, starting with the label, for label in[0..len) refused with st: by
 * zp_idna_label_to_ascii, zp_idna_ace_check or zp_idna_name_to_ascii (det: that call's detail,
 * flags: its flags, used to show a non-canonical ACE label's proper form), by the UTF-8 check,
 * or by the rules on ASCII labels (ZP_IDNA_NOT_LDH and ZP_IDNA_HYPHEN under --std3,
 * ZP_IDNA_TOO_LONG). Written to msg[0..cap). With ZP_IDNA_2008 in flags the refusal was
 * IDNA2008's (idna2008.h): a non-canonical ACE label's proper form is its ToASCII. */
void zp_explain_label(zp_status st, const uint8_t *in, size_t len, const zp_idna_detail *det,
                      unsigned flags, char *msg, size_t cap);
/* The sentence's predicate alone ("contains U+2603, ..."), to follow a label already named. */
void zp_explain_why(zp_status st, const uint8_t *in, size_t len, const zp_idna_detail *det,
                    unsigned flags, char *out, size_t cap);

#endif
