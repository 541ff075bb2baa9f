/* emit.h -- the writer: records in wire form, checked by the reader, written as text */
#ifndef ZP_EMIT_H
#define ZP_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "idna/status.h"
#include "record/wire_name.h"
#include "record/record.h"
#include "record/sort.h"

typedef struct zp_emit_options {
  bool sort;           /* RFC 4034 6.1 canonical order, duplicates dropped: held until finish */
  size_t sort_memory;  /* ... in at most this many octets, past which in temporary files */
  bool unicode;        /* names written through ToUnicode, for human review */
  bool idna2008;       /* ... IDNA2008's (--idna=2008), else IDNA2003's */
  const uint8_t *generic;  /* a bit per type (65536 bits, the first type in the high bit of
                              octet 0): written in RFC 3597 form; NULL: none. Borrowed. */
  zp_sorter *into;     /* not NULL: each record is held there (once ldns is known to write
                          it), and nothing written. Borrowed. */
} zp_emit_options;

typedef struct zp_emitter zp_emitter;

/* out may be NULL: records are built and checked, nothing is written (--check). out and diag
 * are borrowed and must outlive the emitter. *em is freed with zp_emit_free. */
ZP_NODISCARD zp_status zp_emit_new(const zp_emit_options *opt, FILE *out, zp_diag *diag,
                                   zp_emitter **em);

/* A zp_record_fn (user is the zp_emitter): writes a record whose RDATA the reader turned into
 * wire form (rec->rdata; rec->generic: a type it does not parse, written in RFC 3597 form).
 * Returns ZP_EIO when writing fails, ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_emit_record(void *em, const zp_record *rec);

/* The line the writer would write for rec (owner, TTL, class, type and RDATA separated by tabs,
 * and a newline) into *line[0..*len), the emitter's until its next call, for a caller that
 * writes it elsewhere (--diff); *line NULL when ldns cannot write the record (reported). */
ZP_NODISCARD zp_status zp_emit_line(zp_emitter *em, const zp_record *rec, const char **line,
                                    size_t *len);

/* Writes what --sort held back and flushes. ZP_EIO when any write failed; a failure of --sort's
 * temporary files (ZP_ETMPFILE, ZP_ETMPLIMIT), ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_emit_finish(zp_emitter *em);

void zp_emit_free(zp_emitter *em);

/* How a record of the type is written as text, when it is: by format.c alone (it writes every
 * field kind of the type), or through ldns's descriptor of it; or not as text at all, since
 * ldns does not know it (its fields would be written as another type's), but in RFC 3597
 * form. */
typedef enum zp_emit_route { ZP_EMIT_GENERIC, ZP_EMIT_FORMAT, ZP_EMIT_LDNS } zp_emit_route;
zp_emit_route zp_emit_text_route(uint16_t type);

#endif
