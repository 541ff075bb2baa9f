/* check_int.h -- what the files of the whole-zone checks share; not public.
 *
 * Every record becomes a tuple (canonical owner, class, type, TTL, RDATA digest, spelling,
 * location); every name records point to (NS, MX, SRV, CNAME targets) is a target, known by
 * number, with one marker tuple keyed by its name. spill.c sorts the tuples in canonical order
 * (RFC 4034 section 6.1), so one pass sees each name's records, then its marker, with a small
 * stack of the delegations and DNAMEs above it; the pass notes what each target is, and the
 * references, kept in the order read, are judged after it. (Past a bound on the targets kept,
 * a reference is a tuple of its own, judged in the pass.)
 *
 * The engine: intake.c takes records in (what a record alone shows is judged on the reader's
 * thread; with -j 2 or more, its tuples are made and filed on a thread of their own, fed
 * through core/handoff.c), tuple.c files them and orders them, pass.c walks the sorted tuples
 * a name at a time (with -j 2 or more on a thread of its own too, while the caller's merges
 * the runs), message.c words and orders what is found, nameset.c holds the names known before
 * the pass, keyset.c the keys of one RRset or batch.
 *
 * Memory: --check-memory N (opt.run_bytes) is shared out, each part bounded on its own (intake.c
 * sets them): the tuples' sort a half (less the handoff's four blocks of a sixty-fourth
 * each, 4 KiB at the least), the wildcards three sixteenths, the targets, the CNAME
 * links and the references' log a sixteenth each, the held messages, the references waiting for
 * a wildcard and the records never served a thirty-second each, and -W confusable's filter of
 * skeletons and its candidates a sixty-fourth each. A spill takes 32 KiB at the least. Past the pass, the tuples' sort and the log are let go, and the links that did not fit
 * in memory take their share for sorting (loop.c).
 * The rules, by subject: hostname.c (check-names), rrset.c (TTLs, singletons, CNAME and other
 * data, null MX), collision.c (IDNA spellings), apex.c (the zone's apex and bounds),
 * delegation.c (cuts, DS, DNAME, occlusion), target.c (NS, MX, SRV and CNAME targets, glue),
 * confusable.c (names alike, UTS #39),
 * loop.c (CNAME loops); registry.c names them all for -W. */
#ifndef ZP_CHECK_INT_H
#define ZP_CHECK_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/buf.h"
#include "core/handoff.h"
#include "core/hash.h"
#include "core/spill.h"
#include "record/rrtype.h"
#include "record/wire_name.h"

/* ---- tuples (tuple.c) ---- */

enum { K_RECORD, K_TARGET, K_REF };   /* a record, a target's marker, a reference */
enum {
  F_NULL_MX = 1,         /* an MX "0 ." (RFC 7505) */
  F_KEY_REL = 2,         /* the key is stored without the first record's zone (skip), which */
  F_EXTRA_REL = 4,       /* nearly every key starts with; the same for a reference's extra */
  F_ALIKE = 4,           /* (a record's) 8 octets after its extra: what confusable.c carries of
                            its owner to the pass (zp_ck_add) */
  F_SERVED_ONLY = 8,     /* (a message's place) told only if the record is ever served */
  F_BATCH_CONT = 16,     /* a record whose RRset had one in the same batch of named's loader
                            reading the zone zonepuny writes (load.c) */
  F_BATCH_CONT_IN = 32,  /* the same, named reading the file as it is */
  F_GENERATED = 64,      /* a $GENERATE record: a batch alone in the file's reading */
  F_GENERATED_OPEN = 128,  /* one whose RRset has a batch pending when it is committed */
};

/* Stored unaligned in spill's buffer, then the key, then (a record) its spelling, (a reference)
 * the referring record owner's sort key or (a marker) the target's number. A reference in the
 * log has no key. */
