/* test_rdata.c -- RDATA text to wire, kind by kind: the RFCs' own examples and hand-derived
 * octets, and the inputs each kind must refuse */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ldns/ldns.h>

#include "canonical.h"
#include "record/rrtype.h"
#include "rdata_parse.h"
#include "xorshift.h"

typedef struct good {
  const char *type, *rdata, *hex;
} good;

/* Expected octets: from the RFC named, or derived by hand beside the row; base64, base32hex and
 * the seconds of a date were decoded with Python (base64, calendar.timegm). "example." is the
 * origin. */
static const good goods[] = {
  /* RFC 1035 3.4.1 */
  {"A", "192.0.2.1", "c0000201"},
  /* RFC 3596 2.2 */
  {"AAAA", "2001:db8::1", "20010db8000000000000000000000001"},
  {"NS", "NS1.Example.", "036e7331076578616d706c6500"},
  /* RFC 1706 section 6: NSAP-PTR holds a domain name (ldns reads a character-string; BIND agrees
   * with the RFC), not on RFC 4034's list, so its case is kept */
  {"NSAP-PTR", "Host.Example.", "04486f7374074578616d706c6500"},
  {"CNAME", "www", "03777777076578616d706c6500"},
  {"MX", "10 mail", "000a046d61696c076578616d706c6500"},
  /* SOA: serial 2024010101 = 0x78a3f175; timers with units: 1h, 15m, 1w, 1d */
  {"SOA", "ns hm 2024010101 1h 15m 1w 1d",
   "026e73076578616d706c650002686d076578616d706c650078a3f17500000e1000000384"
   "00093a8000015180"},
  {"SOA", "ns. hm. 4294967295 0 0 0 4294967295", "026e73000268 6d00ffffffff000000000000000000000000ffffffff"},
  /* RFC 1035 3.3.14: each string a length octet; \DDD and \X escapes resolved */
  {"TXT", "\"a b\" c \"\" \\065\\\"", "036120620163000241 22"},
  /* TXT "\\#" before anything but a length is the text "#" (0x23), as named-checkzone reads
   * it; before a number up to 2^32 - 1 it is RFC 3597 RDATA (below) */
  {"TXT", "\\#", "0123"},
  {"TXT", "\\# abc", "0123 03616263"},
  {"TXT", "\\# \"2\" 0141", "0123 0132 0430313431"},
  {"TXT", "\\# -1", "0123 022d31"},
  {"TXT", "\\# 4294967296 x", "0123 0a34323934393637323936 0178"},
  {"TXT", "\\# 02 0141", "0141"},
  {"HINFO", "PC Linux", "0250430 54c696e7578"},
  {"ISDN", "150862028003217", "0f313530383632303238303033323137"},
  {"ISDN", "150862028003217 004", "0f3135303836323032383030333231370330 3034"},
  /* an empty subaddress is none, as BIND and dnspython read it */
  {"ISDN", "x \"\"", "0178"},
  /* RFC 4034 2.3 example DNSKEY */
  {"DNSKEY", "256 3 5 AQPSKmynfzW4kyBv015MUG2DeIQ3Cbl+BBZH4b/0PY1kxkmvHjcZc8nokfzj31GajIQKY+5CptLr3buXA10h WqTkF7H6RfoRqXQeogmMHfpftf6zMv1LyBUgia7za6ZEzOJBOztyvhjL742iU/TpPSEDhm2SNKLijfUppn1U aNvv4w==",
   "01000305" "0103d22a6ca77f35b893206fd35e4c506d8378843709b97e041647e1bff43d8d64c649af1e371973c9e8"
   "91fce3df519a8c840a63ee42a6d2ebddbb97035d215aa4e417b1fa45fa11a9741ea2098c1dfa5fb5feb332fd4b"
   "c8152089aef36ba644cce2413b3b72be18cbef8da253f4e93d2103866d9234a2e28df529a67d5468dbefe3"},
  /* the algorithm by mnemonic (RFC 8624 / IANA): RSASHA256 is 8 */
  {"DNSKEY", "257 3 RSASHA256 AwEAAQ==", "0101030803010001"},
  /* RFC 4034 appendix A.1.1: a PRIVATEDNS (253) key begins with an uncompressed name, here
   * "AWEA", 01 61 00, the name a.; a KEY with no key (flags 0xC000) has none to begin with */
  {"DNSKEY", "256 3 PRIVATEDNS AWEA", "01000 3fd 016100"},
  {"CDNSKEY", "\\# 7 010003fd016100", "010003fd016100"},
  {"KEY", "49152 3 253", "c00003fd"},
  /* RFC 4034 3.3 example RRSIG: 20030322173103 is 1048354263 s, 20030220173103 1045762263 s */
  {"RRSIG", "A 5 3 86400 20030322173103 20030220173103 2642 example.com. oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTr PYGv07h108dUKGMeDPKijVCHX3DDKdfb+v6o B9wfuh3DTJXUAfI/M0zmO/zz8bW0Rznl8O3t GNazPwQKkRN20XPXV6nwwfoXmJQbsLNrLfkG J5D6fwFm8nN+6pBzeDQfsS3Ap3o=",
   "0001050300015180" "3e7c9dd7" "3e5510d7" "0a52" "076578616d706c6503636f6d00"
   "a090755ba58d1affa576f4375831b4310920e481218d18a9f164eb3d81afd3b875d3c75428631e0cf2a28d50"
   "875f70c329d7dbfafea807dc1fba1dc34c95d401f23f334ce63bfcf3f1b5b44739e5f0eded18d6b33f040a91"
   "1376d173d757a9f0c1fa1798941bb0b36b2df9062790fa7f0166f2737eea907378341fb12dc0a77a"},
  /* a time as seconds, and the last second 2^32 - 1 (21060207062815) */
  {"RRSIG", "TYPE1234 8 0 0 4294967295 21060207062815 1 . AA==",
   "04d2080000000000ffffffffffffffff000100" "00"},
  /* a leap day */
  {"RRSIG", "A 8 0 0 20240229000000 0 1 . AA==", "0001080000000000" "65dfc900" "00000000000100" "00"},
  /* RFC 4034 4.3 example NSEC, octets as the RFC gives them */
  {"NSEC", "host.example.com. A MX RRSIG NSEC TYPE1234",
   "04686f7374076578616d706c6503636f6d00" "0006400100000003"
   "041b" "0000000000000000000000000000000000000000000000000000" "20"},   /* 26 zero octets */
  /* NSEC keeps the next name's case (RFC 6840 5.1) */
  {"NSEC", "Next.Example. A", "044e657874074578616d706c6500" "000140"},
  /* RFC 4034 5.4 example DS: 60485 is 0xec45 */
  {"DS", "60485 5 1 2BB183AF5F22588179A53B0A98631FAD1A292118",
   "ec4505012bb183af5f22588179a53b0a98631fad1a292118"},
  /* hex may be split by blanks, even inside an octet; digest type 255 has no fixed length */
  {"DS", "1 8 255 2BB1 83A F", "000108ff" "2bb183af"},
  /* RFC 5155 appendix A: NSEC3 of the example zone; the hash decoded from base32hex */
  {"NSEC3", "1 1 12 aabbccdd 2t7b4g4vsa5smi47k61mv5bv1a22bojr MX DNSKEY NS SOA NSEC3PARAM RRSIG",
   "0101000c04aabbccdd14174eb2409fe28bcb4887a1836f957f0a8425e27b" "000722010000000290"},
  {"NSEC3PARAM", "1 0 12 aabbccdd", "0100000c04aabbccdd"},
  {"NSEC3PARAM", "1 0 0 -", "0100000000"},
  /* RFC 4255 3.3 */
  {"SSHFP", "2 1 123456789abcdef67890123456789abcdef67890",
   "0201123456789abcdef67890123456789abcdef67890"},
  /* RFC 6698 2.3, the hex in two pieces */
  {"TLSA", "0 0 1 d2abde240d7cd3ee6b4b28c54df034b9 7983a1d16e8a410e4561cb106618e971",
   "000001d2abde240d7cd3ee6b4b28c54df034b97983a1d16e8a410e4561cb106618e971"},
  /* RFC 8659 4.1 */
  {"CAA", "0 issue \"ca.example.net\"", "0005697373756563612e6578616d706c652e6e6574"},
  {"CAA", "128 tbs \"\"", "8003746273"},
  /* RFC 7553 4.4 */
  {"URI", "10 1 \"ftp://ftp1.example.com/public\"",
   "000a0001667470 3a2f2f667470312e6578616d706c652e636f6d2f7075626c6963"},
  /* RFC 7043 3.2 and 4.2 */
  {"EUI48", "00-00-5e-00-53-2a", "00005e00532a"},
  {"EUI64", "00-00-5e-ef-10-00-00-2a", "00005eef1000002a"},
  /* RFC 6742 2.1-2.4 */
  {"NID", "10 0014:4fff:ff20:ee64", "000a00144fffff20ee64"},
  {"L64", "10 2001:0DB8:1140:1000", "000a20010db811401000"},
  {"L32", "10 10.1.02.0", NULL},   /* inet_pton: no leading zero (see bads) */
  {"L32", "10 10.1.2.0", "000a0a010200"},
  {"LP", "10 L64-Subnet1.Example.", "000a0b4c36342d5375626e657431074578616d706c6500"},
  /* RFC 7477 2.1: SOA serial, flags, then a bitmap */
  {"CSYNC", "66 3 A NS AAAA", "00000042000300 04 6000 0008"},
  {"CSYNC", "66 3", "000000420003"},
  /* RFC 3123 section 7's example; trailing zero octets of an address are left out (section 4) */
  {"APL", "1:192.168.32.0/21 !1:192.168.38.0/28", "00011503c0a820" "00011c83c0a826"},
  {"APL", "2:2001:db8::/32 1:0.0.0.0/0", "0002200420010db8" "00010000"},
  {"APL", "1:192.0.2.255/24", "00011804c00002ff"},   /* host bits kept, as BIND */
  {"APL", "", ""},                                     /* no prefixes at all (section 4) */
  /* RFC 1876: the octets as dnspython writes them (its LOC reader, an independent oracle); a
   * size of 1.5 m is stored as 1 m (a digit and a power of ten), as BIND and dnspython do */
  {"LOC", "52 N 4 E 10", "001216138b28720080dbba0000989a68"},
  {"LOC", "52 22 23.5 N 4 53 32 E 1.5m 1.5m", "001216138b3cf20c810cbce000989716"},
  {"LOC", "52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m",
   "000016138b3cf018810cbce0009895b8"},
  /* RFC 1876 section 2 in RFC 3597 form: 0 and 9e9 cm are sizes (named takes both) */
  {"LOC", "\\# 16 00 00 99 90 8b3cf20c 810cbce0 00989716", "00009990 8b3cf20c810cbce000989716"},
  /* RFC 4025 section 3.3's examples, the key in two pieces for one; octets as dnspython writes
   * them; the gateway name keeps its case (not on RFC 4034's list) */
  {"IPSECKEY", "10 1 2 192.0.2.38 AQNRU3mG7TVTO2BkR47usntb102uFJtugbo6BSGvgqt4AQ==",
   "0a0102c0000226010351537986ed35533b6064478eeeb27b5bd74dae149b6e81ba3a0521af82ab7801"},
  {"IPSECKEY", "10 3 2 GW.Example. AQNRU3mG7TVTO2Bk R47usntb102uFJtugbo6BSGvgqt4AQ==",
   "0a0302024757074578616d706c6500010351537986ed35533b6064478eeeb27b5bd74dae149b6e81ba3a0521af8"
   "2ab7801"},
  {"IPSECKEY", "10 2 1 2001:db8::1 AQNRU3mG", "0a020120010db8000000000000000000000001010351537986"},
  {"IPSECKEY", "10 0 2 . AQNRU3mG", "0a0002010351537986"},
  /* RFC 4398 2.1: PKIX is 1, and the algorithm by mnemonic */
  {"CERT", "PKIX 1 RSASHA256 AAAA", "0001000108000000"},
  {"CERT", "65535 0 0 AQ==", "ffff000000" "01"},
  /* RFC 9460 appendix D.1 and D.2: the octets the RFC gives for each record */
  {"HTTPS", "0 foo.example.com.", "0000" "03666f6f076578616d706c6503636f6d00"},
  {"SVCB", "1 .", "000100"},
  {"SVCB", "16 foo.example.com. port=53", "0010" "03666f6f076578616d706c6503636f6d00" "0003 0002 0035"},
  {"SVCB", "1 foo.example.com. key667=hello", "0001" "03666f6f076578616d706c6503636f6d00" "029b 0005 68656c6c6f"},
  {"SVCB", "1 foo.example.com. key667=\"hello\\210qoo\"", "0001" "03666f6f076578616d706c6503636f6d00" "029b 0009 68656c6c6f d2 716f6f"},
  {"SVCB", "1 foo.example.com. ipv6hint=\"2001:db8::1,2001:db8::53:1\"", "0001" "03666f6f076578616d706c6503636f6d00"
   "0006 0020 20010db8000000000000000000000001 20010db8000000000000000000530001"},
  {"SVCB", "1 example.com. ipv6hint=\"2001:db8::198.51.100.100\"",
   "0001 076578616d706c6503636f6d00 0006 0010 20010db8000000000000000 0c6336464"},
  {"SVCB", "16 foo.example.org. alpn=h2,h3-19 mandatory=ipv4hint,alpn ipv4hint=192.0.2.1",
   "0010" "03666f6f076578616d706c65036f726700" "0000 0004 0001 0004  0001 0009 02 6832 05 68332d3139  0004 0004 c0000201"},
  {"SVCB", "16 foo.example.org. alpn=\"f\\\\\\\\oo\\\\,bar,h2\"", "0010" "03666f6f076578616d706c65036f726700"
   "0001 000c 08 665c6f6f2c626172 02 6832"},
  {"SVCB", "16 foo.example.org. alpn=f\\\\\\092oo\\092,bar,h2", "0010" "03666f6f076578616d706c65036f726700"
   "0001 000c 08 665c6f6f2c626172 02 6832"},
  /* hand-derived: keyNNNNN of a known key is that key's octets ("53" is 0x3533), as BIND and
   * dnspython read it; "" is no value; keys go out in increasing order */
  {"SVCB", "1 . key3=53", "000100 0003 0002 3533"},
  {"SVCB", "1 . key1000=\"\" port=1", "000100 0003 0002 0001 03e8 0000"},
  {"SVCB", "1 . no-default-alpn=\"\" alpn=h2", "000100 0001 0003 026832 0002 0000"},
  {"SVCB", "1 . dohpath=/q{?dns}", "000100 0007 0008 2f717b3f646e737d"},
  {"SVCB", "1 . ohttp", "000100 0008 0000"},
  {"SVCB", "1 . ech=AAAA", "000100 0005 0003 000000"},
  {"SVCB", "\\# 17 000100 0003 0002 0035 0004 0004 c0000201", "000100 0003 0002 0035 0004 0004 c0000201"},
  /* The keys registered after RFC 9540 (IANA "DNS SVCB Service Parameter Keys"), each by its
   * name and as keyNNNNN. RFC 9953 section 3's examples of docpath (10), octets as the RFC
   * gives them: the root path (no segment), "/dns", "/n/s", and beside dohpath */
  {"SVCB", "1 dns.example.org. alpn=co docpath",
   "0001 03646e73076578616d706c65036f726700 0001 0003 02636f 000a 0000"},
  {"SVCB", "1 dns.example.org. alpn=co key10",
   "0001 03646e73076578616d706c65036f726700 0001 0003 02636f 000a 0000"},
  {"SVCB", "1 dns.example.org. alpn=co docpath=dns",
   "0001 03646e73076578616d706c65036f726700 0001 0003 02636f 000a 0004 03646e73"},
  {"SVCB", "1 dns.example.org. alpn=co key10=\"\\003dns\"",
   "0001 03646e73076578616d706c65036f726700 0001 0003 02636f 000a 0004 03646e73"},
  {"SVCB", "1 dns.example.org. alpn=co docpath=n,s",
   "0001 03646e73076578616d706c65036f726700 0001 0003 02636f 000a 0004 016e0173"},
  {"SVCB", "1 dns.example.org. alpn=co key10=\\001n\\001s",
   "0001 03646e73076578616d706c65036f726700 0001 0003 02636f 000a 0004 016e0173"},
  {"SVCB", "1 dns.example.org. alpn=h3,co dohpath=/{?dns} docpath",
   "0001 03646e73076578616d706c65036f726700 0001 0006 026833 02636f 0007 0007 2f7b3f646e737d "
   "000a 0000"},
  /* hand-derived: docpath's segments escape ',' and '\' as alpn's ids (RFC 9953 section 3):
   * "a,b" is 03 612c62; "" is the root path too */
  {"SVCB", "1 . docpath=\"a\\\\,b,c\"", "000100 000a 0006 03612c62 0163"},
  {"SVCB", "1 . docpath=\"\"", "000100 000a 0000"},
  /* draft-ietf-tls-key-share-prediction section 3.1's example of tls-supported-groups (9):
   * x25519 (29) and secp256r1 (23) are 001d0017; 8004 is 0x1f44. The order is the server's
   * preference, kept */
  {"SVCB", "3 server.example.net. port=\"8004\" tls-supported-groups=29,23",
   "0003 06736572766572076578616d706c65036e657400 0003 0002 1f44 0009 0004 001d0017"},
  {"SVCB", "3 server.example.net. port=\"8004\" key9=\"\\000\\029\\000\\023\"",
   "0003 06736572766572076578616d706c65036e657400 0003 0002 1f44 0009 0004 001d0017"},
  {"SVCB", "1 . tls-supported-groups=\"23,29,0,65535\"", "000100 0009 0008 0017001d0000ffff"},
  /* draft-ietf-intarea-proxy-config section 2.1's example of pvd (11), which has no value */
  {"HTTPS", "1 . alpn=\"h3,h2\" pvd", "000100 0001 0006 026833 026832 000b 0000"},
  {"HTTPS", "1 . alpn=\"h3,h2\" key11", "000100 0001 0006 026833 026832 000b 0000"},
  {"HTTPS", "1 . pvd=\"\"", "000100 000b 0000"},
  /* hand-derived: mandatory lists them by name or number, in increasing order */
  {"SVCB", "1 . mandatory=pvd,docpath,key9 tls-supported-groups=1 docpath pvd",
   "000100 0000 0006 0009000a000b 0009 0002 0001 000a 0000 000b 0000"},
  {"SVCB", "\\# 15 000100 0009 0004 001d0017 000b 0000", "000100 0009 0004 001d0017 000b 0000"},
  /* RFC 1035 3.4.2 WKS: ports 25 and 80 set in a bitmap of 11 octets (bit 25 is octet 3's
   * 0x40; bit 80 octet 10's 0x80) */
  {"WKS", "192.0.2.1 6 25 80", "c0000201 06 00000040 000000000000 80"},
  {"WKS", "192.0.2.1 TCP", "c0000201 06"},
  /* RFC 1706 section 6's example NSAP, dots and all */
  {"NSAP", "0x47.0005.80.005a00.0000.0001.e133.ffffff000162.00",
   "47000580005a0000000001e133ffffff00016200"},
  /* RFC 1712 section 3's example, as three character-strings */
  {"GPOS", "-32.6882 116.8652 10.0", "082d33322e36383832 083131362e38363532 0431302e30"},
  /* an empty string is a value not given, which named takes, in any of the three */
  {"GPOS", "\"\" \"\" \"\"", "000000"},
  {"GPOS", "1 \"\" 2", "0131 00 0132"},
  {"GPOS", "\\# 3 000000", "000000"},
  /* EID and NIMLOC: hex */
  {"EID", "0123 4567", "01234567"},
  /* ATMA: format 1 E.164 digits as ASCII; format 0 AESA in hex, dots allowed (BIND) */
  {"ATMA", "+16505551234", "01 3136353035353531323334"},
  {"ATMA", "39.246f.00e7c9", "00 39246f00e7c9"},
  /* RFC 2535 3.1.2: flags 0xC000 say "no key", and none follows */
  {"KEY", "49152 3 8", "c0000308"},
  {"KEY", "256 3 RSASHA256 AwEAAQ==", "01000308 03010001"},
  {"SIG", "A 8 2 3600 20240101000000 20231201000000 12345 Example. AA==",
   "0001 08 02 00000e10 65920080 65692200 3039 076578616d706c6500 00"},
  /* RFC 8005 section 6's example HIT and algorithm, a short key, a rendezvous server that keeps
   * its case */
  {"HIP", "2 200100107B1A74DF365639CC39F1D578 AwEAAQ== RVS.Example.",
   "10 02 0004 200100107b1a74df365639cc39f1d578 03010001 03525653074578616d706c6500"},
  /* RFC 8777 section 4.2.5's examples: D bit with the type, the relay after it */
  {"AMTRELAY", "10 0 0 .", "0a00"},
  {"AMTRELAY", "10 1 1 203.0.113.15", "0a81 cb00710f"},
  {"AMTRELAY", "128 1 3 amtrelays.Example.com.", "8083 09616d7472656c617973074578616d706c6503636f6d00"},
  /* RFC 2535 section 5.2 NXT: the next name (lowercased: RFC 4034 section 6.2 lists NXT), then
   * a bitmap whose bit n is type n, to its last octet with a bit set: A (1) is 0x40 of octet 0,
   * MX (15) 0x01 of octet 1, SIG (24) 0x80 and NXT (30) 0x02 of octet 3, 127 0x01 of octet 15;
   * none at all is no octet (named takes all these) */
  {"NXT", "Host.Example. A MX", "04686f7374076578616d706c65 00 4001"},
  {"NXT", "b A SIG NXT a mx", "0162076578616d706c6500 40010082"},
  {"NXT", "b. TYPE127 127", "016200 00000000000000000000000000000001"},
  {"NXT", "b.", "016200"},
  /* NXT in RFC 3597 form: checked, names through the policy */
  {"TYPE30", "\\# 5 0141 00 0040", "0161000040"},
  /* RFC 3597 form of a type parsed here: checked as that type, names through the policy */
  {"A", "\\# 4 C0000201", "c0000201"},
  {"CNAME", "\\# 13 03575757 074578616d706c6500", "03777777076578616d706c6500"},
  {"NSEC", "\\# 8 0161 00 000140 00 00", NULL},   /* an empty window (RFC 4034 4.1.2) */
  {"NSEC", "\\# 6 0161 00 000140", "016100000140"},
  {"TYPE65534", "\\# 2 0000", "0000"},
  /* RFC 8976 appendix A.1: serial 2018031900 = 0x7848b91c */
  {"ZONEMD", "2018031900 1 1 FEBE3D4CE2EC2FFA4BA99D46CD69D6D29711E55217057BEE7EB1A7B641A47BA7FED2DD5B97AE499FAFA4F22C6BD647DE",
   "7848b91c0101febe3d4ce2ec2ffa4ba99d46cd69d6d29711e55217057bee7eb1a7b641a47ba7fed2dd5b97ae499f"
   "afa4f22c6bd647de"},
};

