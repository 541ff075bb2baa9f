/* name.c -- presentation-format domain names to wire format, label by label (RFC 1035 5.1) */
#include "name.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "idna/idna.h"
#include "idna/idna2008.h"
#include "idna/utf8.h"

/* Raw labels longer than this cannot come out of ToASCII within 63 octets: Punycode spends at
 * least one output octet per code point, and a code point is at most 4 octets of UTF-8. */
enum { RAW_LABEL_MAX = 4 * ZP_LABEL_MAX };

ZP_PRINTF(4, 5) static zp_status fail(zp_name_error *err, size_t offset, zp_status st,
                                      const char *fmt, ...)
{
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->offset = offset;
  }
  return st;
}

static bool is_digit(char c)
{
  return c >= '0' && c <= '9';
}

/* The offset in text of the octet at raw offset at of the label written from text[start..)
 * (each escape, "\DDD" or "\X", is one octet). */
static size_t text_offset(const char *text, size_t start, size_t at)
{
  size_t i = start;
  for (size_t k = 0; k < at; k++)
    i += text[i] != '\\' ? 1 : is_digit(text[i + 1]) ? 4 : 2;
  return i;
}

/* One label from text[*pos..) up to an unescaped dot or the end, escapes resolved. */
static zp_status read_label(const char *text, size_t len, size_t *pos, uint8_t *label,
                            const uint8_t **raw, size_t *label_len, zp_name_error *err)
{
  size_t i = *pos, n = 0;
  /* most labels hold no escape: taken where they are written */
  while (i < len && text[i] != '.' && text[i] != '\\')
    i++;
  if (i - *pos <= RAW_LABEL_MAX && (i == len || text[i] == '.')) {
    *raw = (const uint8_t *)text + *pos;
    *label_len = i - *pos;
    *pos = i;
    return ZP_OK;
  }
  *raw = label;
  i = *pos;
  while (i < len && text[i] != '.') {
    uint8_t c = (uint8_t)text[i];
    size_t at = i;
    if (c == '\\') {
      if (i + 1 >= len)
        return fail(err, at, ZP_ZONE_SYNTAX, "name \"%.*s\" ends in a lone backslash",
                    (int)len, text);
      if (is_digit(text[i + 1])) {
        if (i + 3 >= len || !is_digit(text[i + 2]) || !is_digit(text[i + 3]))
          return fail(err, at, ZP_ZONE_SYNTAX,
                      "escape \"%.*s\" in a name needs three decimal digits (\\DDD)",
                      (int)(len - i < 4 ? len - i : 4), text + i);
        unsigned v = (unsigned)(text[i + 1] - '0') * 100 + (unsigned)(text[i + 2] - '0') * 10 +
                     (unsigned)(text[i + 3] - '0');
        if (v > 255)
          return fail(err, at, ZP_ZONE_SYNTAX, "escape \"\\%.3s\" is above \\255", text + i + 1);
        c = (uint8_t)v;
        i += 4;
      } else {
        c = (uint8_t)text[i + 1];
        i += 2;
      }
    } else {
      i++;
    }
    if (n == RAW_LABEL_MAX)
      return fail(err, *pos, ZP_IDNA_TOO_LONG, "label \"%.*s...\" is far longer than 63 octets",
                  20, text + *pos);
    label[n++] = c;
  }
  *pos = i;
  *label_len = n;
  return ZP_OK;
}

/* The policy's rule across the labels of the name text[0..len), now wire (asked of every name:
 * the test that nothing is due stays inline). */
static zp_status whole_due(const zp_label_conv *conv, const char *text, size_t len,
                           const uint8_t *wire, zp_name_error *err);
static inline zp_status whole(const zp_label_conv *conv, const char *text, size_t len,
                              const uint8_t *wire, zp_name_error *err)
{
  if (!conv || !conv->name || (conv->name_pending && !*conv->name_pending))
    return ZP_OK;
  return whole_due(conv, text, len, wire, err);
}

static zp_status whole_due(const zp_label_conv *conv, const char *text, size_t len,
                           const uint8_t *wire, zp_name_error *err)
{
  if (conv->name_pending)
    *conv->name_pending = false;
  char msg[sizeof err->msg];
  msg[0] = '\0';
  zp_status st = conv->name(conv->ctx, wire, msg, sizeof msg);
  if (st != ZP_OK)
    return fail(err, 0, st, "name \"%.*s\": %s", (int)len, text, msg);
  if (msg[0] && err && err->warn) {
    char full[sizeof err->msg];
    /* (a message cut short at the buffer's end is still told) */
    if (snprintf(full, sizeof full, "name \"%.*s\": %s", (int)len, text, msg) >= 0)
      err->warn(err->user, 0, full);
  }
  return ZP_OK;
}

