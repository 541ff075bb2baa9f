/* test_emit.c -- records built by hand through emit, checked against ldns's own parser */
#include <ctype.h>
#include <criterion/criterion.h>
#include <ldns/ldns.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "canonical.h"
#include "record/rrtype.h"
#include "read/rdata.h"
#include "record.h"
#include "write/emit.h"
#include "write/format.h"

/* The ASCII half of the label policy: lowercase (ctx NULL) or as written (ctx not NULL); "bad"
 * is refused so locations can be tested. */
static zp_status lower_conv(void *ctx, const uint8_t *in, size_t inlen, uint8_t *out,
                            size_t *outlen, char *msg, size_t msgcap, size_t *at)
{
  (void)at;
  if (inlen == 3 && memcmp(in, "bad", 3) == 0) {
    snprintf(msg, msgcap, "label \"bad\" is refused by the test policy");
    return ZP_EINVAL;
  }
  if (inlen > ZP_LABEL_MAX || inlen > *outlen)
    return ZP_ELIMIT;
  for (size_t i = 0; i < inlen; i++)
    out[i] = !ctx && in[i] >= 'A' && in[i] <= 'Z' ? (uint8_t)(in[i] + 32) : in[i];
  *outlen = inlen;
  return ZP_OK;
}

/* the test policy's two halves, as the pipeline gives them to the reader */
static const zp_label_conv test_conv = {lower_conv, NULL, NULL, NULL},
                           test_keep = {lower_conv, "keep", NULL, NULL};

typedef struct run {
  char *out, *err;
  size_t out_len, err_len;
  unsigned errors;
} run;

static void emit_records(run *r, bool sort, const zp_record *recs, size_t n)
{
  FILE *out = open_memstream(&r->out, &r->out_len);
  FILE *err = open_memstream(&r->err, &r->err_len);
  zp_diag diag;
  zp_diag_init(&diag, err);
  diag.show_source = false;
  /* as the pipeline gives it: the types no peer but BIND reads as text in RFC 3597 form */
  uint8_t generic[65536 / 8] = {0};
  zp_rrtype_generic_always(generic);
  zp_emit_options opt = {.sort = sort, .generic = generic};
  zp_emitter *em;
  cr_assert_eq(zp_emit_new(&opt, out, &diag, &em), ZP_OK);
  for (size_t i = 0; i < n; i++) {
    /* the reader's step: RDATA of the types zonepuny parses itself, and RFC 3597 RDATA,
     * reaches the writer in wire form, or as an error at its field */
    static uint8_t wire[ZP_RDATA_MAX];
    zp_record rec = recs[i];
    if (!rec.generic && !zp_rrtype_reads_text(rec.rtype)) {
      zp_diag_report(&diag, &rec.loc, ZP_ERROR, "text of a type not parsed");
      continue;
    }
    {
      zp_rdata_in in = {rec.rtype, rec.fields, rec.nfields, rec.origin, &test_conv, &test_keep,
                        NULL, NULL, false, NULL};
      zp_rdata_error e;
      zp_status st = rec.generic ? zp_rdata_generic(&in, wire, &rec.rdlen, &e)
                                 : zp_rdata_parse(&in, wire, &rec.rdlen, &e);
      if (st != ZP_OK) {
        zp_loc at = zp_rdata_error_loc(&e, &rec);
        zp_diag_report(&diag, &at, ZP_ERROR, "%s", e.msg);
        continue;
      }
      rec.rdata = wire;
      rec.generic = rec.generic && !zp_rrtype_reads_text(rec.rtype);
    }
    cr_assert_eq(zp_emit_record(em, &rec), ZP_OK);
  }
  cr_assert_eq(zp_emit_finish(em), ZP_OK);
  zp_emit_free(em);
  fclose(out);
  fclose(err);
  r->errors = diag.errors;
}

static void emit_one(run *r, const char *owner, uint16_t type, const char *rdata)
{
  built b;
  build(&b, owner, type, rdata);
  emit_records(r, false, &b.rec, 1);
}

static void run_free(run *r)
{
  free(r->out);
  free(r->err);
}

/* What ldns's own parser and ldns_rr_print make of the same record written as one line. */
static char *ldns_oracle(const char *owner, const char *type, const char *rdata)
{
  char line[1200];
  snprintf(line, sizeof line, "%s 3600 IN %s %s", owner, type, rdata);
  ldns_rdf *origin = ldns_dname_new_frm_str("example.");
  ldns_rr *rr = NULL;
  ldns_status st = ldns_rr_new_frm_str(&rr, line, 3600, origin, NULL);
  ldns_rdf_deep_free(origin);
  cr_assert_eq(st, LDNS_STATUS_OK, "ldns refuses %s: %s", line, ldns_get_errorstr_by_id(st));
  for (size_t i = 0; i < ldns_rr_rd_count(rr); i++)
    if (ldns_rdf_get_type(ldns_rr_rdf(rr, i)) == LDNS_RDF_TYPE_DNAME &&
        rfc4034_lowercases((uint16_t)ldns_rr_get_type(rr)))
      ldns_dname2canonical(ldns_rr_rdf(rr, i));
  /* ldns prints what it read from text and what it read from octets a little differently
   * (APL's items: one field each, or one field for all); the writer has octets, so the oracle
   * prints ldns's reading of the same octets */
  ldns_buffer *wire = ldns_buffer_new(512);
  ldns_buffer_write_u16(wire, 0);   /* the RDATA length, filled in below */
  cr_assert_eq(ldns_rr_rdata2buffer_wire(wire, rr), LDNS_STATUS_OK);
  ldns_buffer_write_u16_at(wire, 0, (uint16_t)(ldns_buffer_position(wire) - 2));
  ldns_rr *again = ldns_rr_new();
  ldns_rr_set_owner(again, ldns_rdf_clone(ldns_rr_owner(rr)));
  ldns_rr_set_ttl(again, ldns_rr_ttl(rr));
  ldns_rr_set_class(again, ldns_rr_get_class(rr));
  ldns_rr_set_type(again, ldns_rr_get_type(rr));
  size_t pos = 0;
  cr_assert_eq(ldns_wire2rdf(again, ldns_buffer_begin(wire), ldns_buffer_position(wire), &pos),
               LDNS_STATUS_OK);
  ldns_buffer_free(wire);
  ldns_rr_free(rr);
  rr = again;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  ldns_rr_print(f, rr);
  fclose(f);
  ldns_rr_free(rr);
  return text;
}

typedef struct good_case {
  const char *type;
  const char *rdata;
  const char *expect;   /* hand-written: what ldns_rr_print shows for this record */
} good_case;

/* Owner "www.example."; names in RDATA are relative to "example." unless they end in a dot,
 * and come out lowercased where RFC 4034 section 6.2 lowercases them (less NSEC, RFC 6840
 * section 5.1); NSEC, SVCB, HTTPS, IPSECKEY and HIP names keep their case. SVCB and HTTPS
 * parameters are not ldns's text (own_text_where_ldns_is_wrong). */
