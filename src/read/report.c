/* report.c -- every message about a zone's files goes through here: shown as written once a
 * file reads as a zone, told by its location alone (and the file read no further) when its
 * first record or directive is an error, a warning held back until then. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "zone_int.h"

void zp_zone_drop_held(zp_zone *z)
{
  if (!z->held)
    return;
  fclose(z->held);
  free(z->held_text);
  z->diag->warnings -= z->held_warnings;
  z->held = NULL;
  z->held_text = NULL;
  z->held_warnings = 0;
}

void zp_zone_reads(zp_zfile *f)
{
  zp_zone *z = f->z;
  if (f->show != ZP_SHOW_UNDECIDED)
    return;
  f->show = ZP_SHOW_ALL;
  if (z->held && fflush(z->held) == 0)
    fwrite(z->held_text, 1, z->held_len, z->diag->out);
  z->held_warnings = 0;   /* (shown: they count) */
  zp_zone_drop_held(z);
}

/* Whether an error at loc is shown as written. An error in the first record or directive of a
 * file that has not read as a zone yet means that it is not one (a key, /etc/shadow): the error
 * is told by its location alone, nothing else of the file is shown (its lines could be secrets,
 * and so could the tokens messages quote), and the file is read no further (zp_zone_line_end). */
static bool shown(zp_zone *z, const zp_loc *loc)
{
  zp_zfile *f = zp_zone_file_at(loc);
  if (!f || f->show == ZP_SHOW_ALL)
    return true;
  if (f->show == ZP_SHOW_UNDECIDED) {
    f->show = ZP_SHOW_NONE;
    f->src.fd = NULL;   /* (nor its line: diag quotes only what it can read) */
    zp_zone_drop_held(z);
    zp_diag_report(z->diag, loc, ZP_ERROR, "the file's first record or directive is an error: "
                   "not read as a zone, and none of its text is shown (standard input is)");
  }
  return false;
}

void zp_zone_flush(zp_zone *z)
{
  if (!z->pending)
    return;
  z->pending = false;
  if (shown(z, &z->pending_loc))
    zp_diag_report(z->diag, &z->pending_loc, ZP_ERROR, "%s", z->pending_msg);
}

/* A message at loc: an error (fatal, or any under -W error) is shown only where the file may be
 * shown; a warning in a file still undecided waits in z->held until the file reads as a zone,
 * and goes if it does not: a label in it is the file's text. */
ZP_PRINTF(4, 0) static void tell(zp_zone *z, const zp_loc *loc, bool fatal, const char *fmt,
                                 va_list ap)
{
  char msg[4096];   /* (as the sink's: a message may give the strings a TXT value makes) */
  vsnprintf(msg, sizeof msg, fmt, ap);
  zp_zone_flush(z);
  zp_severity sev = fatal || z->diag->werror ? ZP_ERROR : ZP_WARNING;
  zp_zfile *f = zp_zone_file_at(loc);
  if (sev == ZP_ERROR && !shown(z, loc))
    return;
  if (!f || f->show == ZP_SHOW_ALL || sev == ZP_ERROR) {
    zp_diag_report(z->diag, loc, sev, "%s", msg);
    return;
  }
  if (f->show == ZP_SHOW_NONE)
    return;
  if (!z->held && !(z->held = open_memstream(&z->held_text, &z->held_len)))
    return;   /* (out of memory: a warning lost is safer than a secret shown) */
  FILE *out = z->diag->out;
  z->diag->out = z->held;
  unsigned before = z->diag->warnings;
  zp_diag_report(z->diag, loc, sev, "%s", msg);
  z->held_warnings += z->diag->warnings - before;
  z->diag->out = out;
}

void zp_zone_report(zp_zone *z, const zp_loc *loc, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  tell(z, loc, true, fmt, ap);
  va_end(ap);
}

void zp_zone_warn(zp_zone *z, const zp_loc *loc, bool fatal, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  tell(z, loc, fatal, fmt, ap);
  va_end(ap);
}

void zp_zone_syntax(zp_zfile *f, const zp_loc *loc, const char *msg)
{
  zp_zone *z = f->z;
  zp_zone_flush(z);
  z->pending = true;
  z->pending_loc = *loc;
  snprintf(z->pending_msg, sizeof z->pending_msg, "%s", msg);
}

void zp_zone_directive_usage(zp_zfile *f, const char *usage, const zp_loc *loc)
{
  zp_zone *z = f->z;
  /* only a syntax error gets the advice: a problem already reported keeps its own message */
  if (!z->pending)
    return;
  z->pending_loc = *loc;
  snprintf(z->pending_msg, sizeof z->pending_msg, "%s", usage);
}
