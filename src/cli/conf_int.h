/* conf_int.h -- between the parts of the named.conf reader: conf_parse.c makes named's tokens
 * of the text, includes spliced in; conf_value.c reads named's values off them; conf_grammar.c
 * reads them into statements as named's clause tables (below) type them; conf.c gives those
 * their meaning */
#ifndef ZP_CONF_INT_H
#define ZP_CONF_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/diag.h"
#include "idna/status.h"

typedef struct conf_stmt conf_stmt;

typedef enum conf_kind { CONF_WORD, CONF_STRING, CONF_BLOCK } conf_kind;

/* One token of a statement: a word (named's specials '/' and '!' are words of their own), a
 * quoted string (its escapes undone as named undoes them: only \" loses its backslash), or a
 * block: a map of statements, a list of them (each element a statement), or bracketed text
 * (no body). */
typedef struct conf_val {
  conf_kind kind;
  const char *text;        /* NUL-terminated; "{" for a block */
  zp_loc loc;              /* its first character (a string's opening quote) */
  conf_stmt *body;         /* a block's statements (NULL: none) */
  struct conf_val *next;
} conf_val;

/* name value... ; -- a clause as named's grammar reads it, or one element of a list */
struct conf_stmt {
  conf_val *vals;          /* at least one */
  zp_loc end;              /* its ';' */
  bool told;               /* conf.c has reported that the clause is not supported */
  conf_stmt *next;
};

typedef struct conf_chunk conf_chunk;

typedef struct conf_tree {
  conf_stmt *top;
  const char *dir;         /* the directory option ("": none), relative to the working
                              directory: named-checkconf changes into it as it reads it */
  conf_chunk *chunks;      /* where everything above lives, the files' text too */
} conf_tree;

/* Reads the conf at path, with what it includes, into t (zeroed first; zp_conf_tree_free it in
 * any case), every clause typed as named's grammar types it (conf_grammar.c). ZP_ZONE_SYNTAX:
 * an error was reported to diag (reading stops at the first: what named-checkconf refuses
 * before it checks the conf's meaning); ZP_EIO (errno) when path cannot be read, ZP_ENOMEM. */
ZP_NODISCARD zp_status zp_conf_parse(const char *path, zp_diag *diag, conf_tree *t);
void zp_conf_tree_free(conf_tree *t);
/* n octets that live as long as t; NULL when out of memory. */
void *zp_conf_alloc(conf_tree *t, size_t n);
/* path as named resolves it against dir ("" or an absolute path: path itself); NULL when out of
 * memory. */
char *zp_conf_join(conf_tree *t, const char *dir, const char *path);

/* named.conf's tokens, as named's lexer makes them (conf_parse.c), for the typed reader. */
typedef enum conf_tkind {
  TK_EOF, TK_WORD, TK_STRING, TK_OPEN, TK_CLOSE, TK_SEMI, TK_SLASH, TK_BANG
} conf_tkind;

typedef struct conf_tok {
  conf_tkind kind;
  const char *text;             /* "{" ... "!" for a special */
  zp_loc loc, end;              /* its first character; just past its last */
} conf_tok;

enum {
  CONF_GRAMMAR_SETS = 19,       /* named's clause tables (below) */
  CONF_MAX_DEPTH = 64,          /* blocks inside blocks: the reader recurses once a block */
  CONF_SHOW = 48,               /* a buffer for zp_conf_show */
  CONF_FILES_MAX = 10000,       /* files read for one conf, its own and every include's, as
                                   $INCLUDE's files in one zone (doc/limits.md) */
  CONF_OCTETS_MAX = 256 << 20,  /* octets of those files, all together */
};

typedef struct conf_input conf_input;
typedef struct conf_clause conf_clause;

typedef struct conf_reader {
  conf_tree *t;
  zp_diag *diag;
  conf_input *in;               /* the file being read, those to read after it below */
  zp_status st;                 /* ZP_OK; ZP_ZONE_SYNTAX once an error is told; ZP_ENOMEM */
  unsigned long files;          /* read so far (CONF_FILES_MAX) */
  uint64_t octets;              /* their octets (CONF_OCTETS_MAX) */
  zp_buf scratch;
  zp_loc last_end;              /* just past the last token taken */
  conf_tok ahead;               /* the token peeked at, when have_ahead */
  bool have_ahead;
  const zp_loc *open;           /* the '{' of the innermost block being read, or NULL */
  const char *glued;            /* the last '/' of a comment glued to a word, which named reads
                                   again as a token of its own */
  conf_clause *sets[CONF_GRAMMAR_SETS];   /* the typed reader's, split into clauses */
  size_t nsets[CONF_GRAMMAR_SETS];
} conf_reader;

