/* lsp_rpc.c -- LSP's base protocol: headers read, bodies parsed with jansson, messages written */
#define _GNU_SOURCE   /* open_memstream */
#include "lsp_rpc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/text.h"

/* The header block: its Content-Length in *len, or -1 when it had none (or a bad one). A line
 * longer than the buffer is no header of LSP's. */
static int read_headers(FILE *in, long long *len)
{
  char line[1024];
  bool any = false;
  *len = -1;
  for (;;) {
    if (!fgets(line, sizeof line, in))
      return any ? 1 : 0;
    any = true;
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n')
      line[--n] = '\0';
    if (n && line[n - 1] == '\r')
      line[--n] = '\0';
    if (n == 0)
      return 1;
    static const char cl[] = "Content-Length:";
    if (strncasecmp(line, cl, sizeof cl - 1) == 0) {
      char *end;
      long long v = strtoll(line + sizeof cl - 1, &end, 10);
      *len = end != line + sizeof cl - 1 && *end == '\0' && v >= 0 ? v : -1;
    }
  }
}

zp_rpc_read zp_rpc_next(FILE *in, json_t **msg, const char **why)
{
  *msg = NULL;
  long long len;
  if (!read_headers(in, &len))
    return ZP_RPC_END;
  if (len < 0) {
    *why = "a header without a valid Content-Length";
    return ZP_RPC_UNREADABLE;
  }
  if (len > ZP_RPC_BODY_MAX) {
    for (long long i = 0; i < len; i++)   /* (passed over, to go on at the next header) */
      if (getc(in) == EOF)
        return ZP_RPC_END;
    *why = "a message longer than 256 MiB";
    return ZP_RPC_UNREADABLE;
  }
  char *body = malloc((size_t)len + 1);
  if (!body) {
    *why = "out of memory";
    return ZP_RPC_UNREADABLE;
  }
  if (fread(body, 1, (size_t)len, in) != (size_t)len) {
    free(body);
    return ZP_RPC_END;
  }
  json_error_t err;
  *msg = json_loadb(body, (size_t)len, JSON_REJECT_DUPLICATES, &err);
  free(body);
  if (!*msg) {
    *why = "a body that is not JSON";
    return ZP_RPC_UNREADABLE;
  }
  return ZP_RPC_MESSAGE;
}

bool zp_rpc_send(FILE *out, json_t *msg)
{
  if (!msg)
    return false;
  if (!json_object_get(msg, "jsonrpc"))
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
  char *body = json_dumps(msg, JSON_COMPACT);
  json_decref(msg);
  if (!body)
    return false;
  size_t n = strlen(body);
  bool ok = fprintf(out, "Content-Length: %zu\r\n\r\n", n) > 0 && fwrite(body, 1, n, out) == n &&
            fflush(out) == 0;
  free(body);
  return ok;
}

bool zp_rpc_result(FILE *out, json_t *id, json_t *result)
{
  return zp_rpc_send(out, json_pack("{s:O?,s:o}", "id", id, "result",
                                    result ? result : json_null()));
}

bool zp_rpc_error(FILE *out, json_t *id, int code, const char *message)
{
  return zp_rpc_send(out, json_pack("{s:O?,s:{s:i,s:s}}", "id", id, "error", "code", code,
                                    "message", message));
}

bool zp_rpc_notify(FILE *out, const char *method, json_t *params)
{
  return zp_rpc_send(out, json_pack("{s:s,s:o}", "method", method, "params", params));
}

json_t *zp_lsp_string(const char *s, size_t n)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m)
    return NULL;
  zp_text_write(m, s, n);
  json_t *j = fclose(m) == 0 ? json_stringn(buf, len) : NULL;
  free(buf);
  return j;
}