static const good_case good[] = {
  {"A", "192.0.2.1", "192.0.2.1"},
  {"AAAA", "2001:DB8:0:0::1", "2001:db8::1"},
  {"NS", "NS1.Example.", "ns1.example."},
  {"CNAME", "Web", "web.example."},
  {"PTR", "host.example.", "host.example."},
  {"DNAME", "Other.TEST.", "other.test."},
  {"MX", "10 Mail", "10 mail.example."},
  {"TXT", "\"hello world\" \"a\\\"b\" plain", "\"hello world\" \"a\\\"b\" \"plain\""},
  {"SOA", "NS1 Hostmaster 2024010101 1h 15m 1w 1d",
   "ns1.example. hostmaster.example. 2024010101 3600 900 604800 86400"},
  {"SRV", "0 5 5060 SIP", "0 5 5060 sip.example."},
  {"DS", "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118",
   "60485 5 1 2bb183af5f22588179a53b0a98631fad1a292118"},
  {"NAPTR", "100 10 \"S\" \"SIP+D2U\" \"\" _sip._udp.Example.",
   "100 10 \"S\" \"SIP+D2U\" \"\" _sip._udp.example."},
  {"RP", "Admin.Example. TXT.Example.", "admin.example. txt.example."},
  {"AFSDB", "1 AFS", "1 afs.example."},
  {"KX", "10 KX", "10 kx.example."},
  {"HINFO", "PC Linux", "\"PC\" \"Linux\""},
  {"CAA", "0 issue \"Letsencrypt.org\"", "0 issue \"Letsencrypt.org\""},
  {"RRSIG", "A 8 2 3600 20240101000000 20231201000000 12345 Example. AwEA Ac3K",
   "A 8 2 3600 20240101000000 20231201000000 12345 example. AwEAAc3K"},
  {"DNSKEY", "256 3 8 AwEA Ac3K", "256 3 8 AwEAAc3K ;{id = 54484 (zsk), size = 16b}"},
  {"HTTPS", "0 Alias.Example.", "0 Alias.Example."},
  {"IPSECKEY", "10 3 2 GW.Example. AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ==",
   "10 3 2 GW.Example. AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ=="},
  {"IPSECKEY", "10 1 2 192.0.2.38 AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ==",
   "10 1 2 192.0.2.38 AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ=="},
  {"HIP", "2 200100107B1A74DF365639CC39F1D578 AwEAAbdxyhNuSutc5EMzxTs9LBPCIkOFH8cIvM4p9+LrV4e19WzK00+CI6zBCQTdtWsuxKbWIy87UOoJTwkUs7lBu+Upr1gsNrut79ryra+bSRGQb1slImA8YVJyuIDsj7kwzG7jnERNqnWxZ48AWkskmdHaVDP4BcelrTI3rMXdXF5D RVS1.Example. rvs2",
   "2 200100107b1a74df365639cc39f1d578 AwEAAbdxyhNuSutc5EMzxTs9LBPCIkOFH8cIvM4p9+LrV4e19WzK00+CI6zBCQTdtWsuxKbWIy87UOoJTwkUs7lBu+Upr1gsNrut79ryra+bSRGQb1slImA8YVJyuIDsj7kwzG7jnERNqnWxZ48AWkskmdHaVDP4BcelrTI3rMXdXF5D RVS1.Example. rvs2.example."},
  {"LOC", "52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m",
   "52 22 23.000 N 04 53 32.000 E -2m 0.00m 10000m 10m"},
  {"APL", "1:192.168.32.0/21 !1:192.168.38.0/28", "1:192.168.32.0/21 !1:192.168.38.0/28 "},
  {"SSHFP", "2 1 123456789ABCDEF67890123456789ABCDEF67890",
   "2 1 123456789abcdef67890123456789abcdef67890"},
  {"TLSA", "3 1 1 0123456789ABCDEF", "3 1 1 0123456789abcdef"},
};

/* Each row written as www.example.'s record, with no error; and, where ldns is the oracle, as
 * ldns_rr_print writes the same text. */
static void expect_written(const good_case *rows, size_t n, bool ldns_is_oracle)
{
  for (size_t i = 0; i < n; i++) {
    uint16_t type;
    cr_assert(zp_rrtype_from_text(rows[i].type, strlen(rows[i].type), &type));
    run r;
    emit_one(&r, "www.example.", type, rows[i].rdata);
    char want[1400];
    snprintf(want, sizeof want, "www.example.\t3600\tIN\t%s\t%s\n", rows[i].type, rows[i].expect);
    cr_expect_str_eq(r.out, want, "%s %s: got %s", rows[i].type, rows[i].rdata, r.out);
    cr_expect_eq(r.errors, 0, "%s: %s", rows[i].type, r.err);
    if (ldns_is_oracle) {
      char *oracle = ldns_oracle("www.example.", rows[i].type, rows[i].rdata);
      cr_expect_str_eq(r.out, oracle, "%s %s: got %s oracle %s", rows[i].type, rows[i].rdata,
                       r.out, oracle);
      free(oracle);
    }
    run_free(&r);
  }
}

Test(emit, known_types_print_like_ldns)
{
  expect_written(good, sizeof good / sizeof *good, true);
}

typedef struct generic_case {
  const char *type;
  const char *rdata;
  const char *expect;
} generic_case;

static const generic_case generic[] = {
  {"A", "\\# 4 C0000201", "A\t192.0.2.1"},
  {"CNAME", "\\# 13 03575757074578616d706c6500", "CNAME\twww.example."},
  {"MX", "\\# 6 000a 024d58 00", "MX\t10 mx."},
  {"TYPE65534", "\\# 3 abcDEF", "TYPE65534\t\\# 3 abcdef"},
  {"TYPE65534", "\\# 0", "TYPE65534\t\\# 0"},
};

Test(emit, generic_rdata_becomes_native_for_known_types)
{
  for (size_t i = 0; i < sizeof generic / sizeof *generic; i++) {
    uint16_t type;
    cr_assert(zp_rrtype_from_text(generic[i].type, strlen(generic[i].type), &type));
    run r;
    emit_one(&r, "x.example.", type, generic[i].rdata);
    char want[256];
    snprintf(want, sizeof want, "x.example.\t3600\tIN\t%s\n", generic[i].expect);
    cr_expect_str_eq(r.out, want, "%s %s: %s", generic[i].type, generic[i].rdata, r.err);
    cr_expect_eq(r.errors, 0);
    run_free(&r);
  }
}

typedef struct bad_case {
  const char *type;
  const char *rdata;
  const char *err;   /* exact diagnostic */
} bad_case;