/* r set up to read the conf at path into t; ZP_EIO (errno; 0 when the reason was reported to
 * diag: not a regular file, too large), ZP_ENOMEM. zp_conf_end in any case. */
ZP_NODISCARD zp_status zp_conf_begin(conf_reader *r, const char *path, zp_diag *diag,
                                     conf_tree *t);
void zp_conf_end(conf_reader *r);
/* The next token, left to be taken (peek) or taken; false once an error is told. */
bool zp_conf_peek(conf_reader *r, conf_tok *t);
bool zp_conf_take(conf_reader *r, conf_tok *t);
/* t, taken, as the next value of s (TK_OPEN: a block); NULL when out of memory. */
conf_val *zp_conf_put(conf_reader *r, conf_stmt *s, const conf_tok *t);
conf_stmt *zp_conf_stmt(conf_reader *r);
/* Each tells its error and returns false: at loc; out of memory; what named wanted where t
 * stands (at the open '{' when the file ends inside a block). */
ZP_PRINTF(3, 4) bool zp_conf_fail(conf_reader *r, const zp_loc *loc, const char *fmt, ...);
bool zp_conf_oom(conf_reader *r);
bool zp_conf_want(conf_reader *r, const conf_tok *t, const char *what);
/* Every message about the conf's files goes through here: one in a file that has not read as
 * named.conf yet (an include, or the conf named through a symlink, before a ';' of its own) is
 * told by its location alone if an error, not at all if a warning (doc/safety.md);
 * zp_conf_reads says when it has. */
ZP_PRINTF(4, 0) void zp_conf_vtell(zp_diag *diag, const zp_loc *loc, zp_severity sev,
                                   const char *fmt, va_list ap);
ZP_PRINTF(4, 5) void zp_conf_tell(zp_diag *diag, const zp_loc *loc, zp_severity sev,
                                  const char *fmt, ...);
/* The token at loc, taken with no error before it, shows that its file reads as named.conf:
 * a clause's name that named knows where it stands, or a ';' (an include's, an element's). */
void zp_conf_reads(const zp_loc *loc);
/* t as a message quotes it. */
const char *zp_conf_show(const conf_tok *t, char buf[CONF_SHOW]);
/* include "file"; after its keyword kw: the files it names spliced in. */
bool zp_conf_include(conf_reader *r, const conf_tok *kw);
/* options' directory, just read as s: where later includes and zone files are. */
bool zp_conf_directory(conf_reader *r, const conf_stmt *s);
/* Bracketed text { ... }, kept whole as a block of s with no body: named reads no tokens in
 * it. */
bool zp_conf_btext(conf_reader *r, conf_stmt *s);

/* Values as named reads them (conf_value.c). A word as its lexer reads a number (c: C's 0x and
 * leading-0 forms too): 1 and *v, 0 not a number, -1 one above 2^32-1, which named refuses. */
int zp_conf_number(const char *w, bool c, uint32_t *v);
/* A duration (ISO 8601 "P1DT2H", or a TTL "1d2h", "3600"): 1 and *secs (capped at 2^32-1, as
 * named's isccfg_duration_toseconds), 0 not one, -1 out of range. */
int zp_conf_duration(const char *w, uint32_t *secs);
/* An address (flags: which), as named's token_addr: 1 one (its octets to a, its length in bits
 * to *bits), 2 the start of an IPv4 prefix ("10", "10.1": a length must follow), 0 none, -1 an
 * IPv6 scope named refuses. */
enum { CONF_A4 = 1, CONF_A6 = 2, CONF_AWILD = 4, CONF_APREFIX = 8, CONF_APORT = 16,
       CONF_ADSCP = 32 };
int zp_conf_address(const char *w, unsigned flags, uint8_t a[16], unsigned *bits);

