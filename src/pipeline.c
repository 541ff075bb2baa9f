/* pipeline.c -- one call converts a zone: read/ reads it, label/ is the policy of every label of
 * every name, write/ writes each record and check/ checks the zone as a whole */
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record/rrtype.h"
#include "record/soa_serial.h"
#include "core/tmpfile.h"
#include "label/convert.h"
#include "read/zone.h"
#include "write/emit.h"

typedef struct counter {
  zp_emitter *em;
  zp_serial_at *serial_at;
  const zp_pipeline_options *opt;
  bool soa_seen;
  zp_checker *ck;
  unsigned long records;
} counter;

static zp_status count_record(void *user, const zp_record *rec)
{
  counter *c = user;
  c->records++;
  zp_serial_at *at = c->serial_at;
  if (at && !at->path && rec->rtype == ZP_TYPE_SOA && rec->loc.src) {
    /* the serial's own field, where the text has it */
    const zp_loc *loc = !rec->generic && rec->nfields > 2 ? &rec->fields[2].loc : &rec->loc;
    if (!(at->path = strdup(rec->loc.src->path)))
      return ZP_ENOMEM;
    at->line = loc->line;
    at->col = loc->col;
  }
  zp_record soa;
  uint8_t rdata[ZP_NAME_MAX * 2 + 20];
  if (rec->rtype == ZP_TYPE_SOA && !c->soa_seen && c->opt->serial_set &&
      rec->rdlen <= sizeof rdata) {
    memcpy(rdata, rec->rdata, rec->rdlen);
    zp_soa_set_serial(rdata, c->opt->serial);
    soa = *rec;
    soa.rdata = rdata;
    rec = &soa;
  }
  c->soa_seen = c->soa_seen || rec->rtype == ZP_TYPE_SOA;
  zp_status st = zp_check_record(c->ck, rec);
  return st == ZP_OK ? zp_emit_record(c->em, rec) : st;
}

/* name in wire form, under opt's label policy; false when it is no name. (A label to warn
 * about is reported by the reader, whose policy must see it first: this one shares neither its
 * cache nor its labels told.) */
static bool name_wire(const zp_pipeline_options *opt, const char *name, uint8_t *wire)
{
  zp_convert c = {.std3 = opt->std3, .idna2008 = opt->idna2008, .as_served = opt->as_served};
  zp_label_conv conv = zp_convert_policy(&c);
  size_t len;
  return zp_name_parse(name, strlen(name), (const uint8_t *)"", &conv, wire, &len, NULL) == ZP_OK;
}

bool zp_pipeline_name_ok(const zp_pipeline_options *opt, const char *name)
{
  uint8_t wire[ZP_NAME_MAX];
  return name_wire(opt, name, wire);
}

bool zp_pipeline_name_wire(const zp_pipeline_options *opt, const char *name, uint8_t *wire)
{
  return name_wire(opt, name, wire);
}

/* The zone's name for the checks: -z in wire form, or NULL (the SOA's owner then; a -z that is
 * no name is reported by the reader). */
static const uint8_t *zone_name(const zp_pipeline_options *opt, uint8_t *wire)
{
  return opt->origin && !opt->origin_initial && name_wire(opt, opt->origin, wire) ? wire : NULL;
}

/* One reading of the zone: the reader's messages go to diag, the checks' to check_diag; *late:
 * --dnssec=auto found the zone signed too late to verify it (zp_check_dnssec_late). */