typedef struct zp_ck_tuple {
  uint64_t line_off;
  uint64_t digest;       /* a hash of a record's RDATA (one CNAME, DNAME or SOA at a name; the
                            same record twice is one); a logged reference's target */
  uint32_t seq;          /* input order */
  uint32_t ttl;
  uint32_t src, line;
  uint16_t col;
  uint16_t rclass, rtype;  /* a reference: the referring record's */
  uint16_t covered;      /* an RRSIG's (a SIG's) type covered; a DNSKEY's, CDS's or CDNSKEY's
                            algorithm (ZP_CK_KEY_*), which is no part of its RRset's order; a
                            reference's: how many labels of the target were written before the
                            origin, when it was written relative with two or more (else 0) */
  uint16_t rdlen;        /* a record's RDATA length */
  uint16_t key_len;      /* as stored: without the first record's zone (F_KEY_REL) */
  uint16_t extra_len;    /* spelling (0: the canonical name itself), or the referring owner */
  uint8_t kind, flags;
} zp_ck_tuple;

/* A copy of a source in the include chain: the parser frees its own once the file is read. */
typedef struct zp_ck_source {
  zp_source src;
  const zp_source *orig;   /* the parser's, to recognise the next record's */
  int fd;                  /* a copy of the parser's descriptor, to quote lines after the pass
                              from the file that was read; -1: none (no line quoted) */
} zp_ck_source;

/* Descriptors kept for messages after the pass, at most: a zone may $INCLUDE thousands of
 * files, and the reader must still be able to open the next one. */
enum { ZP_CK_FDS_MAX = 256 };

/* A CNAME pointing to a name that holds a CNAME: a link of a chain, kept for loop finding. */
typedef struct zp_ck_link {
  uint64_t from, to;     /* hashes of the names */
  uint32_t seq, src, line, col;
  uint64_t line_off;
  size_t name_off;       /* the CNAME owner's sort key (after its 2-octet length) in link_names */
} zp_ck_link;

/* A name that records point to, and what the pass found it to be: enough to judge every
 * reference to it after the pass. */
typedef struct zp_ck_target {
  zp_ck_tuple cname;           /* its own CNAME record, when own_cname */
  uint64_t hash;         /* of its sort key */
  size_t key_off;        /* its sort key in target_keys: a 2-octet length, then the key */
  bool asked;            /* a CNAME points to it: whether it exists matters (for a name without
                            records, the next name with records tells) */
  bool exists;           /* it has records, a name below it has (an empty non-terminal), or a
                            wildcard answers for it (RFC 4592 section 3.3.1): no NXDOMAIN */
  bool in_zone, glue_zone, below_dname, has_a, has_cname, own_cname;
} zp_ck_target;

/* ---- names known before the pass (nameset.c) ---- */

/* By the hash of their sort key, with flags: small (wildcards), so kept in memory. Open
 * addressing over one word per name: the flags in its top four bits, 60 bits of hash below
 * them (one cache line per lookup); 0 is an empty slot. */
typedef struct zp_ck_nameset {
  uint64_t *e;
  size_t cap, n;
  size_t max;            /* octets it may take, growing included; 0: no bound of its own */
} zp_ck_nameset;

enum {
  N_WILD = 1,                        /* *.NAME exists: it has records, or names below it */
  N_ADDR = 4, N_CNAME = 8,           /* *.NAME holds A/AAAA, CNAME */
};
#define ZP_CK_SET_HASH (UINT64_MAX >> 4)

/* Adds flags to the name with hash h: ZP_ENOMEM, ZP_ECHECKMEM past max. */
zp_status zp_ck_set_add(zp_ck_nameset *s, uint64_t h, uint8_t flags);

/* The slot of the name with hash h (a nonzero ZP_CK_SET_HASH part), or of where it would go. */
static inline uint64_t *zp_ck_set_slot(const zp_ck_nameset *s, uint64_t h)
{
  size_t k = h & (s->cap - 1);
  while (s->e[k] && (s->e[k] & ZP_CK_SET_HASH) != h)
    k = (k + 1) & (s->cap - 1);
  return &s->e[k];
}

/* The flags of the name with hash h (0: not in the set). Inline: asked per ancestor. */
static inline uint8_t zp_ck_set_get(const zp_ck_nameset *s, uint64_t h)
{
  h &= ZP_CK_SET_HASH;
  return s->cap ? (uint8_t)(*zp_ck_set_slot(s, h | !h) >> 60) : 0;
}

/* ---- the keys of one RRset or batch (keyset.c) ---- */

/* Kept in the order added, each with a value; most sets hold a key or two between emptyings,
 * a few hold many, so past a few keys an index by hash finds them, and each key knows its
 * slot in it. */
