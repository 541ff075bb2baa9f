/* text.h -- text from the input (file names, quoted lines, names in messages) as the text
 * formats write it */
#ifndef ZP_TEXT_H
#define ZP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The octets of the next character of s[0..n) (n >= 1; 1 for an octet that is no UTF-8), and
 * in *escape whether it is written escaped: C0 controls but the tab, DEL, C1 controls, the line
 * and paragraph separators (U+2028, U+2029), the bidirectional embeddings, overrides and
 * isolates (U+202A-U+202E, U+2066-U+2069), and octets that are no UTF-8. */
size_t zp_text_char(const unsigned char *s, size_t n, bool *escape);

/* s[0..n), what zp_text_char escapes written as \DDD for each octet, as a zone writes an
 * octet it cannot show (RFC 1035 section 5.1). */
void zp_text_write(FILE *out, const char *s, size_t n);

/* s[0..n) as the inside of a JSON string (RFC 8259 section 7): what zp_text_char escapes as
 * \uXXXX, octets that are no UTF-8 (a file name may hold any) as U+FFFD. */
void zp_text_json(FILE *out, const char *s, size_t n);

#endif