/* Values taken off the stream onto s; each false once its error is told. A number (c: C's
 * forms too) at most max, what naming it in the error; whether one stands next (-1: it is out
 * of range, told); the one just taken, the last of s. */
bool zp_conf_take_number(conf_reader *r, conf_stmt *s, bool c, uint32_t max, const char *what);
int zp_conf_number_ahead(conf_reader *r, bool c);
uint32_t zp_conf_last_number(const conf_stmt *s, bool c);
/* An address of flags (0 when told; 2: an IPv4 prefix's start), address[/length], an address
 * with [port N] and (CONF_ADSCP) [dscp N] after it, query-source's forms. */
int zp_conf_take_address(conf_reader *r, conf_stmt *s, unsigned flags, uint8_t a[16],
                         unsigned *bits);
bool zp_conf_take_prefix(conf_reader *r, conf_stmt *s);
bool zp_conf_take_sockaddr(conf_reader *r, conf_stmt *s, unsigned flags);
bool zp_conf_take_querysource(conf_reader *r, conf_stmt *s, unsigned flags);
/* One token of the tables' kind c (b d D z Z % f s q w: the terms below). */
bool zp_conf_take_value(conf_reader *r, char c, conf_stmt *s);

#ifdef CONF_GRAMMAR
/* named's clause tables (BIND 9.18.49, lib/isccfg/namedconf.c, as Debian builds it: dnstap,
 * GeoIP2, nghttp2, LMDB, statistics channels; no DNSRPS), for conf_grammar.c. An entry is
 * [+!#]NAME:TERMS -- + the clause may be given more than once (CFG_CLAUSEFLAG_MULTI), ! named
 * no longer knows it (ANCIENT: refused), # not built (NOTCONFIGURED: refused); TERMS its value,
 * the terms one after another (cfg_parse_tuple), each one of
 *   b boolean    u number     i optional number   d duration   D duration or "unlimited"
 *   s string     q quoted     w word (unquoted)    z size       Z size or percentage
 *   % percentage f fixed point (fetch-quota-params)             # port number
 *   a address match element   n address   6 IPv6 address   p address[/length]
 *   S T X Y C   socket addresses: [port N] after it, dscp N too (T X Y), IPv4 or '*' (X),
 *                IPv6 or '*' (Y), '*' (C)
 *   Q R          query-source, -v6        r port or "range LOW HIGH"
 *   E N          an address [port N], else a name (E: [key K] [tls T] may follow in the table;
 *                N: [port N])
 *   t o          bracketed text, kept whole (o: optional)       c y optional class, facility
 *   k L O V P U G  server's keys; a log file; dnstap-output; a log severity; an RPZ policy;
 *                update-policy; one grant of it
 *   {T}          a list of T, each ended by ';'       Mx a block of the clauses of kind x
 *   (a|b|c)      one of the words; (a|b|=T) one of them or else T (=: or nothing)
 *   [kw:T] <kw:T>  the word kw and T ([ ] may be left out)
 *   *F[k1:T1][k2:T2]...*  F, then any of the k in any order, each once (cfg_parse_kv_tuple)
 * The kinds of block: ^ the top level, o options, v view, z zone, and those inside them. */
#define NSKL "[port:u][dscp:u]{E[key:s][tls:s]}"
#define LISTEN "*[port:u][dscp:u][tls:s][http:s]*{a}"
#define MODE "(fail|warn|ignore)"
#define SIZE "(default|unlimited|=z)"
#define ANCHORS "{s(static-key|initial-key|static-ds|initial-ds)uuuq}"
#define CATZ "*{*<zone:s>[default-masters:" NSKL "][default-primaries:" NSKL "]" \
  "[zone-directory:q][in-memory:b][min-update-interval:d]*}*"
#define RPZ "*{*<zone:s>[add-soa:b][log:b][max-policy-ttl:d][min-update-interval:d][policy:P]" \
  "[recursive-only:b][nsip-enable:b][nsdname-enable:b]*}[add-soa:b][break-dnssec:b]"        \
  "[max-policy-ttl:d][min-update-interval:d][min-ns-dots:u][nsip-wait-recurse:b]"             \
  "[nsdname-wait-recurse:b][qname-wait-recurse:b][recursive-only:b][nsip-enable:b]"           \
  "[nsdname-enable:b][dnsrps-enable:b][dnsrps-options:t]*"
