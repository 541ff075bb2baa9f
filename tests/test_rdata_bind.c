/* test_rdata_bind.c -- RDATA of the types whose text BIND 9.18 reads and ldns 1.8, NSD 4.6 and
 * Knot 3.2 do not (NINFO, RKEY, DSYNC, HHIT, BRID, AVC, DOA, RESINFO, WALLET, TA) or read
 * otherwise (A6, SINK): text and RFC 3597 form to wire, octets derived by hand from the RFCs and
 * drafts, and the inputs refused as named refuses them (tests/output/check_rdata_peers.py and
 * tests/syntax/check_bind_text.py hold the same to BIND at random) */
#include <criterion/criterion.h>

#include "rdata_parse.h"

typedef struct good {
  const char *type, *rdata, *hex;
} good;

/* "example." is the origin; names of A6 are lowercased (RFC 4034 section 6.2 lists A6), of
 * DSYNC kept. */
static const good goods[] = {
  /* RFC 2874 section 3.1.1: the prefix length, the 128 - length bits of the address after it in
   * whole octets, the prefix name but at length 0. Section 5.1.1's records: "0 2345:00C1:CA11:
   * 1:1:11:111:1111" is 0x00 and all 16 octets; "64 ::1:11:111:1111 SUBNET-1.IP6.X" is 0x40,
   * octets 8 to 15 (0001 0011 0111 1111), subnet-1.ip6.x.example.; "48 0::0 SUBSCRIBER-X.IP6.A.
   * NET." is 0x30, ten zero octets, the name */
  {"A6", "0 2345:00C1:CA11:1:1:11:111:1111", "00 234500c1ca11000100010011 01111111"},
  {"A6", "64 ::1:11:111:1111 SUBNET-1.IP6.X",
   "40 0001001101111111 087375626e65742d31 03697036 0178 076578616d706c6500"},
  {"A6", "48 0::0 SUBSCRIBER-X.IP6.A.NET.",
   "30 00000000000000000000 0c737562736372696265722d78 03697036 0161 036e657400"},
  /* at 128 no address (section 3.1.1), as BIND writes it: "128  pref." */
  {"A6", "128 pref", "80 0470726566 076578616d706c6500"},
  /* the prefix's bits are not significant (section 3.1.3) and the pad bits are set to zero
   * (section 3.1.1): at 9, octet 0 of ff81::1 is dropped and octet 1 (0x81) masked to 0x01;
   * thirteen zero octets and 0x01 follow */
  {"A6", "9 ff81::1 a.", "09 01 00000000000000000000000000 01 016100"},
  /* in RFC 3597 form: checked, the name through the policy */
  {"TYPE38", "\\# 23 40 0000000000000001 0450524546 076578616d706c6500",
   "40 0000000000000001 0470726566 076578616d706c6500"},
  /* draft-eastlake-kitchen-sink: meaning, coding, subcoding, data in base64 ("AMw=" is 00 cc),
   * which may be absent, as BIND writes it when empty */
  {"SINK", "1 2 3 AMw=", "010203 00cc"},
  {"SINK", "1 2 3 AM w=", "010203 00cc"},
  {"SINK", "255 0 0", "ff0000"},
  /* NINFO, AVC, RESINFO, WALLET: character-strings as TXT's (RFC 1035 section 3.3.14); AVC's
   * from its IANA template, RESINFO's from RFC 9606's example */
  {"NINFO", "\"a b\" c", "03612062 0163"},
  {"AVC", "\"app-name:WOLFGANG|app-class:OAM\"",
   "1f 6170702d6e616d653a574f4c4647414e477c6170702d636c6173733a4f414d"},
  {"RESINFO", "qnamemin exterr=15,16,17 infourl=https://resolver.example.com/guide",
   "08716e616d656d696e 0f6578746572723d31352c31362c3137 2a696e666f75726c3d68747470733a2f2f72"
   "65736f6c7665722e6578616d706c652e636f6d2f6775696465"},
  {"WALLET", "\"ens\" \"0x1234\"", "03656e73 06307831323334"},
  /* draft-reid-dnsext-rkey: DNSKEY's fields (RFC 4034 section 2.2), the flags 0; "AwEAAQ==" is
   * 03 01 00 01; a PRIVATEDNS (253) key that begins with a name (RFC 4034 appendix A.1.1) */
  {"RKEY", "0 3 8 AwEAAQ==", "0000 03 08 03010001"},
  {"RKEY", "0 3 RSASHA256 AwEA AQ==", "0000 03 08 03010001"},
  {"RKEY", "0 3 PRIVATEDNS AWEA", "0000 03 fd 016100"},
  /* draft-ietf-dnsop-generalized-notify: RRtype (CDS is 59, 0x003b), scheme (NOTIFY is 1), port
   * (5359 is 0x14ef), target; the type by number too, and other schemes as numbers */
  {"DSYNC", "CDS NOTIFY 5359 cds-scanner.example.net.",
   "003b 01 14ef 0b6364732d7363616e6e6572 076578616d706c65 036e657400"},
  {"DSYNC", "59 1 5359 Target.Example.", "003b 01 14ef 06546172676574 074578616d706c6500"},
  {"DSYNC", "TYPE0 0 0 .", "0000 00 0000 00"},
  {"DSYNC", "ANY 255 65535 a", "00ff ff ffff 0161 076578616d706c6500"},
  {"DSYNC", "\\# 8 0001 01 0035 0141 00", "0001010035014100"},
  /* HHIT and BRID: octets in base64 ("AQIDBA==" is 01 02 03 04), in pieces if need be */
  {"HHIT", "AQIDBA==", "01020304"},
  {"BRID", "AQ IDBA==", "01020304"},
  {"HHIT", "\\# 1 00", "00"},
  /* draft-durand-doa-over-dns: enterprise, type (32 bits each), location, media type (a
   * character-string), data in base64 ("R0lGODlh" is "GIF89a"), "-" for none */
  {"DOA", "0 1 2 \"image/gif\" R0lGODlh",
   "00000000 00000001 02 09696d6167652f676966 474946383961"},
  {"DOA", "4294967295 0 255 \"\" -", "ffffffff 00000000 ff 00"},
  {"DOA", "\\# 12 00000001 00000002 03 01 61 ff", "000000010000000203016 1ff"},
  /* TA: DS's fields (RFC 4034 section 5.1), RFC 4034 section 5.4's DS (60485 is 0xec45) */
  {"TA", "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118",
   "ec4505012bb183af5f22588179a53b0a98631fad1a292118"},
  {"TA", "1 8 5 00 11", "0001 08 05 0011"},
  /* UINFO, UID, GID, UNSPEC: RFC 3597 form only, not checked, as BIND */
  {"UID", "\\# 0", ""},
  {"UNSPEC", "\\# 3 414243", "414243"},
};

