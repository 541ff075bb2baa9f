/* reverse.h -- -W reverse: forward-confirmed reverse DNS across the zones of one run */
#ifndef ZP_REVERSE_H
#define ZP_REVERSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "idna/status.h"
#include "record/record.h"

typedef struct zp_reverse zp_reverse;

/* A collector for one run, its records held within mem octets (past them, in $TMPDIR). */
ZP_NODISCARD zp_status zp_reverse_new(size_t mem, zp_reverse **r);
void zp_reverse_free(zp_reverse *r);
/* A record of a zone of the run as it comes in: A, AAAA, and PTR at a host's reverse name are
 * kept (failures are kept too, and told by zp_reverse_end). */
void zp_reverse_record(zp_reverse *r, const zp_record *rec);
/* The name of a zone of the run (wire form). ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_reverse_zone(zp_reverse *r, const uint8_t *apex);
/* The run is done: each A or AAAA without its PTR, each PTR without its address, where the
 * other name is in a zone of the run, told to diag (errors when error). ZP_ENOMEM, ZP_ETMPFILE,
 * ZP_ETMPLIMIT. */
ZP_NODISCARD zp_status zp_reverse_end(zp_reverse *r, zp_diag *diag, bool error);

#endif