static const bad_case bads[] = {
  {"MX", "70000 mail.", "t.zone:1:21: error: MX preference: \"70000\" is not a number from 0 to 65535\n"},
  {"MX", "-1 mail.", "t.zone:1:21: error: MX preference: \"-1\" is not a number from 0 to 65535\n"},
  {"MX", "10", "t.zone:1:1: error: MX RDATA needs at least 2 fields, found 1: the exchange is "
   "missing\n"},
  {"A", "192.0.2", "t.zone:1:21: error: invalid IPv4 address in A RDATA: \"192.0.2\"\n"},
  {"A", "192.0.2.1 192.0.2.2",
   "t.zone:1:31: error: unexpected \"192.0.2.2\" after the last A RDATA field\n"},
  {"AAAA", "2001:db8::g", "t.zone:1:21: error: invalid IPv6 address in AAAA RDATA: \"2001:db8::g\"\n"},
  {"CNAME", "www.bad.example.",
   "t.zone:1:25: error: label \"bad\" is refused by the test policy\n"},
  {"MX", "10 x.bad", "t.zone:1:26: error: MX exchange: label \"bad\" is refused by the test policy\n"},
  /* a quoted name: as BIND and dnspython, quotes make a character-string and nothing else */
  {"MX", "10 \"x.bad\"", "t.zone:1:24: error: \"x.bad\" is quoted, but this MX RDATA field is "
   "not a character-string\n"},
  {"IPSECKEY", "10 3 2 bad.example. AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ==",
   "t.zone:1:28: error: label \"bad\" is refused by the test policy\n"},
  {"TXT", "\"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890\"",
   /* (the strings it makes: its first 255 octets, then the 16 left) */
   "t.zone:1:21: error: character-string of 271 octets in TXT RDATA: longer than 255 octets (RFC 1035 section 3.3); as strings of 255 octets at most, one after the other: \"012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234\" \"5678901234567890\"\n"},
  {"TYPE65534", "\\# 2 abcdef",
   "t.zone:1:30: error: generic RDATA is longer than its length 2\n"},
  {"TYPE65534", "\\# 3 abcd",
   "t.zone:1:26: error: generic RDATA holds 2 octets, its length says 3\n"},
  {"TYPE65534", "\\# 2 abc", "t.zone:1:26: error: generic RDATA has an odd number of hex digits\n"},
  {"TYPE65534", "\\# 2 abzz", "t.zone:1:28: error: invalid hex digit 'z' in generic RDATA\n"},
  {"TYPE65534", "\\# x", "t.zone:1:24: error: generic RDATA length \"x\" is not a number from 0 to 65535\n"},
  {"A", "\\# 3 c00002", "t.zone:1:21: error: generic RDATA is not valid A RDATA\n"},
  {"CNAME", "\\# 5 0362616400", "t.zone:1:26: error: label \"bad\" is refused by the test policy\n"},
};

Test(emit, bad_rdata_is_reported_at_the_field_and_skipped)
{
  for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
    uint16_t type;
    cr_assert(zp_rrtype_from_text(bads[i].type, strlen(bads[i].type), &type));
    run r;
    emit_one(&r, "x.example.", type, bads[i].rdata);
    cr_expect_str_eq(r.err, bads[i].err, "%s %s: got %s", bads[i].type, bads[i].rdata, r.err);
    cr_expect_str_eq(r.out, "", "%s %s", bads[i].type, bads[i].rdata);
    cr_expect_eq(r.errors, 1);
    run_free(&r);
  }
}

Test(emit, output_continues_after_a_bad_record)
{
  built b[3];
  build(&b[0], "a.example.", 1, "192.0.2.1");
  build(&b[1], "b.example.", 1, "192.0.2");
  build(&b[2], "c.example.", 1, "192.0.2.3");
  zp_record recs[3] = {b[0].rec, b[1].rec, b[2].rec};
  run r;
  emit_records(&r, false, recs, 3);
  cr_expect_str_eq(r.out, "a.example.\t3600\tIN\tA\t192.0.2.1\n"
                          "c.example.\t3600\tIN\tA\t192.0.2.3\n");
  cr_expect_eq(r.errors, 1);
  run_free(&r);
}

/* RFC 4034 section 6.1's own example, given in reverse, plus duplicates and RRset order. */
Test(emit, sort_is_rfc4034_canonical_order_without_duplicates)
{
  static const char *const owners[] = {
    "example.", "a.example.", "yljkjljk.a.example.", "Z.a.example.", "zABC.a.EXAMPLE.",
    "z.example.", "\001.z.example.", "*.z.example.", "\310.z.example.",
  };
  enum { N = sizeof owners / sizeof *owners };
  built b[N + 4];
  zp_record recs[N + 4];
  for (size_t i = 0; i < N; i++) {
    build(&b[i], owners[N - 1 - i], 1, "192.0.2.1");
    recs[i] = b[i].rec;
  }
  build(&b[N], "a.example.", 1, "192.0.2.1");        /* duplicate: dropped */
  build(&b[N + 1], "a.example.", 16, "\"x\"");        /* TXT (16) after A (1) */
  build(&b[N + 2], "a.example.", 1, "10.0.0.1");      /* RDATA order: 10.x before 192.x */
  build(&b[N + 3], "a.example.", 2, "ns.example.");   /* NS (2) between A and TXT */
  for (size_t i = N; i < N + 4; i++)
    recs[i] = b[i].rec;
  run r;
  emit_records(&r, true, recs, N + 4);
  cr_expect_str_eq(r.out,
                   "example.\t3600\tIN\tA\t192.0.2.1\n"
                   "a.example.\t3600\tIN\tA\t10.0.0.1\n"
                   "a.example.\t3600\tIN\tA\t192.0.2.1\n"
                   "a.example.\t3600\tIN\tNS\tns.example.\n"
                   "a.example.\t3600\tIN\tTXT\t\"x\"\n"
                   "yljkjljk.a.example.\t3600\tIN\tA\t192.0.2.1\n"
                   "Z.a.example.\t3600\tIN\tA\t192.0.2.1\n"
                   "zABC.a.EXAMPLE.\t3600\tIN\tA\t192.0.2.1\n"
                   "z.example.\t3600\tIN\tA\t192.0.2.1\n"
                   "\\001.z.example.\t3600\tIN\tA\t192.0.2.1\n"
                   "*.z.example.\t3600\tIN\tA\t192.0.2.1\n"
                   "\\200.z.example.\t3600\tIN\tA\t192.0.2.1\n");
  run_free(&r);
}

Test(emit, write_errors_are_reported)
{
  FILE *full = fopen("/dev/full", "w");
  cr_assert_not_null(full);
  built b;
  build(&b, "a.example.", 1, "192.0.2.1");
  static const uint8_t a[4] = {192, 0, 2, 1};
  b.rec.rdata = a;
  b.rec.rdlen = 4;
  zp_diag diag;
  zp_diag_init(&diag, stderr);
  zp_emit_options opt = {0};
  zp_emitter *em;
  cr_assert_eq(zp_emit_new(&opt, full, &diag, &em), ZP_OK);
  zp_status st = zp_emit_record(em, &b.rec);
  zp_status fin = zp_emit_finish(em);
  cr_expect(st == ZP_EIO || fin == ZP_EIO);
  zp_emit_free(em);
  fclose(full);
}

/* The formatter against ldns_rr2buffer_str itself, on random records: each is handed to emit
 * as RFC 3597 generic RDATA of a known type, and the test builds the same ldns_rr from the same
 * octets (names lowercased where RFC 4034 6.2 lowercases them) and asks ldns to print it. */
static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint32_t rnd(uint32_t n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11) % n;
}