Test(rdata_bind, hand_derived_wire)
{
  for (size_t i = 0; i < sizeof goods / sizeof *goods; i++) {
    char got[4096], want[4096];
    squeeze(goods[i].hex, want);
    bool ok = parse(goods[i].type, goods[i].rdata, got, sizeof got);
    cr_expect(ok, "%s %s: %s", goods[i].type, goods[i].rdata, got);
    if (ok)
      cr_expect_str_eq(got, want, "%s %s:\ngot  %s\nwant %s", goods[i].type, goods[i].rdata, got,
                       want);
  }
}

typedef struct bad {
  const char *type, *rdata, *error;   /* "COL: message"; columns count from 21 */
} bad;

/* What named-rrchecker and named-compilezone refuse (each checked with them), and what zonepuny
 * refuses on purpose where named takes it (marked). */
static const bad bads[] = {
  /* A6: a length over 128; a name at 0 or an address at 128, which RFC 2874 section 3.1.1 says
   * are not present; the address is IPv6 */
  {"A6", "129 ::1 a.", "21: \"129\" is not a prefix length from 0 to 128 (RFC 2874 section "
   "3.1.1)"},
  {"A6", "0 ::1 a.", "27: unexpected \"a.\" after the last A6 RDATA field"},
  {"A6", "128 :: a.", "28: unexpected \"a.\" after the last A6 RDATA field"},
  {"A6", "64 192.0.2.1 a.", "24: invalid IPv6 address in A6 RDATA: \"192.0.2.1\""},
  {"A6", "64 ::1", "1: A6 RDATA needs at least 3 fields, found 2"},
  {"TYPE38", "\\# 1 00", "21: generic RDATA is not valid A6 RDATA"},
  {"TYPE38", "\\# 17 04 f0010db8000000000000000000000001", "21: generic RDATA is not valid A6 "
   "RDATA"},
  /* SINK: "-" is no base64 (DOA's "-" is not SINK's) */
  {"SINK", "1 2 3 -", "27: invalid base64 character '-' in SINK RDATA"},
  {"SINK", "1 2", "1: SINK RDATA needs at least 3 fields, found 2"},
  /* the TXT-like types: at least one string */
  {"WALLET", "", "1: WALLET RDATA needs at least 1 field, found 0"},
  {"WALLET", "\\# 0", "21: generic RDATA is not valid WALLET RDATA"},
  /* RKEY: flags 0 only; a PRIVATEDNS key without its name ("AwEAAQ==" is a label of 3 octets
   * that runs past the key): named reads that text, but refuses the record in RFC 3597 form,
   * the form RKEY is written in (on purpose) */
  {"RKEY", "1 3 8 AwEAAQ==", "21: RKEY flags 1 are not 0: no RKEY flag is defined, and BIND "
   "refuses any"},
  {"RKEY", "\\# 5 0100030801", "26: RKEY flags 256 are not 0: no RKEY flag is defined, and BIND "
   "refuses any"},
  {"RKEY", "0 3 253 AwEAAQ==", "29: RKEY key of algorithm 253 (PRIVATEDNS) without the "
   "uncompressed domain name it begins with (RFC 4034 appendix A.1.1); BIND refuses it"},
  /* DSYNC: NOTIFY is the one scheme mnemonic; a type beyond 65535; a sign, which named's strtol
   * lets through (on purpose: named writes none); a compressed target */
  {"DSYNC", "CDS SCHEME1 5359 a.", "25: \"SCHEME1\" is not a DSYNC scheme: a number from 0 to "
   "255 or NOTIFY"},
  {"DSYNC", "CDS 256 5359 a.", "25: \"256\" is not a DSYNC scheme: a number from 0 to 255 or "
   "NOTIFY"},
  {"DSYNC", "65536 NOTIFY 1 a.", "21: \"65536\" is not a type: a mnemonic, TYPEnnn or a number "
   "from 0 to 65535"},
  {"DSYNC", "+59 NOTIFY 1 a.", "21: \"+59\" is not a type: a mnemonic, TYPEnnn or a number from "
   "0 to 65535"},
  {"DSYNC", "CDS NOTIFY 5359 \"a.\"", "37: \"a.\" is quoted, but this DSYNC RDATA field is not a "
   "character-string"},
  {"DSYNC", "\\# 7 0001 00 0035 c00c", "21: generic RDATA is not valid DSYNC RDATA"},
  /* HHIT, BRID: at least one octet */
  {"HHIT", "-", "21: invalid base64 character '-' in HHIT RDATA"},
  {"HHIT", "\\# 0", "21: generic RDATA is not valid HHIT RDATA: its last field is empty, which "
   "its text form cannot be"},
  /* DOA: the data is required ("-" for none), "-" quoted is not it, and nothing follows "-" */
  {"DOA", "0 1 2 \"\"", "1: DOA RDATA needs at least 5 fields, found 4"},
  {"DOA", "0 1 2 \"\" \"-\"", "30: \"-\" is quoted, but this DOA RDATA field is not a "
   "character-string"},
  {"DOA", "0 1 2 \"\" - AA==", "32: unexpected \"AA==\" after the last DOA RDATA field"},
  {"DOA", "0 1 256 \"\" -", "25: \"256\" is not a number from 0 to 255"},
  {"DOA", "\\# 10 00000000 00000000 00 01", "21: generic RDATA is not valid DOA RDATA"},
  /* TA: DS's digest lengths (SHA-1 20 octets), as BIND; GOST's (32) on purpose, as for DS */
  {"TA", "1 8 1 00", "27: TA digest of 1 octets, but SHA-1 digests have 20"},
  {"TA", "1 8 3 00", "27: TA digest of 1 octets, but GOST R 34.11-94 digests have 32"},
  {"TA", "\\# 25 00010801 0102030405060708090a0b0c0d0e0f101112131415", "27: TA digest of 21 "
   "octets, but SHA-1 digests have 20"},
};

Test(rdata_bind, bad_fields_are_refused_at_their_place)
{
  for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
    char got[2048];
    cr_expect_not(parse(bads[i].type, bads[i].rdata, got, sizeof got), "%s %s: took it as %s",
                  bads[i].type, bads[i].rdata, got);
    cr_expect_str_eq(got, bads[i].error, "%s %s", bads[i].type, bads[i].rdata);
  }
}
