#!/usr/bin/python3
"""gen_golden.py -- expected zonepuny output for a zone, from oracles only.

Names: dnspython reads the zone (its own master-file parser, IDNA2003 codec) and every label
holding octets >= 0x80 is run through Python's encodings.idna.ToASCII (RFC 3490, Nameprep of
Unicode 3.2); ASCII labels are lowercased in owners and in the RDATA names of the types RFC 4034
section 6.2 lists, less NSEC (RFC 6840 section 5.1). Text: each record, written by
dnspython in ASCII, is printed by ldns-read-zone (ldns_rr_print), one process per record so that
ldns's SOA-first reordering does not apply. --sort orders by dnspython's canonical name order
(RFC 4034 6.1), class, type and canonical RDATA (6.3), dropping duplicates.

--unicode then shows every label that starts with "xn--" through encodings.idna.ToUnicode.
--idna=2008 reads names with dnspython's IDNA 2008 codec instead (the idna package, UTS #46
non-transitional), and --unicode then shows labels through its decoding.

usage: gen_golden.py [--sort] [--unicode] [--idna=2008] [--drop N,N...] [--origin NAME] ZONE
--drop blanks the numbered lines first: the records zonepuny must refuse, so that the expected
output of a zone with errors is the oracle's output for the rest.
Run with /usr/bin/python3 (python3-dnspython). zonepuny's output is never an input here.
"""
import encodings.idna
import os
import re
import subprocess
import sys
import tempfile

import dns.name
import dns.rdata
import dns.rdataclass
import dns.rdatatype
import dns.tokenizer
import dns.zonefile


class Manager:
    def __init__(self, origin):
        self.origin = origin

    def origin_information(self):
        return (self.origin, False, self.origin)


class InOrder:
    """A dnspython transaction that only remembers records in input order."""

    def __init__(self, origin):
        self.manager = Manager(origin)
        self.records = []

    def add(self, name, ttl, rdata):
        self.records.append((name, ttl, rdata))

    def check_put_rdataset(self, check):
        pass

    def _set_origin(self, origin):
        pass


# RFC 4034 section 6.2 lowercases the RDATA names of these types in canonical form; RFC 6840
# section 5.1 takes NSEC off the list. Other types' names keep their case.
LOWERCASED = {"NS", "MD", "MF", "CNAME", "SOA", "MB", "MG", "MR", "PTR", "HINFO", "MINFO", "MX",
              "RP", "AFSDB", "RT", "SIG", "PX", "NXT", "NAPTR", "KX", "SRV", "DNAME", "A6",
              "RRSIG"}


# Written in RFC 3597 form by default: the types Knot 3.2 does not read as text (found by
# tests/output/check_knot.sh, which holds zonepuny's table to Knot).
GENERIC = {"MD", "MF", "MB", "MG", "MR", "NULL", "WKS", "X25", "ISDN", "NSAP", "NSAP-PTR", "SIG",
           "PX", "GPOS", "NXT", "EID", "NIMLOC", "ATMA", "A6", "SINK", "HIP", "TALINK", "DLV"}


def ace(label, lower=True):
    if any(b >= 0x80 for b in label):
        return encodings.idna.ToASCII(label.decode("utf-8"))
    return label.lower() if lower else label


def canonical(name, lower=True):
    return dns.name.Name([ace(label, lower) for label in name.labels])


def canonical_rdata(rd):
    lower = dns.rdatatype.to_text(rd.rdtype) in LOWERCASED
    changes = {}
    for slot in rd.__slots__:
        value = getattr(rd, slot, None)
        if isinstance(value, dns.name.Name):
            changes[slot] = canonical(value, lower)
    return rd.replace(**changes) if changes else rd


def ldns_text(line):
    with tempfile.NamedTemporaryFile("w", suffix=".zone", delete=False) as f:
        f.write(line + "\n")
        path = f.name
    try:
        out = subprocess.run(["ldns-read-zone", path], capture_output=True, text=True, check=True)
    finally:
        os.unlink(path)
    return out.stdout


def main(argv):
    sort = "--sort" in argv
    unicode = "--unicode" in argv
    codec = dns.name.IDNA_2008_UTS_46 if "--idna=2008" in argv else dns.name.IDNA_2003
    argv = [a for a in argv if a not in ("--sort", "--unicode", "--idna=2008")]
    drop = set()
    if argv and argv[0] == "--drop":
        drop = {int(n) for n in argv[1].split(",")}
        argv = argv[2:]
    origin = dns.name.root
    if argv and argv[0] == "--origin":
        origin = dns.name.from_text(argv[1], idna_codec=codec)
        argv = argv[2:]
    path = argv[0]
    os.chdir(os.path.dirname(os.path.abspath(path)))
    with open(os.path.basename(path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    text = "\n".join("" if i + 1 in drop else line for i, line in enumerate(lines))
    txn = InOrder(origin)
    tok = dns.tokenizer.Tokenizer(text, path, idna_codec=codec)
    dns.zonefile.Reader(tok, dns.rdataclass.IN, txn, allow_include=True).read()
    records = [(canonical(n), ttl, canonical_rdata(rd)) for n, ttl, rd in txn.records]
    if sort:
        keyed = {}
        for n, ttl, rd in records:
            key = (n, rd.rdclass, rd.rdtype, rd.to_digestable())
            keyed.setdefault(key, (n, ttl, rd))
        records = [keyed[k] for k in sorted(keyed, key=lambda k: (k[0], k[1], k[2], k[3]))]
    for n, ttl, rd in records:
        line = "%s %d %s %s %s" % (n.to_text(), ttl, dns.rdataclass.to_text(rd.rdclass),
                                   dns.rdatatype.to_text(rd.rdtype), rd.to_text(relativize=False))
        if dns.rdatatype.to_text(rd.rdtype) in GENERIC:
            # RFC 3597 section 5: TYPEnnn, \#, the length, the octets in hex
            wire = rd.to_wire()
            owner = ldns_text("%s %d %s TXT \"\"" % (n.to_text(), ttl,
                                                       dns.rdataclass.to_text(rd.rdclass)))
            owner = owner.split("\t")[0]
            text = "%s\t%d\t%s\tTYPE%d\t\\# %d%s\n" % (
                owner, ttl, dns.rdataclass.to_text(rd.rdclass), rd.rdtype, len(wire),
                " " + wire.hex() if wire else "")
        else:
            text = ldns_text(line)
        if unicode:
            to_unicode = (encodings.idna.ToUnicode if codec is dns.name.IDNA_2003
                          else lambda label: codec.decode(label.encode()))
            text = re.sub(r"(?<![^\s.])xn--[a-z0-9-]+(?=\.)",
                          lambda m: to_unicode(m.group(0)), text)
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