enum { GRAMMAR_CLAUSES = 512 };
/* each kind of block: its letter, then its sets' (A the first of grammar_sets) */
static const char grammar_blocks[] = "^AB oCDF vEBDF zGF pH lI hJ cK sL kM eN dO tP wQ rR 6S";
static const char *const grammar_sets[CONF_GRAMMAR_SETS] = {
  /* namedconf */
  "+acl:s{a} +controls:Mc +dnssec-policy:sMp +http:sMw logging:Ml +!lwres: +masters:s" NSKL " "
  "options:Mo +parental-agents:s" NSKL " +primaries:s" NSKL " +statistics-channels:Ms +tls:sMt "
  "+view:scMv",
  /* namedconf_or_view */
  "+dlz:sMd +dyndb:sqt +key:sMk +managed-keys:" ANCHORS " +plugin:(query)so +server:pMe "
  "+trust-anchors:" ANCHORS " +trusted-keys:{suuuq} +zone:scMz",
  /* options */
  "answer-cookie:b automatic-interface-scan:b avoid-v4-udp-ports:{r} avoid-v6-udp-ports:{r} "
  "bindkeys-file:q blackhole:{a} cookie-algorithm:(aes|siphash24) +cookie-secret:s "
  "coresize:" SIZE " datasize:" SIZE " !deallocate-on-exit: directory:q dnstap-output:O "
  "dnstap-identity:(none|hostname|=q) dnstap-version:(none|=q) dscp:u dump-file:q !fake-iquery: "
  "files:" SIZE " flush-zones-on-shutdown:b fstrm-set-buffer-hint:u fstrm-set-flush-timeout:u "
  "fstrm-set-input-queue-size:u fstrm-set-output-notify-threshold:u "
  "fstrm-set-output-queue-model:(mpsc|spsc) fstrm-set-output-queue-size:u "
  "fstrm-set-reopen-interval:d geoip-directory:(none|=q) !geoip-use-ecs: !has-old-clients: "
  "heartbeat-interval:u !host-statistics: !host-statistics-max: hostname:(none|=q) "
  "interface-interval:d keep-response-order:{a} +listen-on:" LISTEN " +listen-on-v6:" LISTEN " "
  "lock-file:(none|=q) managed-keys-directory:q match-mapped-addresses:b max-rsa-exponent-size:u "
  "memstatistics:b memstatistics-file:q !multiple-cnames: !named-xfer: notify-rate:u "
  "pid-file:(none|=q) port:u tls-port:u http-port:u http-listener-clients:u "
  "http-streams-per-connection:u https-port:u querylog:b random-device:(none|=q) "
  "recursing-file:q recursive-clients:u reuseport:b reserved-sockets:u secroots-file:q "
  "!serial-queries: serial-query-rate:u server-id:(none|hostname|=q) session-keyalg:s "
  "session-keyfile:(none|=q) session-keyname:s !sit-secret: stacksize:" SIZE " "
  "startup-notify-rate:u statistics-file:q !statistics-interval: tcp-advertised-timeout:u "
  "tcp-clients:u tcp-idle-timeout:u tcp-initial-timeout:u tcp-keepalive-timeout:u "
  "tcp-listen-queue:u tcp-receive-buffer:u tcp-send-buffer:u tkey-dhkey:qu tkey-domain:q "
  "tkey-gssapi-credential:q tkey-gssapi-keytab:q transfer-message-size:u transfers-in:u "
  "transfers-out:u transfers-per-ns:u !treat-cr-as-space: udp-receive-buffer:u udp-send-buffer:u "
  "update-quota:u !use-id-pool: !use-ixfr: use-v4-udp-ports:{r} use-v6-udp-ports:{r} "
  "version:(none|=q)",
  /* view */
  "!acache-cleaning-interval: !acache-enable: !additional-from-auth: !additional-from-cache: "
  "allow-new-zones:b allow-query-cache:{a} allow-query-cache-on:{a} allow-recursion:{a} "
  "allow-recursion-on:{a} !allow-v6-synthesis: attach-cache:s auth-nxdomain:b !cache-file: "
  "catalog-zones:" CATZ " "
  "+check-names:(primary|master|secondary|slave|response)" MODE " !cleaning-interval: "
  "clients-per-query:u deny-answer-addresses:{a}[except-from:{s}] "
  "deny-answer-aliases:{s}[except-from:{s}] +disable-algorithms:s{s} +disable-ds-digests:s{s} "
  "+disable-empty-zone:s +dns64:pM6 dns64-contact:s dns64-server:s #dnsrps-enable:b "
  "#dnsrps-options:t dnssec-accept-expired:b !dnssec-enable: +!dnssec-lookaside: "
  "+dnssec-must-be-secure:sb dnssec-validation:(auto|=b) "
  "dnstap:{(all|auth|client|forwarder|resolver|update)(query|response|=)} "
  "dual-stack-servers:[port:u]{N} edns-udp-size:u empty-contact:s empty-server:s "
  "empty-zones-enable:b !fetch-glue: fetch-quota-params:ufff fetches-per-server:u(drop|fail|=) "
  "fetches-per-zone:u(drop|fail|=) !filter-aaaa: !filter-aaaa-on-v4: !filter-aaaa-on-v6: "
  "glue-cache:b ipv4only-enable:b ipv4only-contact:s ipv4only-server:s "
  "ixfr-from-differences:(primary|master|secondary|slave|=b) lame-ttl:d lmdb-mapsize:z "
  "!max-acache-size: max-cache-size:(default|unlimited|=Z) max-cache-ttl:d "
  "max-clients-per-query:u max-ncache-ttl:d max-recursion-depth:u max-recursion-queries:u "
  "max-query-count:u max-query-restarts:u max-stale-ttl:d max-udp-size:u message-compression:b "
  "min-cache-ttl:d min-ncache-ttl:d !min-roots: minimal-any:b "
  "minimal-responses:(no-auth|no-auth-recursive|=b) new-zones-directory:q no-case-compress:{a} "
  "nocookie-udp-size:u !nosit-udp-size: nta-lifetime:d nta-recheck:d nxdomain-redirect:s "
  "preferred-glue:s prefetch:ui provide-ixfr:b qname-minimization:(strict|relaxed|disabled|off) "
  "query-source:Q query-source-v6:R !queryport-pool-ports: !queryport-pool-updateinterval: "
  "rate-limit:Mr recursion:b request-nsid:b !request-sit: require-server-cookie:b "
  "resolver-nonbackoff-tries:u resolver-query-timeout:u resolver-retry-interval:u "
  "response-padding:{a}<block-size:u> "
  "response-policy:" RPZ " "
  "!rfc2308-type1: root-delegation-only:[exclude:{s}] root-key-sentinel:b "
  "rrset-order:{[class:w][type:w][name:q]ww} send-cookie:b servfail-ttl:d sortlist:{a} "
  "stale-answer-enable:b stale-answer-client-timeout:(disabled|off|=u) stale-answer-ttl:d "
  "stale-cache-enable:b stale-refresh-time:d suppress-initial-notify:b synth-from-dnssec:b "
  "!topology: transfer-format:(many-answers|one-answer) trust-anchor-telemetry:b "
  "!use-queryport-pool: validate-except:{s} v6-bias:u zero-no-soa-ttl-cache:b",
  /* view_only */
  "match-clients:{a} match-destinations:{a} match-recursive-only:b",
  /* zone */
  "allow-notify:{a} allow-query:{a} allow-query-on:{a} allow-transfer:*[port:u][transport:s]*{a} "
  "allow-update:{a} allow-update-forwarding:{a} also-notify:" NSKL " alt-transfer-source:X "
  "alt-transfer-source-v6:Y auto-dnssec:(allow|maintain|off) check-dup-records:" MODE " "
  "check-integrity:b check-mx:" MODE " check-mx-cname:" MODE " check-sibling:b "
  "check-spf:(warn|ignore) check-srv-cname:" MODE " check-wildcard:b "
  "dialup:(notify|notify-passive|passive|refresh|=b) dnssec-dnskey-kskonly:b "
  "dnssec-loadkeys-interval:u dnssec-policy:s dnssec-secure-to-insecure:b "
  "dnssec-update-mode:(maintain|no-resign) forward:(first|only) forwarders:[port:u][dscp:u]{T} "
  "key-directory:q !maintain-ixfr-base: masterfile-format:(raw|text) "
  "masterfile-style:(full|relative) !max-ixfr-log-size: max-ixfr-ratio:(unlimited|=%) "
  "max-journal-size:" SIZE " max-records:u max-records-per-type:u max-types-per-name:u "
  "max-refresh-time:u max-retry-time:u max-transfer-idle-in:u max-transfer-idle-out:u "
  "max-transfer-time-in:u max-transfer-time-out:u max-zone-ttl:(unlimited|=d) min-refresh-time:u "
  "min-retry-time:u multi-master:b notify:(explicit|master-only|primary-only|=b) notify-delay:u "
  "notify-source:X notify-source-v6:Y notify-to-soa:b nsec3-test-zone:b parental-source:X "
  "parental-source-v6:Y request-expire:b request-ixfr:b "
  "serial-update-method:(date|increment|unixtime) sig-signing-nodes:u sig-signing-signatures:u "
  "sig-signing-type:u sig-validity-interval:ui dnskey-sig-validity:u transfer-source:X "
  "transfer-source-v6:Y try-tcp-refresh:b update-check-ksk:b use-alt-transfer-source:b "
  "zero-no-soa-ttl:b zone-statistics:(full|terse|none|=b)",
  /* zone_only */
  "type:(primary|master|secondary|slave|mirror|delegation-only|forward|hint|redirect|"
  "static-stub|stub) "
  "check-names:" MODE " database:s delegation-only:b dlz:s file:q in-view:s inline-signing:b "
  "!ixfr-base: ixfr-from-differences:b !ixfr-tmp-file: journal:q masters:" NSKL " "
  "parental-agents:" NSKL " primaries:" NSKL " !pubkey: server-addresses:{n} server-names:{s} "
  "update-policy:U",
  /* dnssecpolicy */
  "dnskey-ttl:d keys:{(csk|ksk|zsk)(key-directory|=)<lifetime:D><algorithm:w>i} max-zone-ttl:d "
  "nsec3param:[iterations:u][optout:b][salt-length:u] parent-ds-ttl:d parent-propagation-delay:d "
  "parent-registration-delay:d publish-safety:d purge-keys:d retire-safety:d signatures-jitter:d "
  "signatures-refresh:d signatures-validity:d signatures-validity-dnskey:d "
  "zone-propagation-delay:d",
  /* logging */
  "+channel:sMh +category:s{s}",
  /* channel */
  "file:L syslog:y null: stderr: severity:V print-time:(iso8601|iso8601-utc|local|=b) "
  "print-severity:b print-category:b buffered:b",
  /* controls */
  "+inet:C<allow:{a}>[keys:{s}][read-only:b] "
  "+unix:q<perm:u><owner:u><group:u>[keys:{s}][read-only:b]",
  /* statservers */
  "+inet:C[allow:{a}]",
  /* key */
  "algorithm:s secret:s",
  /* server */
  "bogus:b edns:b edns-udp-size:u edns-version:u keys:k max-udp-size:u notify-source:X "
  "notify-source-v6:Y padding:u provide-ixfr:b query-source:Q query-source-v6:R request-expire:b "
  "request-ixfr:b request-nsid:b !request-sit: send-cookie:b !support-ixfr: tcp-keepalive:b "
  "tcp-only:b transfer-format:(many-answers|one-answer) transfer-source:X transfer-source-v6:Y "
  "transfers:u",
  /* dlz */
  "database:s search:b",
  /* tls */
  "key-file:q cert-file:q ca-file:q remote-hostname:q dhparam-file:q protocols:{s} ciphers:s "
  "prefer-server-ciphers:b session-tickets:b",
  /* http_description */
  "endpoints:{q} listener-clients:u streams-per-connection:u",
  /* rrl */
  "all-per-second:u errors-per-second:u exempt-clients:{a} ipv4-prefix-length:u "
  "ipv6-prefix-length:u log-only:b max-table-size:u min-table-size:u nodata-per-second:u "
  "nxdomains-per-second:u qps-scale:u referrals-per-second:u responses-per-second:u slip:u "
  "window:u",
  /* dns64 */
  "break-dnssec:b clients:{a} exclude:{a} mapped:{a} recursive-only:b suffix:6"
};
#undef NSKL
#undef LISTEN
#undef MODE
#undef SIZE
#undef ANCHORS
#undef CATZ
#undef RPZ
#endif

#endif