typedef struct zp_ck_kentry {
  uint64_t key;
  uint32_t val, slot;
} zp_ck_kentry;
typedef struct zp_ck_keyset {
  zp_ck_kentry *e;
  size_t n, cap;
  uint32_t *index;       /* a key's number + 1 by hash, 0 empty; nindex a power of two or 0 */
  size_t nindex;
} zp_ck_keyset;

zp_ck_kentry *zp_ck_kset_find(const zp_ck_keyset *s, uint64_t key);
/* A key not in s added (NULL: out of memory); pointers into s last until the next add. */
zp_ck_kentry *zp_ck_kset_add(zp_ck_keyset *s, uint64_t key, uint32_t val);
void zp_ck_kset_clear(zp_ck_keyset *s);
void zp_ck_kset_free(zp_ck_keyset *s);

/* ---- the pass's state (pass.c) ---- */

/* A record kept whole in the group state: for messages that name two records. */
typedef struct zp_ck_rep {
  bool set;
  zp_ck_tuple t;
  uint8_t spell[ZP_NAME_MAX];
} zp_ck_rep;

/* What the pass knows of the name being looked at. */
typedef struct zp_ck_group {
  bool in_zone, apex, refs_started;
  int cut, dname;        /* stack index of the delegation (DNAME) at or above, or -1 */
  bool has_a, has_ns, has_cname, has_dname, has_soa, has_ds, mx_other;
  /* keys.c: the algorithms of the name's DNSKEYs, a bit each (they sort before its CDS and
   * CDNSKEY records); of its CDSs [0] and CDNSKEYs [1], whether a delete record and another
   * were seen, and whether one was told */
  uint8_t dnskey_algs[256 / 8];
  bool has_dnskey, key_delete[2], key_other[2], key_told[2];
  bool rrset_ttl_told, rrset_single_told, rrset_size_told;
  uint32_t rrset_size;   /* what named counts of the RRset (ZP_RRSET_LOAD_MAX), its records once */
  /* load.c: for each of named's readings (the file, the zone written), the RRset's records it
   * holds (each once), and the batch pending's records, those each once, those held already;
   * the name's RRsets */
  uint32_t load_held[2], load_all[2], load_dist[2], load_again[2], types;
  bool load_told, types_told;
  uint64_t alike;        /* confusable.c: what a record of the name carried (0: nothing) */
  zp_ck_rep rrset, cname, other, spell1, spell2, glue_other, occ, dname_rec, ns, ds, mx_null_rec;
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t key_len;
} zp_ck_group;

typedef struct zp_ck_frame {
  uint8_t key[ZP_NAME_KEY_MAX];
  size_t key_len;
  bool cut, dname;
  zp_ck_tuple t;               /* the NS or DNAME record */
} zp_ck_frame;

enum { ZP_CK_DEPTH_MAX = 128 };   /* delegations and DNAMEs nested above one name */

/* confusable.c: the hashes of labels' skeletons, a slot each by the label's hash; owners filed
 * lately, by their hash. */
enum { ZP_CK_ALIKE_CACHE = 256, ZP_CK_ALIKE_RECENT = 16, ZP_CK_ALIKE_PROTO = 4 };
typedef struct zp_ck_alike_seen {
  uint8_t len;           /* 0: empty */
  bool ace, plain;       /* plain: a skeleton an ASCII label may have too */
  uint8_t label[ZP_LABEL_MAX];
  uint64_t hash;
} zp_ck_alike_seen;
typedef struct zp_ck_alike_cache {
  zp_ck_alike_seen seen[ZP_CK_ALIKE_CACHE];
  /* the last key asked: its labels' hashes, whether each is ACE, where each ends in it */
  uint8_t prev[ZP_NAME_KEY_MAX];
  size_t prev_len, prev_nl;
  uint64_t prev_lh[ZP_NAME_MAX / 2];
  bool prev_ace[ZP_NAME_MAX / 2], prev_plain[ZP_NAME_MAX / 2];
  uint16_t prev_end[ZP_NAME_MAX / 2];
} zp_ck_alike_cache;

/* Two threads share the checker while records come in: the reader's owns opt, diag, seq,
 * first, the sources (srcs, nsrcs, fds) and the wildcards; the intake's the tuples' spills,
 * the targets, skip and apex. zp_check_finish ends the intake first. */
