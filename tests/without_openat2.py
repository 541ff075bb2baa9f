#!/usr/bin/python3
"""without_openat2.py -- run a command on a kernel that seems to lack openat2(2).

usage: without_openat2.py COMMAND [ARG...]

A seccomp filter (seccomp(2), SECCOMP_RET_ERRNO) makes openat2 fail with ENOSYS, as on kernels
before 5.6, and the command is executed under it: zonepuny then opens $INCLUDE files with its
O_NOFOLLOW walk, which the tests hold to the same promises as openat2's RESOLVE_BENEATH. Exits
77 (the test runner's "skipped") when the filter cannot be installed.
"""
import ctypes
import errno
import os
import struct
import sys

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SECCOMP_RET_ERRNO, SECCOMP_RET_ALLOW = 0x00050000, 0x7FFF0000
BPF_LD_W_ABS, BPF_JEQ_K, BPF_RET_K = 0x20, 0x15, 0x06
NR_OPENAT2 = 437   # the same number in every architecture's table since Linux 5.6


def insn(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    prog = b"".join([
        insn(BPF_LD_W_ABS, 0, 0, 0),                     # seccomp_data.nr
        insn(BPF_JEQ_K, 0, 1, NR_OPENAT2),
        insn(BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS),
        insn(BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),
    ])
    buf = ctypes.create_string_buffer(prog, len(prog))
    fprog = SockFprog(len(prog) // 8, ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    if (libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or
            libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0):
        print("without_openat2.py: seccomp: %s" % os.strerror(ctypes.get_errno()), file=sys.stderr)
        sys.exit(77)
    os.execvp(sys.argv[1], sys.argv[1:])


main()