zp_status zp_name_parse(const char *text, size_t len, const uint8_t *origin,
                        const zp_label_conv *conv, uint8_t *out, size_t *outlen,
                        zp_name_error *err)
{
  bool relative;
  return zp_name_parse_rel(text, len, origin, conv, out, outlen, &relative, err);
}

zp_status zp_name_parse_rel(const char *text, size_t len, const uint8_t *origin,
                            const zp_label_conv *conv, uint8_t *out, size_t *outlen,
                            bool *relative, zp_name_error *err)
{
  *relative = false;
  if (len == 1 && text[0] == '@') {
    if (!origin)
      return fail(err, 0, ZP_ZONE_SYNTAX, "\"@\" needs an origin ($ORIGIN or -z)");
    *outlen = zp_name_wire_len(origin);
    memcpy(out, origin, *outlen);
    *relative = true;
    return ZP_OK;
  }
  if (len == 0)
    return fail(err, 0, ZP_ZONE_SYNTAX, "empty domain name");
  if (len == 1 && text[0] == '.') {
    out[0] = 0;
    *outlen = 1;
    return ZP_OK;
  }
  size_t pos = 0, n = 0;
  bool absolute = false;
  while (pos < len) {
    size_t start = pos;
    uint8_t buf[RAW_LABEL_MAX];
    const uint8_t *raw;
    size_t raw_len = 0;
    zp_status st = read_label(text, len, &pos, buf, &raw, &raw_len, err);
    if (st != ZP_OK)
      return st;
    if (raw_len == 0)
      return fail(err, start, ZP_ZONE_SYNTAX, "empty label in \"%.*s\"", (int)len, text);
    uint8_t label[ZP_LABEL_MAX + 1];
    size_t label_len = sizeof label;
    if (conv && conv->fn) {
      char msg[sizeof err->msg];
      size_t at = 0;
      msg[0] = '\0';
      st = conv->fn(conv->ctx, raw, raw_len, label, &label_len, msg, sizeof msg, &at);
      at = at < raw_len ? text_offset(text, start, at) : start;
      if (st == ZP_OK && msg[0] && err && err->warn)
        err->warn(err->user, at, msg);
      if (st != ZP_OK) {
        if (!msg[0])
          snprintf(msg, sizeof msg, "label \"%.*s\": %s", (int)(pos - start), text + start,
                   zp_strerror(st));
        return fail(err, at, st, "%s", msg);
      }
    } else if (raw_len <= ZP_LABEL_MAX) {
      memcpy(label, raw, raw_len);
      label_len = raw_len;
    } else {
      label_len = raw_len;
    }
    if (label_len > ZP_LABEL_MAX)
      return fail(err, start, ZP_IDNA_TOO_LONG, "label \"%.*s\" is %zu octets; the limit is 63",
                  (int)(pos - start), text + start, label_len);
    if (n + 1 + label_len + 1 > ZP_NAME_MAX)
      return fail(err, 0, ZP_IDNA_NAME_TOO_LONG,
                  "name \"%.*s\" is longer than 255 octets in wire form", (int)len, text);
    out[n++] = (uint8_t)label_len;
    memcpy(out + n, label, label_len);
    n += label_len;
    if (pos < len) {
      pos++;   /* the dot */
      if (pos == len)
        absolute = true;
      else if (text[pos] == '.')
        return fail(err, pos, ZP_ZONE_SYNTAX, "empty label in \"%.*s\"", (int)len, text);
    }
  }
  if (absolute) {
    out[n++] = 0;
    *outlen = n;
    return whole(conv, text, len, out, err);
  }
  if (!origin)
    return fail(err, 0, ZP_ZONE_SYNTAX,
                "relative name \"%.*s\" needs an origin ($ORIGIN or -z)", (int)len, text);
  size_t olen = zp_name_wire_len(origin);
  if (n + olen > ZP_NAME_MAX)
    return fail(err, 0, ZP_IDNA_NAME_TOO_LONG,
                "name \"%.*s\" is longer than 255 octets in wire form once the origin is added",
                (int)len, text);
  memcpy(out + n, origin, olen);
  *outlen = n + olen;
  *relative = true;
  return whole(conv, text, len, out, err);
}
