/* message.c -- how the checks speak: a message is told at once while records come in, and held
 * from the pass on so that every message is told in the order of the records it is about */
#include <stdarg.h>
#include <stdio.h>

#include "check_int.h"
#include "record/rrtype.h"

static zp_severity severity(const zp_checker *c, zp_check_id id)
{
  return c->opt.level[id] == ZP_LEVEL_ERROR ? ZP_ERROR : ZP_WARNING;
}

static zp_loc loc_of(const zp_checker *c, const zp_ck_tuple *t)
{
  return (zp_loc){.src = t->src == UINT32_MAX ? NULL : &c->srcs[t->src]->src, .line = t->line,
                  .col = t->col, .line_off = t->line_off};
}

/* A message held until the pass is done, then the text. */
typedef struct held {
  uint32_t seq, n;       /* of the record it is about (UINT32_MAX: the zone's), of the message */
  uint32_t src, line;
  uint64_t line_off;
  uint16_t col;
  uint8_t id, placed;    /* the check; whether it has a place */
  uint8_t sev;           /* its zp_severity */
  uint8_t served_only;   /* told only if the record is ever served (F_SERVED_ONLY) */
} held;

/* A message with no record to point at (a zone without one) is about the zone's file as a
 * whole, where there is one. */
static void tell(zp_checker *c, zp_check_id id, zp_severity sev, const zp_ck_tuple *at,
                 const char *msg)
{
  zp_source file = {.path = c->opt.file};
  zp_loc loc = {.src = &file};
  if (at)
    loc = loc_of(c, at);
  zp_diag_report(c->diag, at || c->opt.file ? &loc : NULL, sev, "%s [-W%s]", msg,
                 zp_check_name(id));
}

ZP_PRINTF(5, 0) static void report(zp_checker *c, zp_check_id id, zp_severity sev,
                                   const zp_ck_tuple *at, const char *fmt, va_list ap)
{
  if (!zp_ck_on(c, id))
    return;   /* (-Wno-NAME: a check whose rule runs anyway, as DNSSEC's walk, says nothing) */
  char msg[1536];
  int n = vsnprintf(msg, sizeof msg, fmt, ap);
  if (!c->holding) {
    tell(c, id, sev, at, msg);
    return;
  }
  held h = {.seq = at ? at->seq : UINT32_MAX, .n = c->nheld++, .id = (uint8_t)id,
            .placed = at != NULL, .sev = (uint8_t)sev};
  if (at) {
    h.src = at->src;
    h.line = at->line;
    h.line_off = at->line_off;
    h.col = at->col;
    h.served_only = (at->flags & F_SERVED_ONLY) != 0;
  }
  struct iovec parts[2] = {{&h, sizeof h}, {msg, n < 0 ? 0 : (size_t)n < sizeof msg ? (size_t)n + 1
                                                                                    : sizeof msg}};
  if (zp_spill_add(c->held, parts, 2) != ZP_OK)
    tell(c, id, sev, at, msg);   /* (out of memory or disk: told now, out of order, not lost) */
}

ZP_PRINTF(4, 5) void zp_ck_report(zp_checker *c, zp_check_id id, const zp_ck_tuple *at,
                                  const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(c, id, severity(c, id), at, fmt, ap);
  va_end(ap);
}

ZP_PRINTF(4, 5) void zp_ck_error(zp_checker *c, zp_check_id id, const zp_ck_tuple *at,
                                 const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  report(c, id, ZP_ERROR, at, fmt, ap);
  va_end(ap);
}

/* v as four octets, most significant first: the order the spill compares them in. */
static void be32(uint8_t *out, uint32_t v)
{
  for (unsigned i = 0; i < 4; i++)
    out[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* The held messages' order: record, then message. */
bool zp_ck_held_order(const uint8_t *entry, size_t len, size_t window,
                      uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  (void)len;
  (void)ctx;
  held h;
  memcpy(&h, entry, sizeof h);
  memset(out, 0, ZP_SPILL_PREFIX);
  if (window == 0) {
    be32(out, h.seq);
    be32(out + 4, h.n);
  }
  return true;
}

bool zp_ck_seq_order(const uint8_t *entry, size_t len, size_t window,
                     uint8_t out[ZP_SPILL_PREFIX], void *ctx)
{
  (void)len;
  (void)ctx;
  uint32_t seq;
  memcpy(&seq, entry, sizeof seq);
  memset(out, 0, ZP_SPILL_PREFIX);
  if (window == 0)
    be32(out, seq);
  return true;
}

/* The held messages, told in order; the records never served come in order beside them. */
zp_status zp_ck_tell_held(zp_checker *c)
{
  const uint8_t *e, *u = NULL;
  size_t len;
  uint32_t useq = 0;
  zp_status st = ZP_OK;
  bool more = true;   /* records never served may follow u */
  while (st == ZP_OK && (st = zp_spill_next(c->held, &e, &len)) == ZP_OK && e) {
    held h;
    memcpy(&h, e, sizeof h);
    while (more && (!u || useq < h.seq) && h.served_only &&
           (st = zp_spill_next(c->unserved, &u, &len)) == ZP_OK) {
      more = u != NULL;
      if (u)
        memcpy(&useq, u, sizeof useq);
    }
    if (h.served_only && u && useq == h.seq)
      continue;
    zp_ck_tuple t = {.src = h.src, .line = h.line, .col = h.col, .line_off = h.line_off};
    tell(c, (zp_check_id)h.id, (zp_severity)h.sev, h.placed ? &t : NULL,
         (const char *)e + sizeof h);
  }
  return st;
}

/* The text of a wire name, NUL-terminated, in one of a few rotating buffers (a message names
 * up to three). */
const char *zp_ck_name_text(const uint8_t *wire)
{
  static char bufs[4][ZP_NAME_TEXT_MAX + 1];
  static unsigned next;
  char *b = bufs[next++ % 4];
  b[zp_name_text(b, wire)] = '\0';
  return b;
}

/* The text of the name whose sort key is key[0..len). */
const char *zp_ck_key_text(const uint8_t *key, size_t len)
{
  uint8_t wire[ZP_NAME_MAX];
  zp_name_from_sort_key(key, len, wire);
  return zp_ck_name_text(wire);
}

/* The text of the name being looked at. */
const char *zp_ck_owner_text(const zp_ck_group *g)
{
  return zp_ck_key_text(g->key, g->key_len);
}

/* "file:line" of a tuple, for a message that names a second record. */
const char *zp_ck_where(const zp_checker *c, const zp_ck_tuple *t)
{
  static char bufs[2][600];
  static unsigned next;
  char *b = bufs[next++ % 2];
  if (t->src == UINT32_MAX)
    snprintf(b, sizeof bufs[0], "line %u", t->line);
  else
    snprintf(b, sizeof bufs[0], "%s:%u", c->srcs[t->src]->src.path, t->line);
  return b;
}

const char *zp_ck_type_text(uint16_t type)
{
  static char bufs[2][ZP_RRTYPE_TEXT_MAX];
  static unsigned next;
  return zp_rrtype_name(type, bufs[next++ % 2]);
}