/* Bytes biased towards the ones ldns escapes. */
static uint8_t rnd_octet(void)
{
  static const char special[] = ".;()\\\"@$ \t'*";
  switch (rnd(4)) {
  case 0: return (uint8_t)special[rnd(sizeof special - 1)];
  case 1: return (uint8_t)rnd(256);
  default: return (uint8_t)('a' + rnd(26) - (rnd(2) ? 32 : 0));
  }
}

static size_t rnd_name(uint8_t *w)
{
  size_t n = 0, labels = rnd(5);
  for (size_t i = 0; i < labels; i++) {
    size_t len = 1 + rnd(i == 0 ? 63 : 12);
    w[n++] = (uint8_t)len;
    for (size_t k = 0; k < len; k++)
      w[n++] = rnd_octet();
  }
  w[n++] = 0;
  return n;
}

static size_t rnd_field(ldns_rdf_type t, bool last, uint8_t *w)
{
  size_t n;
  switch (t) {
  case LDNS_RDF_TYPE_DNAME: return rnd_name(w);
  case LDNS_RDF_TYPE_INT8: case LDNS_RDF_TYPE_ALG: case LDNS_RDF_TYPE_CERTIFICATE_USAGE:
  case LDNS_RDF_TYPE_SELECTOR: case LDNS_RDF_TYPE_MATCHING_TYPE: n = 1; break;
  case LDNS_RDF_TYPE_INT16: case LDNS_RDF_TYPE_TYPE: n = 2; break;
  case LDNS_RDF_TYPE_INT32: case LDNS_RDF_TYPE_PERIOD: case LDNS_RDF_TYPE_TIME:
  case LDNS_RDF_TYPE_A: n = 4; break;
  case LDNS_RDF_TYPE_AAAA: n = 16; break;
  case LDNS_RDF_TYPE_EUI48: n = 6; break;
  case LDNS_RDF_TYPE_EUI64: case LDNS_RDF_TYPE_ILNP64: n = 8; break;
  case LDNS_RDF_TYPE_STR: case LDNS_RDF_TYPE_NSEC3_SALT:
    n = rnd(40);
    w[0] = (uint8_t)n;
    for (size_t i = 1; i <= n; i++)
      w[i] = rnd_octet();
    return n + 1;
  case LDNS_RDF_TYPE_HEX: case LDNS_RDF_TYPE_B64:
    cr_assert(last);
    n = 1 + rnd(70);
    break;
  default:
    cr_assert_fail("no generator for field type %d", (int)t);
    return 0;
  }
  for (size_t i = 0; i < n; i++)
    w[i] = (uint8_t)rnd(256);
  /* Small numbers and zero runs are where decimal and IPv6 formatting have their cases. */
  if (t == LDNS_RDF_TYPE_AAAA && rnd(2))
    memset(w + rnd(8), 0, rnd(9));
  if (t != LDNS_RDF_TYPE_AAAA && n <= 4 && rnd(2))
    for (size_t i = 0; i + 1 < n; i++)
      w[i] = 0;
  /* ldns writes times from 2^31 on as dates before 1970 (own_text_where_ldns_is_wrong) */
  if (t == LDNS_RDF_TYPE_TIME)
    w[0] &= 0x7F;
  return n;
}

static const char *const corpus_types[] = {
  "A", "NS", "MD", "MF", "CNAME", "SOA", "MB", "MG", "MR", "PTR", "HINFO", "MINFO", "MX", "TXT",
  "RP", "AFSDB", "X25", "ISDN", "RT", "PX", "AAAA", "SRV", "NAPTR", "KX", "DNAME", "DS", "SSHFP",
  "RRSIG", "DNSKEY", "CDS", "CDNSKEY", "TLSA", "SMIMEA", "OPENPGPKEY", "DHCID", "SPF", "EUI48",
  "EUI64", "L32", "LP", "NID", "L64", "TALINK", "ZONEMD", "NSEC3PARAM",
};

/* The mnemonics kzonecheck 3.2 refuses in a type list (each tried alone in a CSYNC record), and
 * KEY, which it reads there but whose records zonepuny writes in RFC 3597 form by default: emit
 * writes these types TYPEnnn inside RDATA (tests/output/check_peers.sh loads the result) */
static const char *const knot_lacks[] = {
  "KEY", "A6", "AMTRELAY", "ANY", "ATMA", "AVC", "AXFR", "BRID", "DLV", "DOA", "DSYNC", "EID",
  "GID", "GPOS", "HHIT", "HIP", "ISDN", "IXFR", "MAILA", "MAILB", "MB", "MD", "MF", "MG", "MR",
  "NIMLOC", "NINFO", "NSAP", "NSAP-PTR", "NULL", "NXT", "OPT", "PX", "RESINFO", "RKEY", "SIG",
  "SINK", "TA", "TALINK", "TKEY", "TSIG", "UID", "UINFO", "UNSPEC", "WALLET", "WKS", "X25",
};

/* ldns's text of a type list or a type covered with emit's changes: the types Knot lacks as
 * TYPEnnn, no trailing blank */
static size_t knot_type_list(char *out, const char *ft)
{
  size_t n = 0;
  for (const char *w = ft; *w;) {
    size_t len = strcspn(w, " ");
    if (len > 0) {
      char word[32];
      snprintf(word, sizeof word, "%.*s", (int)len, w);
      for (size_t i = 0; i < sizeof knot_lacks / sizeof *knot_lacks; i++)
        if (strcmp(word, knot_lacks[i]) == 0)
          snprintf(word, sizeof word, "TYPE%u", (unsigned)ldns_get_rr_type_by_name(knot_lacks[i]));
      n += (size_t)sprintf(out + n, "%s%s", n ? " " : "", word);
    }
    w += len + (w[len] == ' ');
  }
  return n;
}

/* ldns writes printable bytes in names bare but for a few it escapes; emit writes every one but
 * letters, digits, '-', '_', '*' and '/' (the bytes Knot's scanner reads bare) as "\\X", and
 * '[', '#' and '\\' as "\\DDD" (see zp_name_text); it writes an NSEC3 hash without ldns's
 * padding, a salt and a type list without ldns's trailing blank, and types Knot lacks as TYPEnnn
 * in lists. The expected text is ldns's with exactly those changes: every field's ldns text is
 * found in order in the record's text, and only names, hashes, salts and type lists are
 * rewritten. */