typedef struct zp_ck_dnssec zp_ck_dnssec;
typedef struct zp_ck_load zp_ck_load;

struct zp_checker {
  zp_check_options opt;
  zp_diag *diag;
  zp_handoff *intake;    /* records on their way to the tuples */
  zp_ck_dnssec *dnssec;  /* the records DNSSEC verification holds (dnssec.c); NULL: none */
  zp_ck_load *load;      /* the batches of named's loader (load.c, the reader's); NULL: none */
  zp_spill *sp;
  uint32_t seq;
  /* the zone: from -z, else the first SOA's owner */
  uint8_t apex_key[ZP_NAME_KEY_MAX];
  size_t apex_len;
  bool have_apex, apex_seen;
  zp_ck_tuple first;           /* the first record read: where the zone's own messages point */
  bool soa_refused;      /* zp_check_soa_refused */
  uint8_t refused_key[ZP_NAME_KEY_MAX];   /* the refused SOA's owner, for the apex when no SOA */
  size_t refused_len;                     /* gives one (0: none) */
  bool soa_read;         /* the reader's: an SOA record has come in */
  /* the prefix given to spill: octets of the key after this one (the first record's zone) */
  uint8_t skip[ZP_NAME_KEY_MAX];
  size_t skip_len;
  bool have_skip;
  zp_ck_source **srcs;
  size_t nsrcs;
  size_t fds;            /* sources with a descriptor kept */
  zp_ck_link *links;     /* in memory, within links_max octets (with what finding loops takes) */
  size_t nlinks, links_cap, links_max;
  zp_buf link_names;
  zp_spill *chain;       /* past links_max: every link, to be sorted (NULL: none) */
  zp_status chain_err;   /* what adding to it failed with */
  zp_ck_frame stack[ZP_CK_DEPTH_MAX];
  size_t depth;
  /* targets by number, found by the hash of their sort key (tmap holds number + 1, 0 empty) */
  zp_ck_target *targets;
  size_t ntargets, targets_cap, targets_max;   /* max: octets, the waiting ones' included */
  uint32_t *tmap;
  size_t tmap_cap;
  zp_buf target_keys;
  zp_spill *log;         /* references to targets, in the order read */
  zp_spill *held;        /* messages of the pass, to be told in input order */
  uint32_t nheld;
  bool holding;
  bool started;          /* the pass has begun its first name */
  zp_ck_keyset rdatas;         /* the RDATA digests of the RRset being looked at, past its first
                            record: a record twice is one (kept small: see rrset.c) */
  zp_buf rdata_recs;     /* the tuple of each digest in rdatas, by its value: where a record
                            written twice was first */
  zp_ck_keyset batch_rdatas[2], held_rdatas[2];   /* those of the batch pending, those held, in
                                                each of named's readings (load.c) */
  zp_ck_nameset wild;          /* N_WILD, N_ADDR, N_CNAME of *.NAME under NAME's hash */
  zp_spill *unserved;    /* the NS, MX, SRV and CNAME records the pass finds never served, by
                            input order: their references' messages are not told */
  /* A name without records is answered by the wildcard of its closest encloser (RFC 4592
   * section 3.3.1), its deepest ancestor that exists: in canonical order that is the deepest
   * ancestor it shares with the name with records before it or the one after it (an empty
   * non-terminal exists through a name below it, which may come after). So the targets and
   * references whose answer waits for the next name with records are kept until it comes. */
  uint8_t prev_key[ZP_NAME_KEY_MAX];   /* the last name with records */
  size_t prev_len;
  uint32_t *pending;     /* numbers of the targets waiting */
  size_t npending, pending_cap;
  zp_spill *deferred;    /* references (past the bound on targets kept) waiting; NULL: none */
  /* confusable.c: the skeletons of owners with ACE labels and those wanted (Bloom filters), the
   * candidates and what filing them failed with */
  uint8_t *alike_bloom, *alike_want;
  struct zp_ck_alike_cache *alike_cache;   /* [0] the intake's thread's, [1] the pass's */
  size_t alike_bloom_len, alike_want_len;
  bool alike_wanted;     /* a hash went into the wanted ones */
  bool alike_plain;      /* an owner's skeleton an ASCII name may have was seen */
  uint64_t alike_recent[ZP_CK_ALIKE_RECENT];   /* hashes of the last owners seen, a ring */
  size_t alike_recent_at;
  uint64_t *alike_pending;   /* hashes not in the filters yet (bit 0: plain), and as many */
  size_t alike_npending, alike_pending_max;   /* octets more to sort them in */
  uint32_t alike_ascii[0x80][ZP_CK_ALIKE_PROTO];   /* the skeletons of ASCII characters */
  uint8_t alike_ascii_len[0x80];
  uint64_t alike_proto_low[2];   /* the code points of those below 0x80 (a bit each), and */
  uint32_t alike_proto_high[0x80 * ZP_CK_ALIKE_PROTO];   /* the others */
  size_t alike_proto_nhigh;
  zp_spill *alike;
  zp_status alike_err;
  struct zp_ck_spf *spf;        /* mail.c: SPF, DMARC and DKIM records kept (-W mail), found */
  size_t nspf, spf_cap;         /* by owner and kind in mail_names */
  bool spf_uncounted;
  zp_ck_keyset mail_names;
  struct zp_ck_brand *brands;   /* brand.c: --confusable-with's hashes, sorted (NULL: none) */
  uint64_t brand_labels[2];     /* a bit per label count a brand has */
  zp_ck_group g;
};

