/* wire.h -- limits of DNS names in wire form (RFC 1035 section 2.3.4) */
#ifndef ZP_WIRE_H
#define ZP_WIRE_H

#define ZP_LABEL_MAX 63   /* octets in one label */
#define ZP_NAME_MAX 255   /* octets in a whole name, length octets and the root included */

#endif