Test(rdata, rfc_examples_and_hand_derived_wire)
{
  for (size_t i = 0; i < sizeof goods / sizeof *goods; i++) {
    char got[8192], want[8192];
    bool ok = parse(goods[i].type, goods[i].rdata, got, sizeof got);
    if (!goods[i].hex) {
      cr_expect_not(ok, "%s %s: %s", goods[i].type, goods[i].rdata, got);
      continue;
    }
    squeeze(goods[i].hex, want);
    cr_expect(ok, "%s %s: %s", goods[i].type, goods[i].rdata, got);
    if (ok)
      cr_expect_str_eq(got, want, "%s %s:\ngot  %s\nwant %s", goods[i].type, goods[i].rdata, got,
                       want);
  }
}

typedef struct bad {
  const char *type, *rdata, *error;   /* "COL: message"; columns count from 21 */
} bad;

static const bad bads[] = {
  /* out of range: ldns wraps these silently (TLSA 256 became 0, a serial of 2^32 became 0) */
  {"TLSA", "256 0 0 00", "21: TLSA usage: \"256\" is not a number from 0 to 255"},
  {"SOA", "ns hm 4294967296 1 1 1 1", "27: SOA SERIAL: \"4294967296\" is not a number from 0 "
   "to 4294967295"},
  {"MX", "-1 mail", "21: MX preference: \"-1\" is not a number from 0 to 65535"},
  {"MX", "+1 mail", "21: MX preference: \"+1\" is not a number from 0 to 65535"},
  {"SOA", "ns hm 1 1 1 1 4294967296s", "35: SOA MINIMUM: \"4294967296s\" is not a number of seconds up to "
   "4294967295 (units s m h d w allowed)"},
  /* odd hex: ldns pads it with a zero */
  {"DS", "1 8 2 ABC", "30: odd number of hex digits in DS RDATA"},
  {"DS", "1 8 2 AB CX", "31: invalid hex digit 'X' in DS RDATA"},
  /* a digest's length is its type's (RFC 4509: SHA-256 is 32 octets), as BIND and dnspython */
  {"DS", "1 8 2 AABB", "27: DS digest of 2 octets, but SHA-256 digests have 32"},
  {"CDS", "1 8 1 AABB", "27: CDS digest of 2 octets, but SHA-1 digests have 20"},
  {"ZONEMD", "1 1 1 00112233445566778899aabb", "27: ZONEMD digest of 12 octets, but SHA-384 "
   "digests have 48"},
  {"ZONEMD", "1 1 255 00112233445566778899aa", "29: ZONEMD digest of 11 octets: at least 12 "
   "(RFC 8976 section 2.2.4)"},
  {"SSHFP", "1 1", "1: SSHFP RDATA needs at least 3 fields, found 2: the "
   "fingerprint is missing"},   /* at the record */
  {"A", "192.0.2.1 192.0.2.2", "31: unexpected \"192.0.2.2\" after the last A RDATA field"},
  {"A", "192.0.2", "21: invalid IPv4 address in A RDATA: \"192.0.2\""},
  {"L32", "10 10.1.02.0", "24: invalid IPv4 address in L32 RDATA: \"10.1.02.0\""},
  {"AAAA", "2001:db8::1::2", "21: invalid IPv6 address in AAAA RDATA: \"2001:db8::1::2\""},
  /* base64: characters, groups, padding, and the bits the padding drops */
  {"DNSKEY", "256 3 8 AwE", "32: base64 in DNSKEY RDATA does not end on a group of four "
   "characters (RFC 4648 section 4)"},
  {"DNSKEY", "256 3 8 AwE*", "32: invalid base64 character '*' in DNSKEY RDATA"},
  {"DNSKEY", "256 3 8 AA==AA==", "33: base64 in DNSKEY RDATA goes on after its padding"},
  {"DNSKEY", "256 3 8 AB==", "32: base64 in DNSKEY RDATA is not canonical: bits after the last "
   "octet are set (RFC 4648 section 3.5)"},
  {"DNSKEY", "256 3 8 =AAA", "29: invalid base64 character '=' in DNSKEY RDATA"},
  {"DNSKEY", "256 3 FOO AA==", "27: DNSKEY algorithm: \"FOO\" is not a DNSSEC algorithm: a number from 0 to 255 or "
   "a mnemonic such as RSASHA256"},
  /* a PRIVATEDNS key that is no name: its label of 3 octets ("AwEAAQ==" is 03 01 00 01) runs
   * past the key, and a name is not compressed (0xc0); named refuses these in RFC 3597 form
   * (though it reads the text), the form KEY and RKEY are written in */
  {"DNSKEY", "256 3 253 AwEAAQ==", "31: DNSKEY key of algorithm 253 (PRIVATEDNS) without the "
   "uncompressed domain name it begins with (RFC 4034 appendix A.1.1); BIND refuses it"},
  {"DNSKEY", "\\# 8 010003fd03010001", "26: DNSKEY key of algorithm 253 (PRIVATEDNS) without "
   "the uncompressed domain name it begins with (RFC 4034 appendix A.1.1); BIND refuses it"},
  {"KEY", "\\# 7 010003fdc00000", "26: KEY key of algorithm 253 (PRIVATEDNS) without the "
   "uncompressed domain name it begins with (RFC 4034 appendix A.1.1); BIND refuses it"},
  /* times: real calendar dates, or seconds up to 2^32 - 1 */
  {"RRSIG", "A 8 0 0 20230229000000 0 1 . AA==", "29: \"20230229000000\" is not a date and "
   "time (RFC 4034 section 3.2)"},
  {"RRSIG", "A 8 0 0 21000229000000 0 1 . AA==", "29: \"21000229000000\" is not a date and "
   "time (RFC 4034 section 3.2)"},
  {"RRSIG", "A 8 0 0 20240101246000 0 1 . AA==", "29: \"20240101246000\" is not a date and "
   "time (RFC 4034 section 3.2)"},
  {"RRSIG", "A 8 0 0 4294967296 0 1 . AA==", "29: \"4294967296\" is not a time: "
   "YYYYMMDDHHmmSS or seconds up to 4294967295 (RFC 4034 section 3.2)"},
  {"RRSIG", "A 8 0 0 2024010100000x 0 1 . AA==", "42: \"2024010100000x\" is not a time: "
   "YYYYMMDDHHmmSS (RFC 4034 section 3.2)"},
  {"RRSIG", "FOO 8 0 0 0 0 1 . AA==", "21: unknown type \"FOO\""},
  /* the bitmap: an unknown mnemonic is an error (ldns wrote TYPE0) */
  {"NSEC", "next. A FOO", "29: unknown type \"FOO\" in the type bitmap"},
  /* an empty bitmap: not in NSEC, as BIND (FORMERR); NSEC3 and CSYNC may have one (see goods) */
  {"NSEC", "next.", "1: NSEC RDATA needs at least 2 fields, found 1"},
  /* NSEC3: base32hex without padding, a whole number of octets */
  {"NSEC3", "1 1 12 aa 2t7b4g4w A", "38: invalid base32hex digit 'w' in NSEC3 RDATA (RFC 4648 "
   "section 7, no padding)"},
  {"NSEC3", "1 1 12 aa 2t7 A", "31: \"2t7\" is not a hash in base32hex (RFC 4648 section 7)"},
  {"NSEC3", "1 1 12 aa 2t7b4g4v= A", "39: invalid base32hex digit '=' in NSEC3 RDATA (RFC 4648 "
   "section 7, no padding)"},
  {"NSEC3PARAM", "1 0 12 abc", "31: odd number of hex digits in NSEC3PARAM RDATA"},
  /* character-strings */
  {"HINFO", "PC", "1: HINFO RDATA needs at least 2 fields, found 1"},
  {"CAA", "0 is-sue \"x\"", "23: invalid CAA tag \"is-sue\": letters and digits only (RFC 8659 "
   "section 4.1)"},
  {"EUI48", "00-00-5e-00-53", "21: invalid EUI-48 address in EUI48 RDATA: \"00-00-5e-00-53\" "
   "(RFC 7043)"},
  /* a bad digit first: its value (-1) was shifted before it was checked (fuzz_zone, UBSan) */
  {"EUI48", "zz-00-5e-00-53-2a", "21: invalid EUI-48 address in EUI48 RDATA: "
   "\"zz-00-5e-00-53-2a\" (RFC 7043)"},
  {"EUI64", "00:00:5e:ef:10:00:00:2a", "21: invalid EUI-64 address in EUI64 RDATA: "
   "\"00:00:5e:ef:10:00:00:2a\" (RFC 7043)"},
  /* a number after TXT's "\\#" is a length, as named reads it; in other types anything is */
  {"TXT", "\\# 4294967295", "24: generic RDATA length \"4294967295\" is not a number from 0 to "
   "65535"},
  {"SPF", "\\# abc", "24: generic RDATA length \"abc\" is not a number from 0 to 65535"},
  {"HINFO", "\\#", "1: generic RDATA needs a length after \\#"},
  {"A", "\\# 3 c00002", "21: generic RDATA is not valid A RDATA"},
  {"APL", "\\# 8 00011804c0000200", "21: generic RDATA is not valid APL RDATA"},
  {"APL", "\\# 4 00030000", "21: generic RDATA is not valid APL RDATA: address family not 1 "
   "(IPv4) or 2 (IPv6), the ones RFC 3123 section 5 gives a text form"},
  {"LOC", "\\# 2 0100", "21: generic RDATA is not valid LOC RDATA: only version 0 is defined "
   "(RFC 1876 section 2)"},  /* 0 at end */
  /* RFC 1876 section 2: a size or precision octet is a digit 1-9 and a power of ten 0-9, or 0;
   * named refuses 0x05 (0e5) and 0x1a (1e10) (checked with named-checkzone) */
  {"LOC", "\\# 16 00 05 16 13 8b3cf20c 810cbce0 00989716", "21: generic RDATA is not valid LOC "
   "RDATA: its size octet 0x05 is neither 0 nor a digit 1 to 9 (high four bits) times 10 to a "
   "power 0 to 9 (low four bits) (RFC 1876 section 2)"},
  {"LOC", "\\# 16 00 12 a0 13 8b3cf20c 810cbce0 00989716", "21: generic RDATA is not valid LOC "
   "RDATA: its horizontal precision octet 0xa0 is neither 0 nor a digit 1 to 9 (high four bits) "
   "times 10 to a power 0 to 9 (low four bits) (RFC 1876 section 2)"},
  {"LOC", "\\# 16 00 12 16 1a 8b3cf20c 810cbce0 00989716", "21: generic RDATA is not valid LOC "
   "RDATA: its vertical precision octet 0x1a is neither 0 nor a digit 1 to 9 (high four bits) "
   "times 10 to a power 0 to 9 (low four bits) (RFC 1876 section 2)"},
  {"APL", "1:192.0.2.1/33", "21: invalid address prefix in APL RDATA: \"1:192.0.2.1/33\" "
   "([!]1:IPv4/0-32 or [!]2:IPv6/0-128, RFC 3123 section 5)"},
  {"APL", "1:2001:db8::/32", "21: invalid address prefix in APL RDATA: \"1:2001:db8::/32\" "
   "([!]1:IPv4/0-32 or [!]2:IPv6/0-128, RFC 3123 section 5)"},
  {"APL", "3:192.0.2.0/24", "21: invalid address prefix in APL RDATA: \"3:192.0.2.0/24\" "
   "([!]1:IPv4/0-32 or [!]2:IPv6/0-128, RFC 3123 section 5)"},
  /* LOC: ldns takes 91 degrees and 60 seconds */
  {"LOC", "52 22 60 N 4 53 32 E 10", "27: \"60\" in LOC RDATA: seconds from 0 to 59.999 expected "
   "(RFC 1876 section 3)"},
  {"LOC", "91 N 4 E 10", "24: LOC latitude beyond 90 degrees (RFC 1876 section 3)"},
  {"LOC", "52 N 181 E 10", "30: LOC longitude beyond 180 degrees (RFC 1876 section 3)"},
  {"LOC", "52 X 4 E 10", "24: \"X\" in LOC RDATA: minutes from 0 to 59 expected (RFC 1876 "
   "section 3)"},
  {"LOC", "52 N 4 E 42849673", "30: \"42849673\" in LOC RDATA: an altitude from -100000.00 to "
   "42849672.95 m expected (RFC 1876 section 3)"},
  {"LOC", "52 N 4 E 10 90000001", "33: \"90000001\" in LOC RDATA: a size from 0 to "
   "90000000.99 m expected (RFC 1876 section 3)"},
  /* lengths and forms BIND holds to (named-rrchecker refuses each of these) */
  {"SSHFP", "1 1 aabb", "25: SSHFP fingerprint of 2 octets, but SHA-1 fingerprints have 20"},
  {"NSEC3", "1 0 10 - 2t7b4g4v A", "30: NSEC3 hash of 5 octets, but SHA-1 hashes have 20 (RFC "
   "5155 section 5)"},
  {"RRSIG", "NS 8 1 0 20240229000000 20240301000000 0 a.example. AA==", "26: RRSIG Labels 1 is "
   "fewer than the 2 labels of its signer (RFC 4035 section 5.3.1)"},
  {"NAPTR", "0 0 \"\" \"\" \"!a!\\\\1!\" .", "31: NAPTR regexp is not delim ERE delim replacement delim "
   "[i], its ERE valid and its back-references to subexpressions it has (RFC 3402 section 3.2)"},
  {"NAPTR", "0 0 \"\" \"\" \"x\" .", "31: NAPTR regexp is not delim ERE delim replacement delim "
   "[i], its ERE valid and its back-references to subexpressions it has (RFC 3402 section 3.2)"},
  {"X25", "123", "21: an X25 PSDN address is 4 or more decimal digits (RFC 1183 section 3.1)"},
  {"KEY", "49152 3 8 AwEAAQ==", "31: unexpected \"AwEAAQ==\" after the last KEY RDATA field"},
  {"KEY", "256 3 8", "1: KEY RDATA needs at least 4 fields, found 3"},
  {"WKS", "192.0.2.1 icmpx 1", "31: \"icmpx\" is not a protocol: a number from 0 to 255, or a "
   "name in /etc/protocols"},
  {"SIG", "A 8 2 3600 4294967295 0 1 example. AA==", "32: \"4294967295\" is not a time: SIG "
   "times are YYYYMMDDHHmmSS (RFC 2535 section 7.2)"},
  {"NSAP", "47000580", "21: an NSAP address starts with \"0x\" (RFC 1706 section 5)"},
  {"NSAP", "0x470", "21: NSAP RDATA needs an even number of hex digits, at least two"},
  {"GPOS", "91 0 0", "21: \"91\" in GPOS RDATA: a latitude from -90 to 90 (or \"\") expected "
   "(RFC 1712 section 3)"},
  {"ATMA", "+1650-555", "21: an E.164 ATMA address is \"+\" and digits"},
  {"AMTRELAY", "10 2 0 .", "24: \"2\" is not the discovery optional bit: 0 or 1 (RFC 8777 "
   "section 4.2.2)"},
  {"AMTRELAY", "10 0 4 .", "26: \"4\" is not an AMTRELAY type: 0, 1, 2 or 3 (RFC 8777 section "
   "4.2.3)"},
  {"HIP", "2 2001 AwE a.", "31: base64 in HIP RDATA does not end on a group of four characters "
   "(RFC 4648 section 4)"},
  /* RFC 3597 octets of WKS and NXT */
  {"WKS", "\\# 6 c0000201 0600", "21: generic RDATA is not valid WKS RDATA"},
  {"TYPE30", "\\# 2 0000", "21: generic RDATA is not valid NXT RDATA"},
  /* NXT: types 1 to 127 (RFC 2535 section 5.2), not quoted, and no bit 0 (another format no
   * RFC defines): named refuses each of these */
  {"NXT", "b. A TYPE128", "26: type \"TYPE128\" in NXT RDATA: NXT's bitmap holds types 1 to 127 "
   "(RFC 2535 section 5.2)"},
  {"NXT", "b. TYPE0", "24: type \"TYPE0\" in NXT RDATA: NXT's bitmap holds types 1 to 127 (RFC "
   "2535 section 5.2)"},
  {"NXT", "b. FOO", "24: unknown type \"FOO\" in the type bitmap"},
  {"NXT", "b. \"A\"", "24: \"A\" is quoted, but this NXT RDATA field is not a character-string"},
  {"NXT", "\\# 2 00 80", "21: generic RDATA is not valid NXT RDATA: bit 0 of its bitmap announces "
   "a format no RFC defines (RFC 2535 section 5.2)"},
  {"IPSECKEY", "10 4 0 . AA==", "24: \"4\" is not an IPSECKEY gateway type: 0, 1, 2 or 3 (RFC "
   "4025 section 2.3)"},
  {"IPSECKEY", "10 0 0 a. AA==", "28: \"a.\": gateway type 0 has no gateway, written \".\" (RFC "
   "4025 section 3.1)"},
  {"IPSECKEY", "10 1 2 2001:db8::1 AA==", "28: invalid IPv4 address in IPSECKEY RDATA: "
   "\"2001:db8::1\""},
  /* the key, which BIND and dnspython require */
  {"IPSECKEY", "10 0 0 .", "1: IPSECKEY RDATA needs at least 5 fields, found 4"},
  {"CERT", "FOO 1 8 AA==", "21: \"FOO\" is not a certificate type: a number from 0 to 65535 or "
   "PKIX, SPKI, PGP, IPKIX, ISPKI, IPGP, ACPKIX, IACPKIX, URI, OID (RFC 4398 section 2.1)"},
  {"CNAME", "\\# 5 c00c00 0000", "21: generic RDATA is not valid CNAME RDATA"},  /* compressed */
  {"DS", "\\# 6 00010802aabb", "26: DS digest of 2 octets, but SHA-256 digests have 32"},
  {"URI", "10 1 ftp://x", "26: a URI target is a quoted string, not empty (RFC 7553 section "
   "4.4)"},
  {"URI", "10 1 \"\"", "26: a URI target is a quoted string, not empty (RFC 7553 section 4.4)"},
  {"NS", "\"ns\"", "21: \"ns\" is quoted, but this NS RDATA field is not a character-string"},
  {"NID", "10 0014:4fff:ff20", "24: invalid locator in NID RDATA: \"0014:4fff:ff20\" (RFC 6742)"},
  {"NID", "10 0014:4fff:ff20:ee641", "24: invalid locator in NID RDATA: \"0014:4fff:ff20:ee641\" "
   "(RFC 6742)"},
  /* RFC 9460 appendix D.3: the records the RFC says a parser must refuse; then others of
   * section 2.1 and 7, checked as BIND and dnspython refuse them */
  {"SVCB", "1 foo.example.com. key123=abc key123=def", "51: parameter key \"key123\" given "
   "twice (RFC 9460 section 2.2)"},
  {"SVCB", "1 foo.example.com. mandatory", "40: parameter \"mandatory\" needs a value (RFC 9460 "
   "section 7)"},
  {"SVCB", "1 foo.example.com. alpn", "40: parameter \"alpn\" needs a value (RFC 9460 section 7)"},
  {"SVCB", "1 foo.example.com. port", "40: parameter \"port\" needs a value (RFC 9460 section 7)"},
  {"SVCB", "1 foo.example.com. ipv4hint", "40: parameter \"ipv4hint\" needs a value (RFC 9460 "
   "section 7)"},
  {"SVCB", "1 foo.example.com. ipv6hint", "40: parameter \"ipv6hint\" needs a value (RFC 9460 "
   "section 7)"},
  {"SVCB", "1 foo.example.com. no-default-alpn=abc", "40: no-default-alpn has no value (RFC 9460 "
   "section 7.1.1)"},
  {"SVCB", "1 foo.example.com. mandatory=key123", "40: mandatory lists key123, which this record "
   "does not have (RFC 9460 section 8)"},
  {"SVCB", "1 foo.example.com. mandatory=mandatory", "40: mandatory may not list itself (RFC 9460 "
   "section 8)"},
  {"SVCB", "1 foo.example.com. mandatory=key123,key123 key123=abc", "40: mandatory lists each key "
   "once, in increasing order (RFC 9460 section 8)"},
  {"SVCB", "0 foo.example.com. alpn=h2", "40: an SVCB record in AliasMode (priority 0) has no "
   "parameters: every client ignores them (RFC 9460 section 2.4.2)"},
  {"SVCB", "1 . no-default-alpn", "25: no-default-alpn needs alpn in the same record (RFC 9460 "
   "section 7.1.1)"},
  {"SVCB", "1 . \"alpn=h2\"", "25: a parameter is key or key=value, with only the value "
   "quoted: key=\"value\" (RFC 9460 section 2.1)"},
  {"SVCB", "1 . alpn= \"h2\"", "29: a value follows '=' with no blank (RFC 9460 section 2.1)"},
  {"SVCB", "1 . ALPN=h2", "25: unknown parameter key \"ALPN\" in SVCB RDATA: mandatory, alpn, "
   "no-default-alpn, port, ipv4hint, ech, ipv6hint, dohpath, ohttp, tls-supported-groups, "
   "docpath, pvd, or keyNNNNN (RFC 9460 section 2.1)"},
  {"SVCB", "1 . key0123=x", "25: unknown parameter key \"key0123\" in SVCB RDATA: mandatory, "
   "alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint, dohpath, ohttp, tls-supported-groups, "
   "docpath, pvd, or keyNNNNN (RFC 9460 section 2.1)"},
  {"SVCB", "1 . port=+5", "30: port is a number from 0 to 65535 (RFC 9460 section 7.2)"},
  {"SVCB", "1 . ipv4hint=192.0.2.1,,192.0.2.2", "44: empty item in a comma-separated list (RFC "
   "9460 appendix A.1)"},
  {"SVCB", "1 . alpn=h2,", "25: empty alpn protocol id (RFC 9460 section 7.1.1)"},
  {"SVCB", "1 . dohpath=/q", "25: dohpath is a URI template in UTF-8 that starts with '/' and has "
   "a variable \"dns\" (RFC 9461 section 5)"},
  {"SVCB", "1 . key7=foo{?dns}", "25: dohpath is a URI template in UTF-8 that starts with '/' and "
   "has a variable \"dns\" (RFC 9461 section 5)"},
  {"SVCB", "1 . ech=AB==", "32: base64 in SVCB RDATA is not canonical: bits after the last octet "
   "are set (RFC 4648 section 3.5)"},
  {"SVCB", "1 . mandatory=al\\112n alpn=h2", "37: this value is written without escapes (RFC "
   "9460 appendix A)"},
  {"SVCB", "\\# 15 000100 0003 0002 0035 0003 0002 0036", "27: generic RDATA is not valid SVCB "
   "RDATA: keys are not in increasing order (RFC 9460 section 2.2)"},
  /* the keys registered after RFC 9540, held to their documents in either form: docpath's
   * segments (RFC 9953 section 3), tls-supported-groups' numbers (draft-ietf-tls-key-share-
   * prediction section 3.1), pvd's empty value (draft-ietf-intarea-proxy-config section 2.1) */
  {"SVCB", "1 . docpath=a,,b", "25: empty docpath segment (RFC 9953 section 3)"},
  {"SVCB", "1 . docpath=a,", "25: empty docpath segment (RFC 9953 section 3)"},
  {"SVCB", "1 . docpath=a\\\\", "25: docpath value ends in an escape (RFC 9460 appendix A.1)"},
  {"SVCB", "1 . key10=\"\\000\"", "31: docpath holds path segments of 1 to 255 octets, each "
   "after its length octet (RFC 9953 section 3)"},
  {"SVCB", "1 . key10=\\003ab", "25: docpath holds path segments of 1 to 255 octets, each "
   "after its length octet (RFC 9953 section 3)"},
  {"SVCB", "1 . tls-supported-groups", "25: parameter \"tls-supported-groups\" needs a value "
   "(draft-ietf-tls-key-share-prediction section 3.1)"},
  {"SVCB", "1 . tls-supported-groups=29,29", "25: tls-supported-groups lists each group once "
   "(draft-ietf-tls-key-share-prediction section 3.1)"},
  {"SVCB", "1 . tls-supported-groups=29,65536", "49: a TLS named group is a number from 0 to "
   "65535 (draft-ietf-tls-key-share-prediction section 3.1)"},
  {"SVCB", "1 . tls-supported-groups=x25519", "46: a TLS named group is a number from 0 to "
   "65535 (draft-ietf-tls-key-share-prediction section 3.1)"},
  {"SVCB", "1 . tls-supported-groups=29,,23", "49: empty item in a comma-separated list (RFC "
   "9460 appendix A.1)"},
  {"SVCB", "1 . tls-supported-groups=\\050\\057", "46: this value is written without escapes "
   "(RFC 9460 appendix A)"},
  {"SVCB", "1 . key9", "25: tls-supported-groups lists one or more TLS named groups, numbers "
   "from 0 to 65535 (draft-ietf-tls-key-share-prediction section 3.1)"},
  {"SVCB", "1 . key9=\\000", "25: tls-supported-groups lists one or more TLS named groups, "
   "numbers from 0 to 65535 (draft-ietf-tls-key-share-prediction section 3.1)"},
  {"SVCB", "1 . key9=\"\\000\\029\\000\\029\"", "30: tls-supported-groups lists each group "
   "once (draft-ietf-tls-key-share-prediction section 3.1)"},
  {"HTTPS", "1 . pvd=x", "25: pvd has no value (draft-ietf-intarea-proxy-config section 2.1)"},
  {"HTTPS", "1 . key11=x", "25: pvd has no value (draft-ietf-intarea-proxy-config section "
   "2.1)"},
  {"SVCB", "1 . mandatory=docpath alpn=h2", "25: mandatory lists key10, which this record does "
   "not have (RFC 9460 section 8)"},
  {"SVCB", "1 . mandatory=doc\\112ath docpath", "38: this value is written without escapes "
   "(RFC 9460 appendix A)"},
  {"HTTPS", "\\# 8 000100 000b 0001 78", "26: generic RDATA is not valid HTTPS RDATA: pvd has "
   "no value (draft-ietf-intarea-proxy-config section 2.1)"},
  {"SVCB", "\\# 11 000100 0009 0004 00010001", "27: generic RDATA is not valid SVCB RDATA: "
   "tls-supported-groups lists each group once (draft-ietf-tls-key-share-prediction section "
   "3.1)"},
  /* names are as the registry spells them; "oots" (key 12 in NSD 4.15) is in no registry, so
   * key12 alone, octets */
  {"SVCB", "1 . DocPath", "25: unknown parameter key \"DocPath\" in SVCB RDATA: mandatory, "
   "alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint, dohpath, ohttp, tls-supported-groups, "
   "docpath, pvd, or keyNNNNN (RFC 9460 section 2.1)"},
  {"SVCB", "1 . oots=\"do53:100\"", "25: unknown parameter key \"oots\" in SVCB RDATA: "
   "mandatory, alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint, dohpath, ohttp, "
   "tls-supported-groups, docpath, pvd, or keyNNNNN (RFC 9460 section 2.1)"},
  {"HTTPS", "\\# 7 000100 0003 0001", "26: generic RDATA is not valid HTTPS RDATA: a parameter "
   "is cut short"},
};

