/* Pass 1 entry point: source text to AST. */
#ifndef TAPC_PARSE_H
#define TAPC_PARSE_H

#include "ast.h"
#include "diag.h"
#include "lexer.h"

/* Parse one file into a new struct script (never NULL; free it with
 * script_free). Errors are reported through d as "parse error"; parsing
 * recovers at the next top-level probe/global/function/private/%{, so
 * several independent errors are reported in one run, and the script
 * then holds the declarations that parsed. A caller must not go on to
 * later passes when d->errors grew. Embedded C (%{ %}) and guru-only
 * operators (@const, @kderef, @kregister) are refused unless
 * f->privileged or env->guru_mode. The library macros in env->library
 * are visible. f and env must outlive the call; the tree's positions
 * point into f. */
struct script *parse_script(struct srcfile *f, const struct pass1_env *env,
			    struct diag *d);

#endif