/* --check-memory: the memory the checks share out. */
static inline size_t zp_ck_mem(const zp_checker *c)
{
  return c->opt.run_bytes ? c->opt.run_bytes : (size_t)16 << 20;
}

static inline bool zp_ck_on(const zp_checker *c, zp_check_id id)
{
  return !c->opt.off && c->opt.level[id] != ZP_LEVEL_OFF;
}

/* Whether the key k[0..kn) is of[0..on_len) or an ancestor's. */
static inline bool zp_ck_is_prefix(const uint8_t *k, size_t kn, const uint8_t *of, size_t on_len)
{
  return kn <= on_len && memcmp(k, of, kn) == 0;
}

/* The first record of the group, for a message about the name as a whole. */
static inline const zp_ck_tuple *zp_ck_first(const zp_ck_group *g)
{
  return &g->spell1.t;
}

/* Whether t is an RRSIG (or SIG) record: RRSIGs are one RRset per type they cover (RFC 4034
 * section 3), and so are SIGs as BIND keeps them; the type covered in t->covered. */
static inline bool zp_ck_is_sig(const zp_ck_tuple *t)
{
  return t->kind == K_RECORD && (t->rtype == ZP_TYPE_RRSIG || t->rtype == ZP_TYPE_SIG);
}

/* A DNSKEY's, CDS's or CDNSKEY's t->covered: its algorithm, with these bits. */
enum { ZP_CK_KEY_DELETE = 0x100, ZP_CK_KEY_KNOWN = 0x200 };

/* The labels of a wire name, the root's aside. */
static inline size_t zp_ck_labels(const uint8_t *wire)
{
  size_t n = 0;
  for (; *wire; wire += *wire + 1)
    n++;
  return n;
}

/* The hash of a name in wire form, ASCII case folded (names from text and from records compare). */
static inline uint64_t zp_ck_name_hash(const uint8_t *wire)
{
  uint8_t low[ZP_NAME_MAX];
  size_t n = zp_name_wire_len(wire);
  for (size_t i = 0; i < n; i++)
    low[i] = wire[i] >= 'A' && wire[i] <= 'Z' ? wire[i] + 32 : wire[i];
  return zp_hash(low, n);
}

/* A key that ends in the label "*": a wildcard's. */
static inline bool zp_ck_is_wildcard(const uint8_t *key, size_t len)
{
  return len >= 2 && key[len - 2] == '*' && (len == 2 || key[len - 3] == 0);
}

/* ---- tuples (tuple.c) ---- */

/* The tuples' order (RFC 4034 section 6.1 by owner, then kind, class, type, an RRSIG's (SIG's) type
 * covered, input order), as spill compares them (ctx: the checker). */
int zp_ck_tuple_cmp(const uint8_t *a, const uint8_t *b);
bool zp_ck_key_prefix(const uint8_t *entry, size_t entry_len, size_t window,
                      uint8_t out[ZP_SPILL_PREFIX], void *ctx);
/* Files the tuple whole with its key (whole->key_len octets) and extra in sp; a reference's
 * extra is a key too, and either is stored without skip when it starts with it. A record's
 * alike (not 0) follows (F_ALIKE). */
