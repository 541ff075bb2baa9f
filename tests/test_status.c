/* test_status.c -- the status table: every code has a distinct value, a name and a message */
#include <criterion/criterion.h>
#include <string.h>

#include "idna/status.h"

static const zp_status all[] = {
#define ROW(name, value, msg) name,
  ZP_STATUS_LIST(ROW)
#undef ROW
};
enum { N = sizeof all / sizeof all[0] };

Test(status, values_are_distinct)
{
  for (size_t i = 0; i < N; i++)
    for (size_t j = i + 1; j < N; j++)
      cr_expect_neq(all[i], all[j], "%s and %s share a value", zp_errname(all[i]),
                    zp_errname(all[j]));
}

Test(status, names_and_messages)
{
  cr_expect_str_eq(zp_errname(ZP_PUNY_OVERFLOW), "ZP_PUNY_OVERFLOW");
  cr_expect_str_eq(zp_strerror(ZP_OK), "success");
  for (size_t i = 0; i < N; i++) {
    cr_expect_neq(strcmp(zp_errname(all[i]), "ZP_UNKNOWN"), 0);
    cr_expect_gt(strlen(zp_strerror(all[i])), 5u);
  }
  cr_expect_str_eq(zp_strerror((zp_status)12345), "unknown status");
  cr_expect_str_eq(zp_errname((zp_status)12345), "ZP_UNKNOWN");
}

Test(status, ok_is_zero_and_errors_negative)
{
  cr_expect_eq(ZP_OK, 0);
  for (size_t i = 1; i < N; i++)
    cr_expect_lt((int)all[i], 0, "%s", zp_errname(all[i]));
}