static zp_status read_zone(const zp_input *in, const zp_pipeline_options *opt, zp_diag *diag,
                           zp_diag *check_diag, FILE *out, unsigned long *records, bool *late)
{
  zp_convert conv = {.std3 = opt->std3, .idna2008 = opt->idna2008, .as_served = opt->as_served},
             keep = {.std3 = opt->std3, .idna2008 = opt->idna2008, .as_served = opt->as_served,
                     .keep_case = true};
  zp_zone_options zo = {
    .top_fd = in->fd,
    .as_served = opt->as_served,
    .origin = opt->origin,
    .origin_from = opt->origin_from,
    .origin_loc = opt->origin_loc,
    .default_ttl = opt->default_ttl,
    .have_default_ttl = opt->have_default_ttl,
    .no_include = opt->no_include,
    .include_root = opt->include_root,
    .include_dir = opt->include_dir,
    .output = opt->output,
    .max_generate = opt->max_generate,
    .overlay = opt->overlay,
    .overlay_user = opt->overlay_user,
  };
  /* one cache of non-ASCII labels for every policy: each is converted once */
  zp_label_cache *cache = calloc(1, sizeof *cache);
  if (!cache)
    return ZP_ENOMEM;
  conv.cache = keep.cache = cache;
  zp_check_level div = opt->checks.level[ZP_CK_IDNA_DIVERGENCE];
  zp_check_level mix = opt->checks.level[ZP_CK_MIXED_SCRIPT];
  zp_label_set *diverged = NULL, *mixed = NULL;
  if ((div != ZP_LEVEL_OFF && zp_label_set_new(&diverged) != ZP_OK) ||
      (mix != ZP_LEVEL_OFF && zp_label_set_new(&mixed) != ZP_OK)) {
    zp_label_set_free(diverged);
    free(cache);
    return ZP_ENOMEM;
  }
  conv.diverged = keep.diverged = diverged;
  conv.mixed = keep.mixed = mixed;
  conv.mixed_fatal = keep.mixed_fatal = mix == ZP_LEVEL_ERROR;
  zo.conv = zp_convert_policy(&conv);   /* (after diverged: the policy depends on it) */
  zo.conv_keep_case = zp_convert_policy(&keep);
  zo.label_warnings_fatal = div == ZP_LEVEL_ERROR;
  if (!opt->checks.off) {
    zo.spelling = zp_convert_spelling(&conv);
    zo.mapped = &conv.mapped;
  }
  uint8_t generic[65536 / 8];
  zp_rrtype_generic_set(opt->generic, generic);
  zp_emit_options eo = {.sort = opt->sort, .sort_memory = opt->sort_memory, .unicode = opt->unicode, .idna2008 = opt->idna2008,
                        .generic = generic, .into = opt->hold};
  counter c = {.serial_at = opt->serial_at, .opt = opt};
  bool soa_refused = false;
  uint8_t refused_owner[ZP_NAME_MAX] = {0xff};   /* (no label is 255 octets long: none yet) */
  zo.soa_refused = &soa_refused;
  zo.soa_refused_owner = refused_owner;
  uint8_t zone[ZP_NAME_MAX];
  zp_check_options ck = opt->checks;
  ck.load_order = opt->sort ? ZP_LOAD_SORTED : opt->as_served ? ZP_LOAD_SERVED : ZP_LOAD_WRITTEN;
  ck.file = in->path;
  uint8_t file_zone[ZP_NAME_MAX];
  if (opt->origin_initial && name_wire(opt, opt->origin, file_zone))
    ck.file_zone = file_zone;
  zp_status st = zp_check_new(&ck, zone_name(opt, zone), check_diag, &c.ck);
  if (st == ZP_OK)
    st = zp_emit_new(&eo, out, diag, &c.em);
  if (st != ZP_OK) {
    zp_check_free(c.ck);
    free(cache);
    zp_label_set_free(diverged);
    zp_label_set_free(mixed);
    return st;
  }
  if (in->data)
    st = zp_zone_parse_mem(in->path, in->data, in->len, &zo, diag, count_record, &c);
  else
    st = zp_zone_parse(in->path, &zo, diag, count_record, &c);
  /* the checks of the whole zone, on a zone read to its end */
  if (soa_refused)
    zp_check_soa_refused(c.ck, refused_owner[0] != 0xff ? refused_owner : NULL);
  if (st == ZP_OK && !zp_diag_stop(diag))
    st = zp_check_finish(c.ck);
  /* a failed write stops the parse with ZP_EIO too: finish tells the two apart; a spool of
   * the output, or a spill, past the bound on temporary files is that bound's doing */
  zp_status fin = zp_emit_finish(c.em);
  if (fin == ZP_EIO)
    st = ZP_EWRITE;
  else if (fin != ZP_OK && st == ZP_OK)
    st = fin;
  if (st != ZP_OK && zp_tmp_reached())
    st = ZP_ETMPLIMIT;
  *late = st == ZP_OK && zp_check_dnssec_late(c.ck);
  zp_emit_free(c.em);
  zp_check_free(c.ck);
  free(cache);
  zp_label_set_free(diverged);
  zp_label_set_free(mixed);
  if (records)
    *records = c.records;
  return st;
}