static char *ldns_text_with_bind_escapes(const ldns_rr *rr)
{
  char *text = ldns_rr2str(rr);
  size_t cap = strlen(text) * 4 + 64, n = 0, pos = 0;
  char *out = malloc(cap);
  cr_assert(out);
  size_t nf = ldns_rr_rd_count(rr);
  for (size_t i = 0; i <= nf; i++) {
    const ldns_rdf *f = i == 0 ? ldns_rr_owner(rr) : ldns_rr_rdf(rr, i - 1);
    char *ft = ldns_rdf2str(f);
    /* RDATA starts after the fourth tab (a type covered "SIG" is not the one in "RRSIG") */
    char *at = text + pos;
    for (int tabs = 0; i == 1 && tabs < 4; tabs++)
      at = strchr(at, '\t') + 1;
    at = strstr(at, ft);
    cr_assert(at, "field %zu \"%s\" not in \"%s\"", i, ft, text);
    size_t skip = (size_t)(at - text) - pos;
    memcpy(out + n, text + pos, skip);
    n += skip;
    ldns_rdf_type t = ldns_rdf_get_type(f);
    if (t == LDNS_RDF_TYPE_BITMAP || t == LDNS_RDF_TYPE_TYPE) {
      n += knot_type_list(out + n, ft);
    } else if (t == LDNS_RDF_TYPE_NSEC3_SALT) {
      n += (size_t)sprintf(out + n, "%.*s", (int)strcspn(ft, " "), ft);
    } else {
      bool dname = t == LDNS_RDF_TYPE_DNAME;
      for (const char *c = ft; *c; c++) {
        if (dname && c[0] == '\\' && c[1] == '\\') {   /* NSD reads "\\." as "\." */
          n += (size_t)sprintf(out + n, "\\092");
          c++;
          continue;
        }
        if (dname && *c == '\\')
          out[n++] = *c++;   /* ldns's own escape: the byte after it (or \DDD's digits) as is */
        else if (dname && (*c == '[' || *c == '#')) {   /* "\[" and "\#" open labels */
          n += (size_t)sprintf(out + n, "\\%03d", *c);
          continue;
        } else if (dname && *c != '.' && !isalnum((unsigned char)*c) && !strchr("-_*/", *c))
          out[n++] = '\\';
        /* an NSEC3 hash without ldns's '=' padding (RFC 5155 3.3 has none; BIND writes none) */
        if (t == LDNS_RDF_TYPE_NSEC3_NEXT_OWNER && *c == '=')
          continue;
        out[n++] = *c;
      }
    }
    pos += skip + strlen(ft);
    free(ft);
  }
  /* the blank ldns writes after a type list at the end of the line */
  if (text[pos] == ' ' && text[pos + 1] == '\n')
    pos++;
  strcpy(out + n, text + pos);
  free(text);
  return out;
}

Test(emit, formatter_is_byte_identical_to_ldns_on_random_records, .timeout = 120)
{
  enum { N = 100000 };
  size_t checked = 0, stricter = 0;
  for (size_t iter = 0; iter < N; iter++) {
    const char *tname = corpus_types[rnd(sizeof corpus_types / sizeof *corpus_types)];
    uint16_t type;
    cr_assert(zp_rrtype_from_text(tname, strlen(tname), &type));
    const ldns_rr_descriptor *d = ldns_rr_descript(type);
    uint8_t rdata[2048];
    size_t rdlen = 2;
    size_t nf = ldns_rr_descriptor_maximum(d) > 64 ? 1 + rnd(3) : ldns_rr_descriptor_maximum(d);
    for (size_t i = 0; i < nf; i++)
      rdlen += rnd_field(ldns_rr_descriptor_field_type(d, i), i + 1 == nf, rdata + rdlen);
    rdata[0] = (uint8_t)((rdlen - 2) >> 8);
    rdata[1] = (uint8_t)(rdlen - 2);

    /* emit's side: owner as wire, RDATA as "\# len hex" */
    built b;
    char hex[4200];
    int k = snprintf(hex, sizeof hex, "\\# %zu ", rdlen - 2);
    for (size_t i = 2; i < rdlen; i++)
      k += snprintf(hex + k, sizeof hex - (size_t)k, "%02X", rdata[i]);
    build(&b, "x.", type, hex);
    b.rec.rclass = rnd(8) ? 1 : (uint16_t)(1 + rnd(300));
    b.rec.ttl = rnd(2) ? rnd(100000) : (uint32_t)rnd(0x7FFFFFFF);
    size_t owner_len = rnd_name(b.owner);
    run r;
    emit_records(&r, false, &b.rec, 1);

    /* ldns's side */
    ldns_rr *rr = ldns_rr_new();
    ldns_rr_set_owner(rr, ldns_dname_new_frm_data((uint16_t)owner_len, b.owner));
    ldns_rr_set_ttl(rr, b.rec.ttl);
    ldns_rr_set_class(rr, (ldns_rr_class)b.rec.rclass);
    ldns_rr_set_type(rr, (ldns_rr_type)type);
    size_t pos = 0;
    ldns_status st = ldns_wire2rdf(rr, rdata, rdlen, &pos);
    if (st != LDNS_STATUS_OK) {
      /* ldns refuses some octet strings (e.g. a name it cannot decompress): emit must too */
      cr_expect_eq(r.errors, 1, "%s %s", tname, hex);
    } else if (r.errors == 1 &&
               (strstr(r.err, " digest of ") || strstr(r.err, "is not valid") ||
                strstr(r.err, "NAPTR regexp") || strstr(r.err, "SSHFP fingerprint of") ||
                strstr(r.err, "NSEC3 hash of") || strstr(r.err, "RRSIG Labels") ||
                strstr(r.err, "X25 PSDN") || strstr(r.err, "(PRIVATEDNS) without"))) {
      /* where zonepuny is stricter than ldns, on purpose, as BIND is: a digest, fingerprint or
       * hash of the wrong length for its type, a type bitmap with an empty window or out of
       * order, a NAPTR regexp that is not one, an RRSIG signer below its owner, an X25 address
       * not in digits, a PRIVATEDNS key without its name (test_rdata.c, test_rdata_bind.c) */
      stricter++;
    } else if (type == LDNS_RR_TYPE_SPF && rdata[2] + 3u < rdlen) {
      /* an SPF of more than one string is written in RFC 3597 form (NSD 4.6 keeps the first
       * string alone of its text): its octets as they came */
      char spf[32];
      snprintf(spf, sizeof spf, "\tTYPE99\t\\# %zu ", rdlen - 2);
      cr_assert(strstr(r.out, spf), "SPF %s: %s", hex, r.out);
      checked++;
    } else {
      for (size_t i = 0; i < ldns_rr_rd_count(rr); i++)
        if (ldns_rdf_get_type(ldns_rr_rdf(rr, i)) == LDNS_RDF_TYPE_DNAME && rfc4034_lowercases(type))
          ldns_dname2canonical(ldns_rr_rdf(rr, i));
      char *want = ldns_text_with_bind_escapes(rr);
      cr_assert_str_eq(r.out, want, "%s %s: %s\ngot  %swant %s", tname, hex, r.err, r.out, want);
      free(want);
      checked++;
    }
    ldns_rr_free(rr);
    run_free(&r);
  }
  cr_expect_gt(checked, N * 8 / 10);
  cr_expect_lt(stricter, N / 10);
}

/* The fast path (A, AAAA, NS, CNAME, PTR, DNAME, MX, SRV) reads fields itself: it must accept
 * exactly the address texts ldns's parser accepts and print what ldns prints. */
