/* emit.h -- the writer: each record checked against its type and written in ldns's text */
#ifndef ZP_EMIT_H
#define ZP_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "name.h"
#include "status.h"
#include "zone.h"

typedef struct zp_emit_options {
  zp_label_conv conv;  /* label policy for names in RDATA (owners arrive already converted) */
  zp_label_conv conv_keep_case;  /* the same keeping ASCII case, for the RDATA names of types
                                    whose names DNSSEC does not lowercase (RFC 6840 5.1) */
  bool sort;           /* RFC 4034 6.1 canonical order, duplicates dropped: held until finish */
  bool unicode;        /* names written through ToUnicode, for human review */
  const uint8_t *generic;  /* a bit per type (65536 bits, the first type in the high bit of
                              octet 0): written in RFC 3597 form; NULL: none. Borrowed. */
} zp_emit_options;

typedef struct zp_emitter zp_emitter;

/* out may be NULL: records are built and checked, nothing is written (--check). out and diag
 * are borrowed and must outlive the emitter. *em is freed with zp_emit_free. */
ZP_NODISCARD zp_status zp_emit_new(const zp_emit_options *opt, FILE *out, zp_diag *diag,
                                   zp_emitter **em);

/* A zp_record_fn (user is the zp_emitter): builds the record as an ldns_rr and writes it in
 * ldns presentation format. Bad RDATA is reported to diag with the field's location and the
 * record is skipped: ZP_OK. Returns ZP_EIO when writing fails, ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_emit_record(void *em, const zp_record *rec);

/* Writes what --sort held back and flushes. ZP_EIO when any write failed. */
ZP_NODISCARD zp_status zp_emit_finish(zp_emitter *em);

void zp_emit_free(zp_emitter *em);

#endif
