/* mixed.h -- labels that mix scripts beyond UTS #39's "Moderately Restrictive" */
#ifndef ZP_MIXED_H
#define ZP_MIXED_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

/* Whether the label in[0..inlen), whose ACE form is ace[0..len) (valid: IDNA converted or
 * checked it), decodes to characters of more scripts than UTS #39 section 5.2's "Moderately
 * Restrictive" allows (uts39.h); if so, msg[0..cap) says so, naming the label in both forms,
 * the scripts and their characters: "... mixes Latin with Cyrillic (U+0430 "а"), ...". */
bool zp_mixed_script(const uint8_t *in, size_t inlen, const char *ace, size_t len, char *msg,
                     size_t cap);

#endif
