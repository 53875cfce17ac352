/* Regular expressions of =~ and !~: compiled by tapc (pass 3) into
 * programs for the runtime's matcher (runtime/core/regexec.c), emitted as
 * constant C data.
 *
 * The dialect is SystemTap's: POSIX extended syntax with | * + ? {m}
 * {m,} {m,n} (n < 12345), ( ) groups, (?: ) groups that capture nothing,
 * . [ ] [^ ] with ranges and [:alpha:] [:alnum:] [:blank:] [:cntrl:]
 * [:digit:] [:d:] [:xdigit:] [:graph:] [:lower:] [:l:] [:print:]
 * [:punct:] [:space:] [:s:] [:upper:] [:u:], anchors ^ (start of the
 * subject only) and $ (its end only), and \ that makes any character
 * literal (there are no \d \w \b classes; the script's string escapes
 * such as \n are decoded before the pattern is parsed).
 */
#ifndef TAPC_REGCOMP_H
#define TAPC_REGCOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct regex_prog;
struct tap_regex;

/*
 * Compile @pattern (the literal's decoded value).  On a bad pattern,
 * returns NULL and writes SystemTap's message to @err, e.g.
 * "regex compilation error (at position 2): unbalanced ')'", which the
 * caller reports as a semantic error at the literal.
 */
struct regex_prog *regex_compile(const char *pattern, char *err,
				 size_t errsize);

/* Only check @pattern: true if it compiles, else false and @err as above. */
bool regex_check(const char *pattern, char *err, size_t errsize);

/*
 * Write C that defines `static const struct tap_regex CNAME = {...};`
 * and the static arrays it points to (CNAME_prog, CNAME_classes).  The
 * generated file must include tapc_runtime.h (or tapc_regex.h) first.
 */
void regex_emit_c(FILE *out, const char *cname, const struct regex_prog *p);

/* Groups of the pattern, group 0 (the whole match) included. */
unsigned regex_ngroups(const struct regex_prog *p);

/* The program as the runtime sees it (for tests and tools). */
const struct tap_regex *regex_program(const struct regex_prog *p);

void regex_free(struct regex_prog *p);

#endif
