/* diverge.h -- where IDNA2003 and IDNA2008 disagree on a label, and why */
#ifndef ZP_DIVERGE_H
#define ZP_DIVERGE_H

#include <stddef.h>
#include <stdint.h>

#include "idna/idna.h"

typedef enum zp_divergence {
  ZP_DIV_NONE,        /* one result, or both refuse the label */
  ZP_DIV_DEVIATION,   /* both convert it, differently, and it holds a deviation character */
  ZP_DIV_MAPPING,     /* both convert it, differently, without a deviation character: UTS #46
                         maps as IDNA2003 did elsewhere, and no label of Unicode 15.0 comes here
                         (tests/test_diverge.c), but a later version might */
  ZP_DIV_ONLY_2003,   /* IDNA2003 converts it, IDNA2008 refuses it */
  ZP_DIV_ONLY_2008    /* IDNA2008 converts it, IDNA2003 refuses it */
} zp_divergence;

/* A label's result under each standard: [0] IDNA2003, [1] IDNA2008. */
typedef struct zp_idna_both {
  zp_status st[2];
  size_t len[2];
  char ace[2][ZP_LABEL_MAX];
  zp_idna_detail det[2];
  uint32_t cp;   /* the label's first deviation character, or 0 */
} zp_idna_both;

/* ToASCII of the label in[0..len) (valid UTF-8) under one standard (k: 0 IDNA2003, 1
 * IDNA2008) as a label alone can be judged, into b's slot k (st[k], ace[k], len[k], det[k]):
 * under IDNA2008 a label that holds a right-to-left code point and breaks the Bidi rule is
 * refused (ZP_IDNA_BIDI_RULE), as every name holding it is a Bidi domain name (RFC 5893). */
zp_status zp_idna_label_alone(const uint8_t *in, size_t len, unsigned flags, int k,
                              zp_idna_both *b);

/* Converts the label in[0..len) (raw octets, as the label policy gets it) with standard k and,
 * where the result may differ, the other one too (flags as idna.h's; ZP_IDNA_CHECK_ACE: an
 * "xn--" label is checked, not passed), and says how the results differ. b's slot k is filled
 * but for a label of plain ASCII (not "xn--") or invalid UTF-8, the same under both:
 * ZP_DIV_NONE with b untouched. */
zp_divergence zp_idna_diverge(const uint8_t *in, size_t len, unsigned flags, int k,
                              zp_idna_both *b);

/* The warning's sentence for a divergence d of label in[0..len) (d not ZP_DIV_NONE): both
 * results and the reason. */
void zp_divergence_explain(zp_divergence d, const zp_idna_both *b, const uint8_t *in,
                           size_t len, unsigned flags, char *msg, size_t cap);

/* What follows the refusal of label in[0..len) that only the other standard converts (d is
 * ZP_DIV_ONLY_2003 or ZP_DIV_ONLY_2008): "IDNA2008 makes it "ss" (--idna=2008)". */
void zp_divergence_hint(zp_divergence d, const zp_idna_both *b, const uint8_t *in, size_t len,
                        char *out, size_t cap);

/* What follows the Bidi refusal of a name (RFC 5893) that IDNA2003, which has no rule across
 * labels, takes: the divergence of a name whose labels each convert alike. */
#define ZP_DIV_BIDI_NAME "IDNA2008 refuses the name, IDNA2003 takes it"

#endif