Test(emit, fast_path_reads_addresses_as_ldns_does)
{
  static const struct { const char *type, *text; } cases[] = {
    {"A", "192.0.2.1"}, {"A", "0.0.0.0"}, {"A", "255.255.255.255"}, {"A", "1.2.3.04"},
    {"A", "1.2.3"}, {"A", "1.2.3.4.5"}, {"A", "256.1.1.1"}, {"A", "1.2.3.4x"}, {"A", "0x1.2.3.4"},
    {"A", "01.2.3.4"}, {"A", "::1"},
    {"AAAA", "::"}, {"AAAA", "::1"}, {"AAAA", "2001:DB8::1"}, {"AAAA", "::ffff:192.0.2.1"},
    {"AAAA", "2001:db8:0:0:0:0:0:1"}, {"AAAA", "2001:db8::0:1:0:0:1"}, {"AAAA", "1:2:3:4:5:6:7:8"},
    {"AAAA", "1:2:3:4:5:6:7:8:9"}, {"AAAA", "1::2::3"}, {"AAAA", "12345::"}, {"AAAA", "192.0.2.1"},
    {"AAAA", "::192.0.2.1"}, {"AAAA", "fe80::1%eth0"}, {"AAAA", "1:2:3:4:5:6:1.2.3.4"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char line[128];
    snprintf(line, sizeof line, "x.example. 3600 IN %s %s", cases[i].type, cases[i].text);
    ldns_rr *rr = NULL;
    bool ldns_ok = ldns_rr_new_frm_str(&rr, line, 0, NULL, NULL) == LDNS_STATUS_OK;
    uint16_t type;
    cr_assert(zp_rrtype_from_text(cases[i].type, strlen(cases[i].type), &type));
    run r;
    emit_one(&r, "x.example.", type, cases[i].text);
    cr_expect_eq(r.errors == 0, ldns_ok, "%s: ldns %s it, emit %s", line,
                 ldns_ok ? "takes" : "refuses", r.errors ? "refuses" : "takes");
    if (ldns_ok) {
      char *want = ldns_rr2str(rr);
      cr_expect_str_eq(r.out, want, "%s", line);
      free(want);
    }
    ldns_rr_free(rr);
    run_free(&r);
  }
}

Test(emit, unicode_shows_ace_labels_through_tounicode)
{
  built b;
  build(&b, "xn--mnchen-3ya.example.", 5, "www.xn--bcher-kva.example.");
  uint8_t target[256];
  b.rec.rdlen = wire_of("www.xn--bcher-kva.example.", target);
  b.rec.rdata = target;
  FILE *out;
  char *text = NULL;
  size_t len = 0;
  out = open_memstream(&text, &len);
  zp_diag diag;
  zp_diag_init(&diag, stderr);
  zp_emit_options opt = {.unicode = true};
  zp_emitter *em;
  cr_assert_eq(zp_emit_new(&opt, out, &diag, &em), ZP_OK);
  cr_assert_eq(zp_emit_record(em, &b.rec), ZP_OK);
  cr_assert_eq(zp_emit_finish(em), ZP_OK);
  zp_emit_free(em);
  fclose(out);
  /* münchen and bücher: RFC 3492-style decoding of the two labels (Python agrees) */
  cr_expect_str_eq(text, "m\xc3\xbcnchen.example.\t3600\tIN\tCNAME\twww.b\xc3\xbc" "cher.example.\n");
  free(text);
}

/* Any tokens for any type: a record is written or refused with a message, never a crash. What
 * is written must be something ldns's own parser reads back and prints the same. */
Test(emit, random_tokens_are_written_or_refused, .timeout = 120)
{
  static const char *const pool[] = {
    "0", "1", "65535", "65536", "4294967296", "-1", "192.0.2.1", "2001:db8::1", "a.example.",
    "rel", "@", "\\046", "\"\"", "\"quoted text\"", "AAECAwQ=", "abcdef", "ABCDEF0", "A", "NS",
    "TYPE65534", "20240101000000", "1h", "RSASHA256", "tcp", "smtp", "alpn=h2", "port=443",
    "1:192.0.2.0/24", "52", "N", "E", "10m", "\\#", "3", "x y", "-", "*", "_tcp", "IN",
  };
  enum { N = 50000, NPOOL = sizeof pool / sizeof *pool };
  size_t written = 0;
  for (size_t iter = 0; iter < N; iter++) {
    uint16_t type = (uint16_t)(1 + rnd(64));
    if (rnd(8) == 0)
      type = (uint16_t)(rnd(2) ? 99 + rnd(10) : 249 + rnd(12));
    char rdata[512];
    size_t k = 0, n = rnd(9);
    for (size_t i = 0; i < n; i++)
      k += (size_t)snprintf(rdata + k, sizeof rdata - k, "%s%s", i ? " " : "", pool[rnd(NPOOL)]);
    rdata[k] = '\0';
    run r;
    emit_one(&r, "x.example.", type, rdata);
    cr_assert(r.errors == 0 || r.out_len == 0, "%u %s: output with an error", type, rdata);
    cr_assert(r.errors == 1 || r.out_len > 0, "%u %s: neither output nor error", type, rdata);
    /* NXT's text (RFC 2535 section 5.2) is BIND's to read: ldns 1.8 reads none (test_rdata.c
     * and tests/output/check_rdata_peers.py hold it to BIND) */
    if (r.errors == 0 && type == LDNS_RR_TYPE_NXT) {
      written++;
    } else if (r.errors == 0) {
      written++;
      ldns_rr *rr = NULL;
      char *line = strndup(r.out, r.out_len - 1);
      char *comment = strstr(line, " ;{");
      if (comment)
        *comment = '\0';
      ldns_status st = ldns_rr_new_frm_str(&rr, line, 0, NULL, NULL);
      cr_expect_eq(st, LDNS_STATUS_OK, "%u %s: ldns cannot read back %s: %s", type, rdata, line,
                   ldns_get_errorstr_by_id(st));
      /* ldns's WKS reader takes any protocol text (atoi) and its output is not idempotent on
       * such input; WKS is obsolete (RFC 1123 section 2.2): only the read-back is checked.
       * ldns reads NSAP-PTR's name (RFC 1706 section 6) as a character-string and reprints it
       * quoted. */
      /* what is written in RFC 3597 form (A6, SINK, an SPF of many strings) ldns reprints as its
       * own text of it */
      if (st == LDNS_STATUS_OK && type != LDNS_RR_TYPE_WKS && type != LDNS_RR_TYPE_NSAP_PTR &&
          !strstr(line, "\t\\# ")) {
        char *again = ldns_text_with_bind_escapes(rr);
        cr_expect_str_eq(again, r.out, "%u %s: ldns reprints it differently", type, rdata);
        free(again);
      }
      ldns_rr_free(rr);
      free(line);
    }
    run_free(&r);
  }
  cr_expect_gt(written, N / 100);
}

/* Texts zonepuny writes itself where ldns 1.8 is wrong; the expected lines are what BIND 9.18's
 * named-rrchecker -p printed for the same input, unless a row says otherwise. Type lists (ldns
 * ends them with a blank) name the types Knot lacks TYPEnnn (knot_lacks above).
 * SVCB and HTTPS parameters: ldns writes alpn ids without the escapes of RFC 9460 appendix A.1,
 * so "f\\oo,bar" comes out as two ids (RFC 9460 appendix D records among the rows). */
static const good_case own_text[] = {
  {"NSEC", "Next.Example. A NS SOA", "Next.Example. A NS SOA"},
  {"NSEC", "n.example. A WKS HIP TYPE300", "n.example. A TYPE11 TYPE55 TYPE300"},
  /* BIND writes the salt in capitals */
  {"NSEC3PARAM", "1 0 10 AABB", "1 0 10 aabb"},
  {"SVCB", "1 SVC.Example. alpn=h2 port=443", "1 SVC.Example. alpn=\"h2\" port=443"},
  {"HTTPS", "1 . alpn=h2,h3", "1 . alpn=\"h2,h3\""},
  {"HTTPS", "1 . alpn=\"f\\\\\\\\oo\\\\,bar,h2\"", "1 . alpn=\"f\\\\\\\\oo\\\\,bar,h2\""},
  {"HTTPS", "1 . alpn=\"a b\"", "1 . alpn=\"a\\032b\""},
  {"SVCB", "1 foo.example.com. key667=hello", "1 foo.example.com. key667=\"hello\""},
  {"SVCB", "1 foo.example.com. key667=\"hello\\210qoo\"",
   "1 foo.example.com. key667=\"hello\\210qoo\""},
  {"SVCB", "1 example.com. ipv6hint=\"2001:db8::198.51.100.100\"",
   "1 example.com. ipv6hint=2001:db8::c633:6464"},
  {"SVCB", "16 foo.example.org. alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1",
   "16 foo.example.org. mandatory=alpn,ipv4hint alpn=\"h2,h3-19\" ipv4hint=192.0.2.1"},
  {"SVCB", "1 foo.example.com. key65535=x", "1 foo.example.com. key65535=\"x\""},
  {"SVCB", "1 foo.example.com. ech=\"AAAA\"", "1 foo.example.com. ech=AAAA"},
  {"SVCB", "1 foo.example.com. dohpath=/q{?dns}", "1 foo.example.com. key7=\"/q{?dns}\""},
  {"SVCB", "1 foo.example.com. key3=53", "1 foo.example.com. port=13619"},
  {"SVCB", "1 foo.example.com. key1000=\"\"", "1 foo.example.com. key1000"},
  {"SVCB", "1 foo.example.com. key2 alpn=h2", "1 foo.example.com. alpn=\"h2\" no-default-alpn"},
  {"SVCB", "1 foo.example.com. mandatory=key1,key4 alpn=h2 ipv4hint=192.0.2.1,192.0.2.2",
   "1 foo.example.com. mandatory=alpn,ipv4hint alpn=\"h2\" ipv4hint=192.0.2.1,192.0.2.2"},
  /* times from 2^31 seconds on: ldns (and BIND) write them as dates before 1970, which
   * dnspython does not read; zonepuny writes the date they stand for, up to 2106-02-07
   * 06:28:15 (2^32 - 1 seconds, RFC 4034 section 3.2), which BIND, dnspython and ldns read back
   * to the same octets (hand-derived: 2^31 s is 2038-01-19 03:14:08) */
  {"RRSIG", "A 8 2 3600 21060207062815 2147483648 1 example. AA==",
   "A 8 2 3600 21060207062815 20380119031408 1 example. AA=="},
  /* WKS ports by number, as RFC 1035 section 3.4.2 has them: ldns writes the service names of
   * this machine's /etc/services whatever the protocol, which BIND reads as other ports */
  {"WKS", "192.0.2.1 17 7 53 65535", "192.0.2.1 17 7 53 65535"},
  /* an empty CAA value is written "" (RFC 8659 section 4.1.1): ldns writes nothing, which no one
   * reads (tests/output/check_wire_peers.py found both) */
  {"CAA", "128 issue \"\"", "128 issue \"\""},
  /* NXT's types (RFC 2535 section 5.2): ldns writes the bitmap as "\\# 2 4001", which no one
   * reads as NXT; the next name lowercased (RFC 4034 section 6.2 lists NXT), where BIND keeps
   * its case, and TYPE127 where BIND writes a bare 127 (both read it back) */
  {"NXT", "b.example. A MX", "b.example. A MX"},
  /* BIND writes "B.Example. A SIG NXT 127" */
  {"NXT", "B.Example. a sig nxt TYPE127", "b.example. A TYPE24 TYPE30 TYPE127"},
  {"NXT", "b.", "b."},
};

Test(emit, own_text_where_ldns_is_wrong)
{
  expect_written(own_text, sizeof own_text / sizeof *own_text, false);
}

/* format.c writes IPv6 addresses itself: as inet_ntop (which ldns uses) writes them, on every
 * shape of zero run and embedded IPv4 address, and on random ones. */
Test(emit, ipv6_text_is_inet_ntops)
{
  zp_format fm;
  cr_assert(zp_format_init(&fm, false, false));
  for (unsigned iter = 0; iter < 200000; iter++) {
    uint8_t a[16];
    for (size_t i = 0; i < 16; i++)
      a[i] = (uint8_t)rnd(256);
    /* words zero, 1 or 0xffff in random places: the runs and IPv4 forms */
    for (size_t w = 0; w < 8; w++) {
      uint32_t r = rnd(8);
      if (r < 4 || (iter % 3 == 0 && w < 6))
        a[2 * w] = a[2 * w + 1] = 0;
      else if (r == 4)
        a[2 * w] = 0, a[2 * w + 1] = 1;
      else if (r == 5)
        a[2 * w] = a[2 * w + 1] = 0xFF;
      else if (r == 6)
        a[2 * w] = 0, a[2 * w + 1] = (uint8_t)rnd(16);
    }
    char want[INET6_ADDRSTRLEN];
    cr_assert_not_null(inet_ntop(AF_INET6, a, want, sizeof want));
    fm.line.len = 0;
    cr_assert(zp_format_field(&fm, LDNS_RDF_TYPE_AAAA, a, 16, true));
    cr_assert_eq(fm.line.len, strlen(want) + 1, "%s: %.*s", want, (int)fm.line.len, fm.line.p);
    cr_assert(memcmp(fm.line.p + 1, want, strlen(want)) == 0, "%s: %.*s", want,
              (int)fm.line.len, fm.line.p);
  }
  zp_format_free(&fm);
}

/* Every type the table reads as text and may write as text (RFC 3597 form is not its only
 * output) is written by format.c alone or through a descriptor ldns has of that very type:
 * otherwise its fields would be written as another type's (a row of DS's kinds that ldns does
 * not know came out as "MX TYPE20 ... NSEC"), and the writer falls back to RFC 3597 form. A
 * new row ldns 1.8 does not know is marked N (never as text) in record/rrtype.h: this test
 * says which. AMTRELAY, which ldns only names TYPE260, format.c writes itself. */
Test(emit, every_type_written_as_text_has_a_route_that_knows_it)
{
  uint8_t always[65536 / 8] = {0};
  zp_rrtype_generic_always(always);
  unsigned rows = 0, formats = 0;
  for (unsigned t = 1; t <= 0xFFFF; t++) {
    if (!zp_rrtype_kinds((uint16_t)t) || (always[t >> 3] & (0x80 >> (t & 7))))
      continue;
    rows++;
    char buf[ZP_RRTYPE_TEXT_MAX];
    zp_emit_route r = zp_emit_text_route((uint16_t)t);
    formats += r == ZP_EMIT_FORMAT;
    cr_expect(r != ZP_EMIT_GENERIC, "type %u (%s) may be written as text, but format.c does "
              "not write all its field kinds and ldns has no descriptor of it: mark it N in "
              "ZP_RRTYPES", t, zp_rrtype_name((uint16_t)t, buf));
  }
  cr_expect_eq(zp_emit_text_route(ZP_TYPE_AMTRELAY), ZP_EMIT_FORMAT);
  cr_expect_eq(zp_emit_text_route(ZP_TYPE_DS), ZP_EMIT_LDNS);
  /* (TA, which ldns 1.8 does not know, were it ever written as text) */
  cr_expect_eq(zp_emit_text_route(ZP_TYPE_TA), ZP_EMIT_GENERIC);
  cr_expect_geq(rows, 60, "only %u rows written as text", rows);
  cr_expect_geq(formats, 20, "only %u rows written by format.c alone", formats);
}

/* A field of each kind as text, for the round trip below: any value its kind takes. The
 * fields before a HEX digest pick an unassigned digest type, so no length is required of it. */
static const char *const kind_sample[ZP_K_COUNT] = {
  [ZP_K_NAME] = "target.example.", [ZP_K_INT8] = "200", [ZP_K_INT16] = "4660",
  [ZP_K_INT32] = "305419896", [ZP_K_PERIOD] = "3600", [ZP_K_A] = "192.0.2.1",
  [ZP_K_AAAA] = "2001:db8::1", [ZP_K_STRING] = "\"one string\"", [ZP_K_OPT_STRING] = "\"sub\"",
  [ZP_K_STRINGS] = "\"first\" \"second\"", [ZP_K_OCTETS] = "\"a value\"",
  [ZP_K_TARGET] = "\"https://example.com/\"", [ZP_K_HEX] = "0123456789abcdef0123456789abcdef",
  [ZP_K_BASE64] = "AwEAAc3K", [ZP_K_BASE64_0] = "AwEAAc3K", [ZP_K_BASE64_DASH] = "AwEAAc3K",
  [ZP_K_ALG] = "8", [ZP_K_TYPE] = "A", [ZP_K_TYPE_NUM] = "CDS", [ZP_K_SCHEME] = "1",
  [ZP_K_TIME] = "20240101000000", [ZP_K_BITMAP] = "A NS RRSIG", [ZP_K_BITMAP0] = "A AAAA",
  [ZP_K_SALT] = "aabbccdd", [ZP_K_HASH] = "2vptu5timamqttgl4luu9kg21e0aor3s",
  [ZP_K_TAG] = "issue", [ZP_K_EUI48] = "00-00-5e-00-53-2a",
  [ZP_K_EUI64] = "00-00-5e-ef-10-00-00-2a", [ZP_K_ILNP64] = "2001:db8:1:2",
  [ZP_K_CERT_TYPE] = "PKIX", [ZP_K_APL] = "1:192.0.2.0/24 !2:2001:db8::/32",
  [ZP_K_LOC] = "52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m",
  [ZP_K_GATEWAY] = "1 2 192.0.2.38", [ZP_K_SVCPARAMS] = "alpn=h2,h3 port=8443",
  [ZP_K_KEYDATA] = "AwEAAc3K", [ZP_K_WKS] = "tcp 25 80", [ZP_K_NSAP] = "0x47.0005.80",
  [ZP_K_ATMA] = "+358400123456", [ZP_K_GPOS] = "-32.6882 116.8652 10.0",
  [ZP_K_HIP] = "2 200100107b1a74df365639cc39f1d578 AwEAAc3K rvs.example.",
  [ZP_K_AMTRELAY] = "0 3 relay.example.", [ZP_K_NXTBITMAP] = "A NS SOA",
  [ZP_K_A6] = "64 ::1:2:3:4 prefix.example.",
};

/* Rows whose RFC asks more of a field than its kind does. */
static const struct {
  uint16_t type;
  const char *text;
} row_sample[] = {
  {ZP_TYPE_X25, "\"311061700956\""},   /* RFC 1183 section 3.1: 4 or more digits */
  {ZP_TYPE_ISDN, "\"150862028003217\" \"004\""},   /* section 3.2: digits */
  {ZP_TYPE_NAPTR, "100 10 \"S\" \"SIP+D2U\" \"\" _sip._udp.example."},   /* RFC 3403 section
                                                                          4.1: flags, regexp */
};

/* Every type that may be written as text is written so that zonepuny reads it back as the
 * same record, whichever route it takes: format.c's fields, or ldns's descriptor of the type.
 * A descriptor whose fields are not the table's kinds (another count, width or syntax) writes
 * text that reads back as other octets or not at all, and fails here, row by row. */
Test(emit, every_text_route_reads_back_as_the_same_record)
{
  for (unsigned k = ZP_K_END + 1; k < ZP_K_COUNT; k++)
    cr_assert_not_null(kind_sample[k], "field kind %u has no sample", k);
  uint8_t always[65536 / 8] = {0};
  zp_rrtype_generic_always(always);
  unsigned rows = 0, through_ldns = 0;
  for (unsigned t = 1; t <= 0xFFFF; t++) {
    const uint8_t *k = zp_rrtype_kinds((uint16_t)t);
    if (!k || (always[t >> 3] & (0x80 >> (t & 7))))
      continue;
    char text[1024] = "", buf[ZP_RRTYPE_TEXT_MAX];
    for (; *k != ZP_K_END; k++)
      snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", text[0] ? " " : "",
               kind_sample[*k]);
    for (size_t i = 0; i < sizeof row_sample / sizeof *row_sample; i++)
      if (row_sample[i].type == t)
        snprintf(text, sizeof text, "%s", row_sample[i].text);
    const char *name = zp_rrtype_name((uint16_t)t, buf);
    run first, again;
    emit_one(&first, "www.example.", (uint16_t)t, text);
    cr_expect_eq(first.errors, 0, "%s %s: %s", name, text, first.err);
    /* the RDATA written, after owner, TTL, class and type; less ldns's comment on a key */
    const char *at = first.out;
    for (int tabs = 0; tabs < 4 && at; tabs++)
      at = strchr(at, '\t') ? strchr(at, '\t') + 1 : NULL;
    cr_assert_not_null(at, "%s: %s", name, first.out);
    char rdata[1024];
    size_t n = strcspn(at, "\n");
    if (strstr(at, " ;") && (size_t)(strstr(at, " ;") - at) < n)
      n = (size_t)(strstr(at, " ;") - at);
    snprintf(rdata, sizeof rdata, "%.*s", (int)n, at);
    emit_one(&again, "www.example.", (uint16_t)t, rdata);
    cr_expect_eq(again.errors, 0, "%s %s written as %s, read back: %s", name, text, rdata,
                 again.err);
    cr_expect_str_eq(again.out, first.out, "%s %s: written %s, read back and written %s",
                     name, text, first.out, again.out);
    rows++;
    through_ldns += zp_emit_text_route((uint16_t)t) == ZP_EMIT_LDNS;
    run_free(&first);
    run_free(&again);
  }
  cr_expect_geq(rows, 60, "only %u rows", rows);
  cr_expect_geq(through_ldns, 20, "only %u rows through ldns", through_ldns);
}
