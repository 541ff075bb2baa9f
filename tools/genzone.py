#!/usr/bin/python3
"""genzone.py -- a deterministic zone for benchmarks: N records, a share of internationalized names.

usage: genzone.py [--records N] [--idn-ratio R] [--seed S] [--distinct-idn] [--ace ACE.zone] OUT.zone

Owners and RDATA names are drawn from ASCII words and from UTF-8 words in several scripts; a
record whose owner is internationalized counts toward --idn-ratio (default 0.3). The record mix
is what a hosting zone holds: A, AAAA, MX, CNAME, TXT, NS, SRV, PTR, CAA. The names MX, SRV, NS,
CNAME and PTR records point to come from a pool of hosts that each have an address first, so
that the zone passes zonepuny's whole-zone checks as BIND's. With --distinct-idn each
internationalized owner holds a left-to-right label of its own ("münchen42"), which no cache of
labels helps with. With --ace the same
zone is also written with every name in its ACE form, computed by Python's encodings.idna (an
oracle, not zonepuny), for the peers that cannot convert: BIND, NSD, ldns.
"""
import argparse
import encodings.idna
import random

ASCII = ["www", "mail", "shop", "api", "cdn", "blog", "dev", "test", "static", "img", "vpn",
         "git", "ftp", "news", "app", "login", "docs", "status", "media", "files"]
IDN = ["münchen", "bücher", "köln", "zürich", "straße", "日本語", "中文", "пример", "москва",
       "παράδειγμα", "مثال", "דוגמה", "उदाहरण", "ตัวอย่าง", "한국어", "español", "français",
       "açaí", "øresund", "ελλάδα", "россия", "東京", "대한민국", "تجربة", "κόσμος"]


def ace_label(label, cache={}):
    if label not in cache:
        cache[label] = encodings.idna.ToASCII(label).decode() if not label.isascii() else label
    return cache[label]


def ace_name(name):
    return ".".join(ace_label(l) if l else l for l in name.split("."))

# (a right-to-left label cannot end in a digit under IDNA2003's bidi rule, RFC 3454 section 6)
IDN_LTR = [w for w in IDN if not any("\u0590" <= c <= "\u08ff" for c in w)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=1000000)
    ap.add_argument("--idn-ratio", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--distinct-idn", action="store_true")
    ap.add_argument("--ace")
    ap.add_argument("out")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    out = open(a.out, "w", encoding="utf-8")
    ace = open(a.ace, "w", encoding="utf-8") if a.ace else None

    def emit(line, names):
        out.write(line.format(*names) + "\n")
        if ace:
            ace.write(line.format(*[ace_name(n) for n in names]) + "\n")

    emit("$ORIGIN example.\n$TTL 3600", [])
    emit("@ IN SOA ns1 hostmaster 2024010101 7200 3600 1209600 300", [])
    emit("@ IN NS ns1\n@ IN NS ns2\nns1 IN A 192.0.2.53\nns2 IN A 192.0.2.54", [])

    def word(idn):
        return rnd.choice(IDN if idn else ASCII)

    hosts = ["%s.%s" % (w, v) for w in ASCII + IDN for v in ASCII]
    for h, host in enumerate(hosts):
        emit("{} IN A 198.51.%d.%d" % (h >> 8, h & 255), [host])
    for i in range(a.records - 5 - len(hosts)):
        idn = rnd.random() < a.idn_ratio
        if idn and a.distinct_idn:
            owner = "%s.%s%d" % (word(False), rnd.choice(IDN_LTR), i)
        else:
            owner = "%s%d.%s" % (word(False), i, word(idn))
        target = "%s.%s" % (word(rnd.random() < a.idn_ratio), word(False))
        k = rnd.random()
        if k < 0.40:
            emit("{} IN A 192.0.%d.%d" % (i >> 8 & 255, i & 255), [owner])
        elif k < 0.55:
            emit("{} IN AAAA 2001:db8::%x:%x" % (i >> 16, i & 0xFFFF), [owner])
        elif k < 0.65:
            emit("{} 300 IN MX %d {}" % (rnd.randint(0, 50),), [owner, target])
        elif k < 0.75:
            emit("{} IN CNAME {}", [owner, target])
        elif k < 0.85:
            emit('{} IN TXT "v=spf1 include:_spf.example.net -all" "id %d"' % i, [owner])
        elif k < 0.90:
            emit("{} IN NS {}", [owner, target])
        elif k < 0.95:
            emit("_sip._tcp.{} IN SRV 10 60 5060 {}", [owner, target])
        elif k < 0.98:
            emit("{} IN PTR {}", [owner, target])
        else:
            emit('{} IN CAA 0 issue "ca.example.net"', [owner])
    out.close()
    if ace:
        ace.close()


if __name__ == "__main__":
    main()
