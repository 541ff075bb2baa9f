/* rdata_parse.h -- RDATA text of one record to wire form as hex, for the RDATA tests */
#ifndef ZP_TESTS_RDATA_PARSE_H
#define ZP_TESTS_RDATA_PARSE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "record/rrtype.h"
#include "read/rdata.h"
#include "record.h"

/* ASCII labels lowercased, as the label policy does for the names DNSSEC lowercases */
static zp_status lower(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen,
                       char *msg, size_t msgcap, size_t *at)
{
  (void)ctx, (void)msg, (void)msgcap, (void)at;
  for (size_t i = 0; i < inlen; i++)
    out[i] = in[i] >= 'A' && in[i] <= 'Z' ? (uint8_t)(in[i] + 32) : in[i];
  *outlen = inlen;
  return ZP_OK;
}

static const zp_label_conv lower_conv = {lower, NULL, NULL, NULL},
                           keep_conv = {NULL, NULL, NULL, NULL};

/* Parses rdata of type; the wire as lowercase hex into hex (or the error as
 * "COL: message"). Returns whether it parsed. */
static bool parse(const char *type, const char *rdata, char *out, size_t cap)
{
  uint16_t t;
  cr_assert(zp_rrtype_from_text(type, strlen(type), &t), "%s", type);
  built b;
  build(&b, "x.example.", t, rdata);
  zp_rdata_in in = {t, b.rec.fields, b.rec.nfields, b.rec.origin, &lower_conv, &keep_conv,
                    NULL, NULL, false, NULL};
  static uint8_t wire[ZP_RDATA_MAX];
  size_t len = 0;
  zp_rdata_error err;
  zp_status st = b.rec.generic ? zp_rdata_generic(&in, wire, &len, &err)
                               : zp_rdata_parse(&in, wire, &len, &err);
  if (st != ZP_OK) {
    zp_loc at = zp_rdata_error_loc(&err, &b.rec);
    /* (the message as much as out holds: a test reads its start) */
    int room = cap > 16 ? (int)(cap - 16) : 0;
    snprintf(out, cap, "%u: %.*s", at.col, room, err.msg);
    return false;
  }
  for (size_t i = 0; i < len && 2 * i + 2 < cap; i++)
    sprintf(out + 2 * i, "%02x", wire[i]);
  out[2 * len < cap ? 2 * len : cap - 1] = '\0';
  return true;
}

/* hex without blanks (rows of hex are broken for reading) */
static void squeeze(const char *in, char *out)
{
  for (; *in; in++)
    if (*in != ' ')
      *out++ = *in;
  *out = '\0';
}

#endif