Test(rdata, bad_fields_are_refused_at_their_place)
{
  for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
    char got[2048];
    cr_expect_not(parse(bads[i].type, bads[i].rdata, got, sizeof got), "%s %s: took it as %s",
                  bads[i].type, bads[i].rdata, got);
    cr_expect_str_eq(got, bads[i].error, "%s %s", bads[i].type, bads[i].rdata);
  }
}

/* A character-string is at most 255 octets, and RDATA at most 65535: the field that crosses a
 * limit is the one reported. */
Test(rdata, wire_limits)
{
  char got[2048];
  static char text[257 * 256];
  memset(text, 'x', sizeof text);
  char one[260] = "\"";
  memset(one + 1, 'x', 255);
  strcpy(one + 256, "\"");
  cr_expect(parse("TXT", one, got, 16), "255 octets");
  strcpy(one + 256, "x\"");
  cr_expect_not(parse("TXT", one, got, sizeof got), "256 octets");
  cr_expect(strstr(got, "in TXT RDATA: longer than 255 octets") != NULL, "%s", got);
  /* 257 strings of 255 octets, each 256 octets with its length: the 256th crosses 65535 */
  zp_field fields[257];
  for (int i = 0; i < 257; i++)
    fields[i] = (zp_field){text + 256 * i, 255, false, false, {.src = &src, .line = 1,
                                                        .col = (uint32_t)(21 + 256 * i)}};
  zp_record rec = {.loc = {.src = &src, .line = 1, .col = 1}, .rtype = 16, .nfields = 257,
                   .fields = fields};
  zp_rdata_in in = {16, fields, 257, NULL, &lower_conv, &keep_conv, NULL, NULL, false, NULL};
  static uint8_t wire[ZP_RDATA_MAX];
  size_t len;
  zp_rdata_error err;
  cr_assert_eq(zp_rdata_parse(&in, wire, &len, &err), ZP_ZONE_SYNTAX);
  cr_expect_eq(err.field, 255u);
  cr_expect_eq(zp_rdata_error_loc(&err, &rec).col, 21u + 256 * 255);
  cr_expect_str_eq(err.msg, "TXT RDATA longer than 65510 octets: named loads no RRset over "
                   "65512 octets of RDATA and 2-octet lengths (3 for an RRSIG), what a DNS "
                   "message of 65535 octets holds past its header, the root owner and a record's "
                   "type, class, TTL and length");
  in.nfields = 255;   /* 65280 octets: within */
  cr_expect_eq(zp_rdata_parse(&in, wire, &len, &err), ZP_OK);
  cr_expect_eq(len, 255u * 256);
  /* named's limit, found by bisection with named-checkzone: 65510 octets of TXT load, 65511 do
   * not (a 256th string of 229 octets, 230 with its length, makes 65510) */
  fields[255].len = 229;
  in.nfields = 256;
  cr_expect_eq(zp_rdata_parse(&in, wire, &len, &err), ZP_OK);
  cr_expect_eq(len, 65510u);
  fields[255].len = 230;
  cr_expect_eq(zp_rdata_parse(&in, wire, &len, &err), ZP_ZONE_SYNTAX);
  cr_expect_eq(err.field, 255u);
}