zp_status zp_ck_add(zp_checker *c, zp_spill *sp, const zp_ck_tuple *whole, const uint8_t *key,
                    const uint8_t *extra, uint64_t alike);
/* A tuple for a message at field i of r (the record's own place when the field is unknown). */
zp_ck_tuple zp_ck_at_field(const zp_record *r, const zp_ck_tuple *t, size_t i);
/* A reference's extra, the referring owner's sort key, whole again in from; its length. */
size_t zp_ck_whole_extra(const zp_checker *c, const zp_ck_tuple *t, const uint8_t *extra,
                         uint8_t *from);

/* ---- messages (message.c) ---- */

/* Told at once while records come in (they come in input order); held from the pass on, which
 * finds problems in the order of names, so that all are told in the order of the records they
 * are about. (Held in a spill: bounded memory, whatever the count.) at: NULL for the zone. */
ZP_PRINTF(4, 5) void zp_ck_report(zp_checker *c, zp_check_id id, const zp_ck_tuple *at,
                                  const char *fmt, ...);
/* The same, an error whatever the check's level (on): where named refuses whatever its option. */
ZP_PRINTF(4, 5) void zp_ck_error(zp_checker *c, zp_check_id id, const zp_ck_tuple *at,
                                 const char *fmt, ...);
/* The held messages' order (a zp_spill_prefix_fn): record, then message. */
bool zp_ck_held_order(const uint8_t *entry, size_t len, size_t window,
                      uint8_t out[ZP_SPILL_PREFIX], void *ctx);
/* The order of entries that start with a record's number (uint32_t seq): input order. */
bool zp_ck_seq_order(const uint8_t *entry, size_t len, size_t window,
                     uint8_t out[ZP_SPILL_PREFIX], void *ctx);
/* The held messages, told in order, but those F_SERVED_ONLY about a record never served. */
zp_status zp_ck_tell_held(zp_checker *c);
/* Texts for messages, NUL-terminated, in a few rotating buffers each (a message names up to
 * three names): a wire name; the name whose sort key is key[0..len); the name being looked at;
 * "file:line" of a tuple (a message that names a second record); a type's mnemonic. */
const char *zp_ck_name_text(const uint8_t *wire);
const char *zp_ck_key_text(const uint8_t *key, size_t len);
const char *zp_ck_owner_text(const zp_ck_group *g);
const char *zp_ck_where(const zp_checker *c, const zp_ck_tuple *t);
const char *zp_ck_type_text(uint16_t type);

/* ---- the rules (one file per subject) ---- */

/* hostname.c: named's check-names on one record, as it comes in (any class: BIND checks the
 * class-independent types in every class). */
void zp_ck_check_names(zp_checker *c, const zp_record *r, const zp_ck_tuple *t);
/* (intake.c) Waits for every record to be taken in: the status the intake failed with. */
ZP_NODISCARD zp_status zp_ck_intake_end(zp_checker *c);

/* ---- DNSSEC verification (dnssec.c) ---- */
/* Sets c->dnssec up for --dnssec (nothing when off), its records held in mem octets. */
ZP_NODISCARD zp_status zp_ck_dnssec_new(zp_checker *c, size_t mem);
void zp_ck_dnssec_free(zp_checker *c);
/* Holds a record (t: its tuple) while verification may be on; *shrink is set when --dnssec=auto
 * has just turned it on, and the tuples' sort must give up the share it takes. */
ZP_NODISCARD zp_status zp_ck_dnssec_record(zp_checker *c, const zp_record *r, const zp_ck_tuple *t,
                                           bool *shrink);
/* After the pass: the held records walked a name at a time, each signature judged. */
ZP_NODISCARD zp_status zp_ck_dnssec_end(zp_checker *c);
/* (intake.c) Octets of a block of the handoffs to the intake and to the pass. */
size_t zp_ck_handoff_block(const zp_checker *c);

/* rrset.c: the first record of an RRset (t); a record of the RRset being looked at after its
 * first (t, its owner's spelling); the name's records all seen: CNAME and other data; a null MX
 * beside others. */
