/* emit.h -- the only module that knows ldns: RR type tables and canonical output */
#ifndef ZP_EMIT_H
#define ZP_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Type mnemonic ("A", "aaaa", "TYPE65534") to its number, as ldns knows them. */
bool zp_rr_type_from_text(const char *text, size_t len, uint16_t *type);
/* Class mnemonic ("IN", "CH", "HS", "CS", "CLASS32") to its number. */
bool zp_rr_class_from_text(const char *text, size_t len, uint16_t *rclass);

#endif