/* Whether a name of the RDATA was written relative (RFC 1035 section 5.1): the whole-zone checks
 * tell a wanting target so written as a final dot likely forgotten. RFC 3597 RDATA holds names in
 * wire form, never relative. */
Test(rdata, names_written_relative_are_told)
{
  static const struct {
    uint16_t type;
    const char *rdata;
    bool relative;
  } cases[] = {
    {15, "10 mail.example.net", true},  {15, "10 mail.example.net.", false},
    {15, "10 mail", true},              {15, "10 @", true},
    {15, "10 mail\\.", true},           {15, "10 mail\\\\.", false},
    {2, "ns1.example.net.", false},     {5, "www.example.net", true},
    {33, "0 5 443 a.b", true},          {33, "0 5 443 .", false},
    {1, "192.0.2.1", false},
    {15, "\\# 8 000a 046d61696c 00", false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    built b;
    build(&b, "x.example.", cases[i].type, cases[i].rdata);
    bool relative = false;
    zp_rdata_in in = {.type = cases[i].type, .fields = b.rec.fields, .nfields = b.rec.nfields,
                      .origin = b.rec.origin, .lower = &lower_conv, .keep = &keep_conv,
                      .relative = &relative};
    static uint8_t wire[ZP_RDATA_MAX];
    size_t len;
    zp_rdata_error err;
    zp_status st = b.rec.generic ? zp_rdata_generic(&in, wire, &len, &err)
                                 : zp_rdata_parse(&in, wire, &len, &err);
    cr_assert_eq(st, ZP_OK, "%s: %s", cases[i].rdata, err.msg);
    cr_expect_eq(relative, cases[i].relative, "%s", cases[i].rdata);
  }
}

/* RFC 3597 RDATA: its length is held to the same limit, at the length field; an RRSIG's is 1
 * octet less (named counts 3 octets beside each, where other types' have 2) */
static zp_status generic_of(uint16_t type, const char *len, const char *hex, size_t hexlen,
                            zp_rdata_error *err)
{
  zp_field fields[3] = {
    {"\\#", 2, false, false, {.src = &src, .line = 1, .col = 21}},
    {len, strlen(len), false, false, {.src = &src, .line = 1, .col = 24}},
    {hex, hexlen, false, false, {.src = &src, .line = 1, .col = 31}},
  };
  zp_rdata_in in = {type, fields, 3, NULL, &lower_conv, &keep_conv, NULL, NULL, false, NULL};
  static uint8_t wire[ZP_RDATA_MAX];
  size_t n;
  return zp_rdata_generic(&in, wire, &n, err);
}

Test(rdata, generic_limits)
{
  static char hex[2 * 65512];
  memset(hex, '0', sizeof hex);
  zp_rdata_error err;
  cr_expect_eq(generic_of(65280, "65510", hex, 2 * 65510, &err), ZP_OK);
  cr_expect_eq(generic_of(65280, "65511", hex, 2 * 65511, &err), ZP_ZONE_SYNTAX);
  cr_expect_eq(err.field, 1u);
  cr_expect_str_eq(err.msg, "generic RDATA length 65511: TYPE65280 RDATA longer than 65510 "
                   "octets: named loads no RRset over 65512 octets of RDATA and 2-octet lengths "
                   "(3 for an RRSIG), what a DNS message of 65535 octets holds past its header, "
                   "the root owner and a record's type, class, TTL and length");
  /* an RRSIG of 65509 octets (covering A, its signer the root) loads in named, of 65510 not */
  memcpy(hex, "0001080000000000000000000000000000000000", 38);
  cr_expect_eq(generic_of(46, "65509", hex, 2 * 65509, &err), ZP_OK, "%s", err.msg);
  cr_expect_eq(generic_of(46, "65510", hex, 2 * 65510, &err), ZP_ZONE_SYNTAX);
  cr_expect(strncmp(err.msg, "generic RDATA length 65510: RRSIG RDATA longer than 65509 octets",
                    64) == 0, "%s", err.msg);
}

/* Where zonepuny takes what ldns refuses, on purpose: an empty type bitmap in NSEC3 and CSYNC
 * (BIND takes it; with one type in it ldns must take the record), and a CAA value without
 * quotes, which ldns 1.8.3 refuses and BIND and dnspython take. */
static bool deliberate(uint16_t t, const char *tname, const char *rdata)
{
  char line[700];
  ldns_rr *rr = NULL;
  if (t == 50 || t == 62) {
    snprintf(line, sizeof line, "x.example. 0 IN %s %s A", tname, rdata);
    bool ok = ldns_rr_new_frm_str(&rr, line, 0, NULL, NULL) == LDNS_STATUS_OK;
    ldns_rr_free(rr);
    return ok;
  }
  const char *value = strrchr(rdata, ' ');
  return t == 257 && value && value[1] != '"';
}

/* Against ldns's parser, on random texts for every type parsed here: what zonepuny accepts,
 * ldns accepts too, with the same octets (ldns's names lowercased where RFC 4034 6.2 has them
 * lowercased). ldns accepts more (it wraps, pads and guesses): those are refused here on
 * purpose, and counted. */
Test(rdata, what_we_accept_ldns_reads_to_the_same_octets, .timeout = 120)
{
  static const char *const pool[] = {
    "0", "1", "7", "255", "256", "65535", "65536", "4294967295", "4294967296", "-1", "1h",
    "192.0.2.1", "2001:db8::1", "10.1.02.0", "a.example.", "rel", "@", ".", "\"\"", "\"x y\"",
    "txt", "AwEAAQ==", "AwE", "AA==", "AB==", "abcdef", "ABCDEF0", "aa", "-", "A", "NS", "MX",
    "RRSIG", "NSEC", "TYPE1234", "FOO", "RSASHA256", "ED25519", "20240229000000",
    "20230229000000", "21060207062815", "2t7b4g4vsa5smi47k61mv5bv1a22bojr", "2t7", "issue",
    "is-sue", "00-00-5e-00-53-2a", "00-00-5e-ef-10-00-00-2a", "0014:4fff:ff20:ee64", "\\065",
    "1:192.0.2.0/24", "!2:2001:db8::/32", "1:192.0.2.1/33", "PKIX", "URI", "N", "S", "E", "W",
    "23.5", "-2.00m", "10000m",
  };
  enum { PER_TYPE = 3000, NPOOL = sizeof pool / sizeof *pool };
  uint64_t seed = 0x7264617461000001u;
  unsigned agreed = 0, ldns_only = 0;
  uint8_t bind_only[65536 / 8] = {0};
  zp_rrtype_generic_always(bind_only);
  for (unsigned t = 1; t < 65536; t++) {
    /* NSAP-PTR: ldns reads a character-string where RFC 1706 has a name (see the goods); WKS:
     * ldns takes a protocol by name only, BIND and dnspython a number too; SVCB, HTTPS: ldns
     * reads alpn without RFC 9460's escapes; ATMA: ldns reads neither form as BIND does; NXT:
     * ldns 1.8 reads no text of it; the types only BIND reads as text (A6 and SINK ldns reads
     * otherwise, the rest not at all). These are held to BIND and dnspython instead
     * (tests/output/check_rdata_peers.py). */
    if (!zp_rrtype_reads_text((uint16_t)t) || t == 23 || t == 11 || t == 34 || t == 64 ||
        t == 65 || t == 30 || (bind_only[t >> 3] & (0x80 >> (t & 7))))
      continue;
    char tb[ZP_RRTYPE_TEXT_MAX];
    const char *tname = zp_rrtype_name((uint16_t)t, tb);
    for (int iter = 0; iter < PER_TYPE; iter++) {
      char rdata[600];
      size_t k = 0, n = 1 + xorshift64star(&seed) % 9;
      for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(rdata + k, sizeof rdata - k, "%s%s", i ? " " : "",
                              pool[xorshift64star(&seed) % NPOOL]);
      char got[8192];
      bool ours = parse(tname, rdata, got, sizeof got);
      char line[700];
      snprintf(line, sizeof line, "x.example. 0 IN %s %s", tname, rdata);
      ldns_rdf *origin = ldns_dname_new_frm_str("example.");
      ldns_rr *rr = NULL;
      bool theirs = ldns_rr_new_frm_str(&rr, line, 0, origin, NULL) == LDNS_STATUS_OK;
      ldns_rdf_deep_free(origin);
      if (ours && !theirs) {
        cr_assert(deliberate((uint16_t)t, tname, rdata), "%s %s: we take it (%s), ldns does not",
                  tname, rdata, got);
        continue;
      }
      /* an empty ISDN subaddress: none for BIND, dnspython and zonepuny, an empty string for
       * ldns */
      size_t rl = strlen(rdata);
      if (ours && t == 20 && rl >= 3 && strcmp(rdata + rl - 3, " \"\"") == 0) {
        ldns_rr_free(rr);
        continue;
      }
      if (ours) {
        for (size_t i = 0; i < ldns_rr_rd_count(rr); i++)
          if (ldns_rdf_get_type(ldns_rr_rdf(rr, i)) == LDNS_RDF_TYPE_DNAME &&
              rfc4034_lowercases((uint16_t)t))
            ldns_dname2canonical(ldns_rr_rdf(rr, i));
        ldns_buffer *b = ldns_buffer_new(512);
        cr_assert_eq(ldns_rr_rdata2buffer_wire(b, rr), LDNS_STATUS_OK);
        char want[8192];
        for (size_t i = 0; i < ldns_buffer_position(b) && 2 * i + 2 < sizeof want; i++)
          sprintf(want + 2 * i, "%02x", ldns_buffer_begin(b)[i]);
        want[2 * ldns_buffer_position(b)] = '\0';
        cr_assert_str_eq(got, want, "%s %s", tname, rdata);
        ldns_buffer_free(b);
        agreed++;
      } else if (theirs) {
        ldns_only++;
      }
      ldns_rr_free(rr);
    }
  }
  cr_log_info("accepted alike: %u; ldns only: %u", agreed, ldns_only);
  cr_expect_gt(agreed, 1000u);
}

/* The IPv4 reader against inet_pton(3) (libc, the oracle) over random texts near the dotted
 * form: digits, dots, leading zeros, octets past 255, too few or many parts, stray bytes. */
Test(rdata, ipv4_as_inet_pton_reads_it)
{
  static const char *const parts[] = {"0", "1", "9", "10", "255", "25", "199", "100", "00",
                                      "01", "099", "256", "299", "1000", "", "a", "+1", "-1",
                                      "0x1", "\\065"};
  uint64_t seed = 0x5DEECE66Du;
  int taken = 0;
  for (int n = 0; n < 100000; n++) {
    char text[64];
    int k = 0, np = xorshift64star(&seed) % 2 ? 4 : 1 + (int)(xorshift64star(&seed) % 6);
    for (int p = 0; p < np; p++)
      k += sprintf(text + k, "%s%s", p ? "." : "",   /* (the first eight are octets) */
                   parts[xorshift64star(&seed) % (xorshift64star(&seed) % 4 ? 8 : sizeof parts /
                                                                              sizeof *parts)]);
    if (xorshift64star(&seed) % 8 == 0)
      k += sprintf(text + k, ".");
    if (k == 0 || strchr(text, '\\'))   /* an empty field is no field; an escape is the name's */
      continue;
    uint8_t want[4];
    bool ok = inet_pton(AF_INET, text, want) == 1;
    char got[256], hex[9];
    cr_assert_eq(parse("A", text, got, sizeof got), ok, "%s: %s", text, got);
    if (ok) {
      sprintf(hex, "%02x%02x%02x%02x", want[0], want[1], want[2], want[3]);
      cr_assert_str_eq(got, hex, "%s", text);
      taken++;
    }
  }
  cr_assert_gt(taken, 1000);
}