void zp_ck_rrset_first(zp_checker *c, const zp_ck_tuple *t);
void zp_ck_rrset_more(zp_checker *c, const zp_ck_tuple *t, const uint8_t *spell);
void zp_ck_cname_other(zp_checker *c);
void zp_ck_null_mx(zp_checker *c);

/* load.c: a record as it comes in, in input order: whether its RRset is in its batch already
 * (t->flags), its TTL against max-zone-ttl. In the pass: an RRset's first record (the name's
 * RRsets counted); whether its records are still counted; a record after its first, new_rdata
 * when its RDATA is not one of the RRset's before it. */
ZP_NODISCARD zp_status zp_ck_load_record(zp_checker *c, const zp_record *r, zp_ck_tuple *t);
void zp_ck_load_free(zp_ck_load *l);
void zp_ck_load_first(zp_checker *c, const zp_ck_tuple *t);
bool zp_ck_load_counting(const zp_checker *c);
void zp_ck_load_more(zp_checker *c, const zp_ck_tuple *t, bool new_rdata);

/* confusable.c: an owner as it comes in, with its sort key (the intake's thread: what its tuple
 * is to carry into *carry, 0 for nothing); the intake's end; the name being looked at in the pass; after the pass, the names
 * told; the memory freed. */
ZP_NODISCARD zp_status zp_ck_alike_owner(zp_checker *c, const uint8_t *owner, const uint8_t *key,
                                         size_t key_len, uint64_t *carry);
void zp_ck_alike_intake_end(zp_checker *c);
void zp_ck_alike_name(zp_checker *c);
ZP_NODISCARD zp_status zp_ck_alike_end(zp_checker *c);
void zp_ck_alike_free(zp_checker *c);
/* What the skeletons need, made once: the caches and the ASCII prototypes. */
ZP_NODISCARD zp_status zp_ck_alike_init(zp_checker *c);
/* The hashes of the skeletons of the labels of the name whose sort key is key[0..len), from the
 * root down, into lh (*nl of them), with the cache of side (0: the intake's thread, 1: the
 * pass); whether a label is ACE (with ace_stops, the first ACE label ends it, lh then partial);
 * into *ascii_like (unless NULL) whether every label's skeleton is one an ASCII label may have.
 * The hash of a run of labels is zp_ck_label_fold of theirs. */
bool zp_ck_key_labels(const zp_checker *c, const uint8_t *key, size_t len, int side,
                      bool ace_stops, uint64_t *lh, size_t *nl, bool *ascii_like);
uint64_t zp_ck_label_fold(const uint64_t *lh, size_t n);
/* The name whose sort key is key[0..len) as people read it, and its ACE form when that differs,
 * into out (ZP_CK_SHOWN_MAX octets). */
enum { ZP_CK_SHOWN_MAX = ZP_NAME_UNICODE_MAX + ZP_NAME_TEXT_MAX + 4 };
const char *zp_ck_alike_shown(const zp_checker *c, const uint8_t *key, size_t len, char *out);
/* mail.c: a TXT record as it comes in (SPF, DMARC, DKIM); the lookups of the SPF records
 * counted at the end; the memory freed. */
void zp_ck_mail(zp_checker *c, const zp_record *r, const zp_ck_tuple *t);
void zp_ck_mail_end(zp_checker *c);
void zp_ck_mail_free(zp_checker *c);
/* mail.c: a TXT record as it comes in (SPF, DMARC, DKIM); the lookups of the SPF records
 * counted at the end; the memory freed. */
void zp_ck_mail(zp_checker *c, const zp_record *r, const zp_ck_tuple *t);
void zp_ck_mail_end(zp_checker *c);
void zp_ck_mail_free(zp_checker *c);
/* brand.c: --confusable-with's names, ready (zp_check_new); a name of the zone against them in
 * the pass; the memory freed. */
ZP_NODISCARD zp_status zp_ck_brands_new(zp_checker *c);
void zp_ck_brand_name(zp_checker *c);
void zp_ck_brands_free(zp_checker *c);
/* The skeleton of label p (length octet first) into out[0..*n); whether it is ACE. A label no
 * skeleton fits in or no ACE decodes is taken as its octets. */
bool zp_ck_label_skeleton(const uint8_t *p, uint32_t *out, size_t *n);

/* collision.c: whether t's spelling is a's but for ASCII case; two spellings of the name being
 * looked at, one name after IDNA; the note a message about two records adds when they were
 * written differently ("" when not). */
