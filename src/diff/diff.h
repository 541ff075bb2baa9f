/* diff.h -- two zones' records compared in canonical order: what only one of them holds */
#ifndef ZP_DIFF_H
#define ZP_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "idna/status.h"
#include "record/sort.h"
#include "write/emit.h"

typedef enum zp_diff_format {
  ZP_DIFF_TEXT,       /* "-" and "+" before the record's line, "~" for a TTL changed */
  ZP_DIFF_JSON,       /* JSON Lines: one object per change */
  ZP_DIFF_MARKDOWN,   /* a summary for a review: counts per type, the names changed */
  ZP_DIFF_COUNT,      /* nothing written: the counts alone (em and out may be NULL) */
} zp_diff_format;

typedef struct zp_diff_options {
  zp_diff_format format;
  bool ignore_dnssec;   /* RRSIG, NSEC and NSEC3 left out: a signer's churn */
  const char *old_name, *new_name;   /* the zones, as the Markdown title names them */
} zp_diff_options;

/* What the two zones differ in, counted. */
typedef struct zp_diff_counts {
  unsigned long removed, added, ttl;
  unsigned long soa;          /* of these, SOA records (removed and added) */
  bool old_soa, new_soa;      /* each zone's SOA serial, where it has an SOA */
  uint32_t old_serial, new_serial;
  bool soa_alike;             /* both have an SOA, alike but for the serial (TTL and owner too) */
} zp_diff_counts;

/* Walks the records old and new hold (zp_sort_next, canonical order, duplicates dropped) side
 * by side, and writes to out each record only one of them holds, and each held by both with
 * another TTL, as the records' lines em makes (zp_emit_line). ZP_OK, ZP_EWRITE when writing
 * out failed, the sorters' failures, ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_diff_run(zp_sorter *old, zp_sorter *new, const zp_diff_options *opt,
                                   zp_emitter *em, FILE *out, zp_diff_counts *counts);

#endif