/* The zone's file as it is now: through its descriptor, when it has one. */
static bool file_stat(const zp_input *in, struct stat *sb)
{
  return (in->fd ? fstat(*in->fd, sb) : stat(in->path, sb)) == 0;
}

/* Whether the zone can be read a second time: text in memory, or a regular file (standard
 * input, a pipe, a FIFO or a device is read once); *id: the file as it is before the first. */
static bool rereadable(const zp_input *in, struct stat *id)
{
  memset(id, 0, sizeof *id);
  return in->data || (strcmp(in->path, "-") != 0 && file_stat(in, id) && S_ISREG(id->st_mode));
}

zp_status zp_pipeline_run(const zp_input *in, const zp_pipeline_options *opt, zp_diag *diag,
                          FILE *out, unsigned long *records)
{
  /* --dnssec=auto holds a zone's records for verification only while its first 256 show no
   * DNSSEC record (nearly every signer writes an RRSIG after the SOA). A signed zone found
   * later is read a second time, where it can be, with --dnssec=on, and only what the
   * verification finds is told then: everything else, and the output, came from the first.
   * Input that cannot be read again is warned (-Wdnssec-unverified), not verified. */
  struct stat before, after;
  bool again = !opt->checks.off && opt->checks.dnssec == ZP_DNSSEC_AUTO &&
               rereadable(in, &before);
  zp_pipeline_options first = *opt;
  if (again)
    first.checks.level[ZP_CK_DNSSEC_UNVERIFIED] = ZP_LEVEL_OFF;
  bool late = false;
  zp_tmp_begin();   /* (once: the second reading's temporary files count beside the first's) */
  zp_status st = read_zone(in, &first, diag, diag, out, records, &late);
  if (st != ZP_OK || !again || !late || zp_diag_stop(diag))
    return st;
  zp_pipeline_options second = *opt;
  second.checks.dnssec = ZP_DNSSEC_ON;
  second.checks.dnssec_only = true;
  zp_diag quiet;   /* the reader's messages, told the first time */
  zp_diag_init(&quiet, diag->out);
  quiet.silent = true;
  quiet.max_errors = 0;
  st = read_zone(in, &second, &quiet, diag, NULL, NULL, &late);
  /* what was verified must be what was written: a file replaced or rewritten meanwhile (a
   * signer's run) is an error, and the run nothing written */
  if (st == ZP_OK && !in->data &&
      (!file_stat(in, &after) || after.st_dev != before.st_dev ||
       after.st_ino != before.st_ino || after.st_size != before.st_size ||
       after.st_mtim.tv_sec != before.st_mtim.tv_sec ||
       after.st_mtim.tv_nsec != before.st_mtim.tv_nsec)) {
    zp_source src = {.path = in->path};
    zp_loc loc = {.src = &src};
    zp_diag_report(diag, &loc, ZP_ERROR, "%s changed while it was read twice (the second "
                   "reading verified the signatures --dnssec=auto found after its first 256 "
                   "records): check it again", in->path);
  }
  return st;
}