bool zp_ck_same_spelling(const zp_ck_rep *a, const zp_ck_tuple *t, const uint8_t *spell);
void zp_ck_collision(zp_checker *c);
const char *zp_ck_collision_note(const zp_checker *c, const zp_ck_rep *x, const zp_ck_rep *y);

/* keys.c: a DNSKEY, CDS or CDNSKEY of the name being looked at (its DNSKEYs come first), judged
 * at once at the apex; the algorithm bits of such a record's tuple (t->covered). */
void zp_ck_cds_record(zp_checker *c, const zp_ck_tuple *t, const uint8_t *spell);
uint16_t zp_ck_key_bits(uint16_t type, const uint8_t *rdata, size_t rdlen);

/* apex.c: a name outside the zone; the apex's own records (and an SOA elsewhere); the zone as a
 * whole once the pass is done. */
/* The zone's first SOA record as it comes in, against the zone its file's name gives. */
void zp_ck_zone_name(zp_checker *c, const zp_record *r, const zp_ck_tuple *t);
void zp_ck_out_of_zone(zp_checker *c);
/* caa.c: a CAA record as CAs read it (-W caa). */
void zp_ck_caa(zp_checker *c, const zp_record *r, const zp_ck_tuple *t);
/* serial.c: the zone's first SOA record as it comes in: a serial in date form dated in the
 * future, or at its day's last change. */
void zp_ck_serial(zp_checker *c, const zp_record *r, const zp_ck_tuple *t);
void zp_ck_apex(zp_checker *c);
void zp_ck_apex_end(zp_checker *c);

/* delegation.c: the stack of delegations and DNAMEs above the name that begins; the name that
 * ends goes on it when it is one. What a delegation point holds (DS, wildcard NS, DNAME beside
 * NS); data below a cut or a DNAME. An NS, MX, SRV or CNAME record t of the name being looked
 * at, filed in c->unserved when it is never served (its references are no matter then). */
void zp_ck_cuts_enter(zp_checker *c);
void zp_ck_cuts_leave(zp_checker *c);
void zp_ck_delegation(zp_checker *c);
void zp_ck_occlusion(zp_checker *c);
ZP_NODISCARD zp_status zp_ck_served(zp_checker *c, const zp_ck_tuple *t);

/* target.c: a reference from rec (placed at its target field) at the owner whose sort key is
 * from[0..from_len) to the name to; whether a field as written is an IPv4 address; an NS, MX or
 * SRV target written as one; the name being looked at as a target, once its records are done
 * (asked: whether it exists matters; *wait: a wildcard may answer for it, or a name below it
 * make it exist, which the next name with records tells); a reference judged against it (in the
 * pass, past the bound on targets kept); the target numbered id, or the reference, left to wait
 * for that name (the name being looked at is theirs); those waiting answered once the next name
 * with records, next[0..next_len) (NULL: none), is reached; the logged references judged after
 * the pass. */
zp_status zp_ck_add_ref(zp_checker *c, const zp_ck_tuple *rec, const uint8_t *from, size_t from_len,
                        const uint8_t *to);
bool zp_ck_ipv4_text(const zp_field *fd);
void zp_ck_address_target(zp_checker *c, const zp_record *r, const zp_ck_tuple *t);
zp_ck_target zp_ck_facts(zp_checker *c, bool asked, bool *wait);
void zp_ck_ref_check(zp_checker *c, const zp_ck_target *f, const uint8_t *key, size_t key_len,
                     const zp_ck_tuple *t, const uint8_t *from);
zp_status zp_ck_target_wait(zp_checker *c, uint32_t id);
zp_status zp_ck_ref_wait(zp_checker *c, const zp_ck_tuple *t, const uint8_t *from);
zp_status zp_ck_answer_waiting(zp_checker *c, const uint8_t *next, size_t next_len);
zp_status zp_ck_refs_end(zp_checker *c);

/* loop.c: a CNAME at t (owner's sort key from) to a target that holds a CNAME (a failure to
 * keep it is c->chain_err); the loops among them, once the references are judged. */
void zp_ck_chain_link(zp_checker *c, const zp_ck_tuple *t, const uint8_t *from, uint64_t to);
ZP_NODISCARD zp_status zp_ck_find_loops(zp_checker *c);

#endif
