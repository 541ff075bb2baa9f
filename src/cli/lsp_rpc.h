/* lsp_rpc.h -- LSP's base protocol: JSON-RPC 2.0 messages, each after a Content-Length header */
#ifndef ZP_LSP_RPC_H
#define ZP_LSP_RPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* JSON-RPC's and LSP's error codes */
enum {
  ZP_RPC_PARSE_ERROR = -32700, ZP_RPC_INVALID_REQUEST = -32600,
  ZP_RPC_METHOD_NOT_FOUND = -32601, ZP_RPC_INVALID_PARAMS = -32602,
  ZP_RPC_SERVER_NOT_INITIALIZED = -32002
};

/* A message's body is at most this long: a zone an editor holds is far smaller. */
enum { ZP_RPC_BODY_MAX = 256 << 20 };

typedef enum zp_rpc_read {
  ZP_RPC_MESSAGE,     /* *msg is the message (the caller's reference) */
  ZP_RPC_UNREADABLE,  /* a header or body that is no message: *why says what, and the stream
                         goes on at the next header */
  ZP_RPC_END          /* the input ended (or cannot be read) */
} zp_rpc_read;

/* The next message from in. */
zp_rpc_read zp_rpc_next(FILE *in, json_t **msg, const char **why);

/* Writes msg (its reference is taken) to out with its header; false when out fails. */
bool zp_rpc_send(FILE *out, json_t *msg);

/* A response to the request whose id is id (borrowed; NULL: null): its result (taken), or an
 * error of code with message. */
bool zp_rpc_result(FILE *out, json_t *id, json_t *result);
bool zp_rpc_error(FILE *out, json_t *id, int code, const char *message);
/* A notification: method and its params (taken). */
bool zp_rpc_notify(FILE *out, const char *method, json_t *params);

/* A JSON string of s[0..n) as the text formats show it (octets that are no UTF-8, and
 * controls, as \DDD): jansson takes UTF-8 only. */
json_t *zp_lsp_string(const char *s, size_t n);

#endif
