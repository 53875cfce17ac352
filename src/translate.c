/* Pass 3: the module's layout (see translate.h and translate_int.h).
 *
 * main_c is written in this order: the script's top-level %{ %} blocks,
 * the globals, the frames of every body and the per-CPU locals area they
 * make up, the bodies (script functions, then probe handlers, then the
 * end-of-run display of globals written but never read), and last the
 * tables the runtime reads.
 */
#include "callee.h"
#include "translate.h"
#include "translate_usym.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pptext.h"
#include "probes/family.h"
#include "translate_int.h"
#include "version.h"

/* ---- small helpers ----------------------------------------------------- */

void tr_line(struct tr *T, const char *fmt, ...)
{
	va_list ap;

	for (int i = 0; i < T->indent && i < TR_MAX_INDENT; i++)
		strbuf_addc(&T->body, '\t');
	va_start(ap, fmt);
	strbuf_vaddf(&T->body, fmt, ap);
	va_end(ap);
	strbuf_addc(&T->body, '\n');
}

void tr_error(struct tr *T, const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_verror(T->d, pos, "semantic error", fmt, ap);
	va_end(ap);
	T->failed = true;
}

char *tr_label(struct tr *T, const char *what)
{
	return xasprintf("%s_%d", what, T->nlabel++);
}

char *tr_fixed(struct tr *T, const char *ctype, const char *suffix)
{
	int n = T->n_fixed++;

	strbuf_addf(&T->frame, "\t%s f%d%s;\n", ctype, n, suffix);
	return xasprintf("l->f%d", n);
}

char *tr_cstr(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addc(&sb, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '"' || ch == '\\')
			strbuf_addf(&sb, "\\%c", ch);
		else if (ch == '\n')
			strbuf_adds(&sb, "\\n");
		else if (ch == '\t')
			strbuf_adds(&sb, "\\t");
		else if (ch < 32 || ch >= 127 || ch == '?')
			/* octal escapes cannot run into the next character
			 * the way hex ones do; '?' avoids trigraphs */
			strbuf_addf(&sb, "\\%03o", ch);
		else
			strbuf_addc(&sb, (char)ch);
	}
	strbuf_addc(&sb, '"');
	return strbuf_detach(&sb);
}

/* A C identifier fragment from a script name (tapset names are plain
 * identifiers already; this keeps generated names readable). */
static char *cident(const char *prefix, int index, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%d_", prefix, index);
	for (const char *s = name; *s; s++)
		strbuf_addc(&sb, (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			    (*s >= '0' && *s <= '9') ? *s : '_');
	return strbuf_detach(&sb);
}

const struct tr_global *tr_global_of(const struct tr *T, const struct vardecl *v)
{
	int i = ptrindex_get(&T->global_index, v);

	return i >= 0 ? &T->globals[i] : NULL;
}

static int global_index(const struct tr *T, const struct vardecl *v)
{
	return ptrindex_get(&T->global_index, v);
}

/* Locals and parameters are frame fields named after their vardecl. */
static char *local_field(const struct vardecl *v)
{
	return cident("v", 0, v->name);
}

/* Whether NAME is reserved in C (C11 and the GNU keywords the kernel's
 * compiler knows), and so cannot name a frame field. */
static bool c_reserved(const char *name)
{
	static const char *const words[] = {
		"_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic",
		"_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local", "asm",
		"auto", "break", "case", "char", "const", "continue", "default", "do",
		"double", "else", "enum", "extern", "float", "for", "goto", "if",
		"inline", "int", "long", "register", "restrict", "return", "short",
		"signed", "sizeof", "static", "struct", "switch", "typedef", "typeof",
		"union", "unsigned", "void", "volatile", "while",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(words[i], name) == 0)
			return true;
	return false;
}

/* Parameters of %{ %} functions keep their own names where C allows: old
 * tapset C reads them as THIS->name.  STAP_ARG_name works for every name. */
char *tr_param_field(const struct sem_function *f, int i)
{
	if (f->decl->embedded && !c_reserved(f->params[i]->name))
		return xstrdup(f->params[i]->name);
	return local_field(f->params[i]);
}

char *tr_var(struct tr *T, const struct vardecl *v)
{
	if (v->global) {
		const struct tr_global *g = tr_global_of(T, v);

		return xstrdup(g ? g->cname : "0");
	}
	char *f = local_field(v);
	char *r = xasprintf("l->%s", f);

	free(f);
	return r;
}

/* ---- globals ------------------------------------------------------------ */

static void collect_globals(struct tr *T)
{
	T->nglobals = (int)T->p->globals.n;
	T->globals = xcalloc((size_t)T->nglobals + 1, sizeof(*T->globals));
	for (int i = 0; i < T->nglobals; i++) {
		const struct vardecl *v = T->p->globals.v[i];

		T->globals[i].v = v;
		T->globals[i].cname = cident("tapg", i, v->name);
		ptrindex_set(&T->global_index, v, i);
	}
}

static bool global_is_scalar(const struct vardecl *v)
{
	return v->arity <= 0 && v->type != SEM_STATS;
}

static void emit_global_vars(struct tr *T, FILE *out)
{
	for (int i = 0; i < T->nglobals; i++) {
		const struct tr_global *g = &T->globals[i];
		const struct vardecl *v = g->v;
		const struct expr *init = v->decl ? v->decl->init : NULL;

		if (!global_is_scalar(v)) {
			fprintf(out, "static struct tap_map *%s;\n", g->cname);
		} else if (v->type == SEM_STRING) {
			char *lit = init && init->kind == E_STR ?
				tr_cstr(init->str, init->len) : xstrdup("\"\"");

			fprintf(out, "char %s[MAXSTRINGLEN] = %s;\n", g->cname, lit);
			free(lit);
		} else {
			int64_t n = init && init->kind == E_NUM ? init->num : 0;

			/* -2^63 has no literal of its own in C */
			if (n == INT64_MIN)
				fprintf(out, "long long %s = -9223372036854775807LL - 1;\n",
					g->cname);
			else
				fprintf(out, "long long %s = %" PRId64 "LL;\n", g->cname, n);
		}
	}
	if (T->nglobals)
		fputc('\n', out);
}

static const char *tap_type_of(enum sem_type t)
{
	return t == SEM_STRING ? "TAP_T_STR" : t == SEM_STATS ? "TAP_T_STAT" :
		"TAP_T_LONG";
}

static void emit_global_table(struct tr *T, FILE *out)
{
	fputs("const struct tap_global tap_globals[] = {\n", out);
	for (int i = 0; i < T->nglobals; i++) {
		const struct tr_global *g = &T->globals[i];
		const struct vardecl *v = g->v;

		fprintf(out, "\t{ .name = \"%s\", ", v->name);
		if (global_is_scalar(v)) {
			fprintf(out, ".kind = %s, .addr = %s%s },\n",
				v->type == SEM_STRING ? "TAP_GLOBAL_STR" : "TAP_GLOBAL_LONG",
				v->type == SEM_STRING ? "" : "&", g->cname);
			continue;
		}
		if (v->arity <= 0) {
			fprintf(out, ".kind = TAP_GLOBAL_STAT, .addr = &%s, "
				".val_type = TAP_T_STAT, ", g->cname);
		} else {
			fprintf(out, ".kind = TAP_GLOBAL_MAP, .addr = &%s, "
				".max_entries = %" PRId64 ", .wrap = %d, .nkeys = %d, "
				".key_types = { ", g->cname, v->maxsize, v->wrap ? 1 : 0,
				v->arity);
			for (int k = 0; k < v->arity; k++)
				fprintf(out, "%s%s", k ? ", " : "",
					tap_type_of(v->index_types[k]));
			fprintf(out, " }, .val_type = %s, ", tap_type_of(v->type));
		}
		if (v->hist == HIST_LOG)
			fputs(".hist = { .type = TAP_H_LOG }", out);
		else if (v->hist == HIST_LINEAR)
			fprintf(out, ".hist = { .type = TAP_H_LINEAR, .start = %" PRId64
				"LL, .stop = %" PRId64 "LL, .interval = %" PRId64 "LL }",
				v->hist_args[0], v->hist_args[1], v->hist_args[2]);
		else
			fputs(".hist = { .type = TAP_H_NONE }", out);
		fputs(" },\n", out);
	}
	if (!T->nglobals)
		fputs("\t{ .name = 0 }\n", out);
	fputs("};\n", out);
	fprintf(out, "const unsigned int tap_nglobals = %d;\n\n", T->nglobals);
}

/* ---- bodies ------------------------------------------------------------- */

static void body_begin(struct tr *T, struct sem_function *fn)
{
	strbuf_free(&T->body);
	strbuf_free(&T->frame);
	strbuf_free(&T->chunks);
	T->nchunks = 0;
	T->fn = fn;
	T->indent = 1;
	T->n_ltmp = T->max_ltmp = 0;
	T->n_stmp = T->max_stmp = 0;
	T->n_fixed = 0;
	T->nlabel = 0;
	T->pending_actions = 0;
	T->err_label = "out";
	T->brk_label = T->cont_label = NULL;
}

/* The temporaries the body needed go at the end of its frame. */
static char *body_frame(struct tr *T)
{
	for (int i = 0; i < T->max_ltmp; i++)
		strbuf_addf(&T->frame, "\tlong long t%d;\n", i);
	for (int i = 0; i < T->max_stmp; i++)
		strbuf_addf(&T->frame, "\tchar s%d[MAXSTRINGLEN];\n", i);
	strbuf_adds(&T->frame, "\tchar unused_;\n");
	return strbuf_detach(&T->frame);
}

static void frame_var(struct tr *T, const struct vardecl *v)
{
	char *f = local_field(v);

	if (v->type == SEM_STRING)
		strbuf_addf(&T->frame, "\tchar %s[MAXSTRINGLEN];\n", f);
	else
		strbuf_addf(&T->frame, "\tlong long %s;\n", f);
	free(f);
}

static bool frame_local(const struct vardecl *v)
{
	return !v->elided && v->type != SEM_UNKNOWN && v->type != SEM_STATS;
}

/* From this many numeric locals on, they are cleared by one tap_memset:
 * thousands of stores in a row cost gcc's vectoriser minutes at -O2. */
#define TR_MEMSET_LOCALS 16

/* The numeric locals, side by side in the frame, cleared at once. */
static void clear_long_locals(struct tr *T, const struct vec *locals)
{
	char *first = NULL, *last = NULL;

	for (size_t i = 0; i < locals->n; i++) {
		const struct vardecl *v = locals->v[i];

		if (!frame_local(v) || v->type == SEM_STRING)
			continue;
		frame_var(T, v);
		free(last);
		last = local_field(v);
		if (!first)
			first = xstrdup(last);
	}
	tr_line(T, "tap_memset(&l->%s, 0, (char *)(&l->%s + 1) - (char *)&l->%s);",
		first, last, first);
	free(first);
	free(last);
}

/* Locals start as 0 and "" at each entry. */
static void init_locals(struct tr *T, const struct vec *locals)
{
	size_t nlong = 0;

	for (size_t i = 0; i < locals->n; i++) {
		const struct vardecl *v = locals->v[i];

		nlong += frame_local(v) && v->type != SEM_STRING;
	}
	if (nlong >= TR_MEMSET_LOCALS)
		clear_long_locals(T, locals);
	for (size_t i = 0; i < locals->n; i++) {
		const struct vardecl *v = locals->v[i];
		char *f;

		if (!frame_local(v) || (nlong >= TR_MEMSET_LOCALS && v->type != SEM_STRING))
			continue;
		frame_var(T, v);
		f = local_field(v);
		if (v->type == SEM_STRING)
			tr_line(T, "l->%s[0] = '\\0';", f);
		else
			tr_line(T, "l->%s = 0;", f);
		free(f);
	}
}

static const char *ret_ctype(const struct sem_function *f)
{
	return f->type == SEM_STRING ? "char *ret" : f->type == SEM_LONG ?
		"long long *ret" : "void *ret";
}

char *tr_fn_cname(const struct tr *T, const struct sem_function *f)
{
	int i = ptrindex_get(&T->fn_index, f);

	return i >= 0 ? cident("tapf", i, f->name) : xstrdup("tapf_missing");
}

static void fn_signature(struct tr *T, struct strbuf *sb, const struct sem_function *f)
{
	char *name = tr_fn_cname(T, f);

	/* the arguments are in the frame already (pass_args) */
	strbuf_addf(sb, "static int %s(struct tap_context *c, %s)", name, ret_ctype(f));
	free(name);
}

/*
 * SystemTap reports errors that belong to a function as a whole
 * (MAXNESTING on entry, STAP_ERROR() in embedded C) near the function's
 * name in its declaration.
 */
static void set_function_where(struct tr *T, const struct sem_function *f)
{
	char *what = xasprintf("identifier '%s'", f->decl->name);
	char *where = tr_where_at(what, &f->decl->pos);

	tr_line(T, "TAP_STMT(c, %s);", where);
	free(where);
	free(what);
}

static unsigned privilege_level(const struct tr *T)
{
	return T->o->privilege ? T->o->privilege : PRIV_STAPDEV;
}

/* The kernel's string functions that SystemTap's embedded C calls and
 * tapc's runtime provides as tap_NAME. */
static const char *const string_basics[] = { "strlcpy", "strlcat", "strlen" };

/* The bodies of %{ %} functions see SystemTap's embedded-C names. */
static void embedded_body(struct tr *T, const struct sem_function *f)
{
	bool str = f->type == SEM_STRING;

	/* At stapusr, C marked myproc-unprivileged (user memory and
	 * registers) runs only in the user's own processes, as SystemTap's
	 * assert_is_myproc(); else the hit fails with SystemTap's error. */
	if ((f->decl->pragmas & PRAGMA_MYPROC_UNPRIVILEGED) &&
	    privilege_is_stapusr(privilege_level(T))) {
		tr_line(T, "if (tap_assert_myproc(c))");
		tr_line(T, "\tgoto out;");
	}
	tr_line(T, "{");
	tr_line(T, "#define CONTEXT c");
	tr_line(T, "#define THIS l");
	for (int i = 0; i < f->n_params; i++) {
		char *pf = tr_param_field(f, i);

		tr_line(T, "#define STAP_ARG_%s (l->%s)", f->params[i]->name, pf);
		free(pf);
	}
	tr_line(T, "#define STAP_RETVALUE (l->__retvalue)");
	if (str)
		tr_line(T, "#define STAP_RETURN(v) do { tap_strlcpy(l->__retvalue, (v), "
			"MAXSTRINGLEN); goto out; } while (0)");
	else
		tr_line(T, "#define STAP_RETURN(v) do { l->__retvalue = (v); goto out; } "
			"while (0)");
	tr_line(T, "#define STAP_ERROR(...) do { tap_errorf(c, __VA_ARGS__); goto out; } "
		"while (0)");
	tr_line(T, "#define STAP_PRINTF(...) tap_cprintf(c, __VA_ARGS__)");
	tr_cglobals_begin(T, f->decl);
	/* tapset C written for SystemTap calls the kernel's string basics;
	 * a header the script included may already have them as macros
	 * (FORTIFY_SOURCE's strlen), which come back afterwards */
	for (size_t i = 0; i < sizeof(string_basics) / sizeof(string_basics[0]); i++) {
		tr_line(T, "#pragma push_macro(\"%s\")", string_basics[i]);
		tr_line(T, "#undef %s", string_basics[i]);
		tr_line(T, "#define %s tap_%s", string_basics[i], string_basics[i]);
	}
	strbuf_adds(&T->body, f->decl->embedded);
	strbuf_addc(&T->body, '\n');
	tr_line(T, "#undef CONTEXT");
	tr_line(T, "#undef THIS");
	for (int i = 0; i < f->n_params; i++)
		tr_line(T, "#undef STAP_ARG_%s", f->params[i]->name);
	tr_line(T, "#undef STAP_RETVALUE");
	tr_line(T, "#undef STAP_RETURN");
	tr_line(T, "#undef STAP_ERROR");
	tr_line(T, "#undef STAP_PRINTF");
	tr_cglobals_end(T, f->decl);
	for (size_t i = 0; i < sizeof(string_basics) / sizeof(string_basics[0]); i++) {
		tr_line(T, "#undef %s", string_basics[i]);
		tr_line(T, "#pragma pop_macro(\"%s\")", string_basics[i]);
	}
	tr_line(T, "}");
}

/*
 * %{ %} expressions and statements inside a script function see its
 * parameters and return value by SystemTap's names too (pfiles.stp tests
 * S_ISLNK(STAP_ARG_i_mode) in an if).  Probes have neither.
 */
void tr_embedded_names_begin(struct tr *T, const void *node)
{
	const struct sem_function *f = T->fn;

	tr_line(T, "#define CONTEXT c");
	tr_cglobals_begin(T, node);
	if (!f)
		return;
	tr_line(T, "#define THIS l");
	for (int i = 0; i < f->n_params; i++) {
		char *pf = tr_param_field(f, i);

		tr_line(T, "#define STAP_ARG_%s (l->%s)", f->params[i]->name, pf);
		free(pf);
	}
	if (f->type == SEM_STRING || f->type == SEM_LONG)
		tr_line(T, "#define STAP_RETVALUE (l->__retvalue)");
}

void tr_embedded_names_end(struct tr *T, const void *node)
{
	const struct sem_function *f = T->fn;

	tr_line(T, "#undef CONTEXT");
	tr_cglobals_end(T, node);
	if (!f)
		return;
	tr_line(T, "#undef THIS");
	for (int i = 0; i < f->n_params; i++)
		tr_line(T, "#undef STAP_ARG_%s", f->params[i]->name);
	if (f->type == SEM_STRING || f->type == SEM_LONG)
		tr_line(T, "#undef STAP_RETVALUE");
}

static struct body_out gen_function(struct tr *T, size_t index)
{
	struct sem_function *f = T->p->functions.v[index];
	struct body_out b = { 0 };
	struct strbuf head = STRBUF_INIT;
	char *member = cident("tapf", (int)index, f->name);

	body_begin(T, f);
	T->cfunc = member;
	tr_line(T, "struct %s_frame *l;", member);
	tr_line(T, "int next_ = 0;");
	tr_line(T, "%s", "");
	set_function_where(T, f);
	tr_line(T, "if (TAP_NEST_ENTER(c))");
	tr_line(T, "\treturn 0;");
	tr_line(T, "l = &((struct tap_locals *)c->locals)->fn[c->nesting - 1].%s;", member);
	tr_line(T, "(void)l;");
	for (int i = 0; i < f->n_params; i++) {
		char *pf = tr_param_field(f, i);

		strbuf_addf(&T->frame, f->params[i]->type == SEM_STRING ?
			    "\tchar %s[MAXSTRINGLEN];\n" : "\tlong long %s;\n", pf);
		free(pf);
	}
	if (f->type == SEM_STRING) {
		strbuf_adds(&T->frame, "\tchar __retvalue[MAXSTRINGLEN];\n");
		tr_line(T, "l->__retvalue[0] = '\\0';");
	} else if (f->type == SEM_LONG) {
		strbuf_adds(&T->frame, "\tlong long __retvalue;\n");
		tr_line(T, "l->__retvalue = 0;");
	}
	init_locals(T, &f->locals);
	if (f->decl->embedded) {
		embedded_body(T, f);
	} else {
		/* a context-sensitive function's copy reads its probe's
		 * target variables (ctxfn.c) */
		T->dp = f->ctx_dp;
		tr_stmt(T, f->decl->body);
		tr_flush_actions_at(T, f->decl->body);
		T->dp = NULL;
	}
	T->indent = 0;
	tr_line(T, "out: __attribute__((unused));");
	T->indent = 1;
	if (f->type == SEM_STRING)
		tr_line(T, "tap_strlcpy(ret, l->__retvalue, MAXSTRINGLEN);");
	else if (f->type == SEM_LONG)
		tr_line(T, "*ret = l->__retvalue;");
	else
		tr_line(T, "(void)ret;");
	tr_line(T, "TAP_NEST_LEAVE(c);");
	tr_line(T, "return next_;");

	strbuf_adds(&head, T->chunks.buf ? T->chunks.buf : "");
	fn_signature(T, &head, f);
	strbuf_addf(&head, "\n{\n%s}\n\n", T->body.buf ? T->body.buf : "");
	b.code = strbuf_detach(&head);
	b.frame = body_frame(T);
	b.member = member;
	return b;
}

static void init_probe_locals(struct tr *T)
{
	init_locals(T, &T->dp->locals);
}

static struct body_out gen_probe(struct tr *T, size_t index, const struct lock_set *locks)
{
	struct derived_probe *dp = T->p->probes.v[index];
	struct body_out b = { 0 };
	struct strbuf head = STRBUF_INIT;
	char *entry = NULL;

	body_begin(T, NULL);
	T->dp = dp;
	b.member = xasprintf("probe_%zu", index);
	T->cfunc = b.member;
	if (dp->entry_exprs.n)
		entry = tr_entry_half(T, init_probe_locals);
	tr_line(T, "struct %s_frame *l = &((struct tap_locals *)c->locals)->probe.%s;",
		b.member, b.member);
	tr_line(T, "(void)l;");
	init_locals(T, &dp->locals);
	if (dp->cond) {
		char *cond = tr_expr(T, dp->cond);

		tr_line(T, "if (!tap_op_true(%s))", cond);
		tr_line(T, "\treturn;");
		free(cond);
		T->n_ltmp = T->n_stmp = 0;
	}
	tr_stmt(T, dp->body);
	tr_flush_actions_at(T, dp->body);
	T->indent = 0;
	tr_line(T, "out: __attribute__((unused));");
	T->indent = 1;
	/* it may have changed what arms a probe */
	if (tr_arm_kicks(T, locks))
		tr_line(T, "tap_arm_kick();");
	tr_line(T, "return;");
	T->dp = NULL;
	strbuf_adds(&head, T->chunks.buf ? T->chunks.buf : "");
	if (entry)
		strbuf_adds(&head, entry);
	free(entry);
	strbuf_addf(&head, "static void %s(struct tap_context *c)\n{\n%s}\n\n", b.member,
		    T->body.buf ? T->body.buf : "");
	b.code = strbuf_detach(&head);
	b.frame = body_frame(T);
	return b;
}

/* ---- lock sets ---------------------------------------------------------- */

static bool is_stat_global(const struct tr *T, int g)
{
	return T->globals[g].v->type == SEM_STATS;
}

/* Raise global g's mode in the set being collected (T->lock_mode). */
static void lock_raise(struct tr *T, struct vec *touched, int g, int mode)
{
	if (!T->lock_mode[g])
		vec_push(touched, &T->globals[g]);
	if (T->lock_mode[g] < mode)
		T->lock_mode[g] = mode;
}

/* Plain globals: reads shared, writes exclusive.  Statistics are kept
 * per CPU by the runtime: "<<<" needs only the shared lock, while every
 * read (and delete) merges the CPUs' data and needs the exclusive one.
 * T->lock_adds counts one body's "<<<" per global; it is zero again when
 * this returns. */
static void lock_body(struct tr *T, const struct sem_body *u, struct vec *touched)
{
	for (size_t i = 0; i < u->aggs.n; i++) {
		int g = global_index(T, u->aggs.v[i]);

		if (g >= 0)
			T->lock_adds[g]++;
	}
	for (size_t i = 0; i < u->reads.n; i++) {
		int g = global_index(T, u->reads.v[i]);

		if (g >= 0)
			lock_raise(T, touched, g, is_stat_global(T, g) ? 2 : 1);
	}
	for (size_t i = 0; i < u->writes.n; i++) {
		int g = global_index(T, u->writes.v[i]);

		if (g < 0)
			continue;
		if (is_stat_global(T, g) && T->lock_adds[g] > 0) {
			T->lock_adds[g]--;
			lock_raise(T, touched, g, 1);
		} else {
			lock_raise(T, touched, g, 2);
		}
	}
	for (size_t i = 0; i < u->aggs.n; i++) {
		int g = global_index(T, u->aggs.v[i]);

		if (g >= 0)
			T->lock_adds[g] = 0;
	}
}

static int cmp_global(const void *a, const void *b)
{
	const struct tr_global *x = *(const struct tr_global *const *)a;
	const struct tr_global *y = *(const struct tr_global *const *)b;

	return (x > y) - (x < y);
}

/* The globals a probe and the functions it calls use.  The walk costs
 * what the probe reaches, not the size of the program: the marks of the
 * functions seen carry this walk's number (T->lock_walk). */
static struct lock_set lock_set_of(struct tr *T, const struct derived_probe *dp)
{
	struct vec bodies = { 0 }, touched = { 0 };
	struct lock_set set = { 0 };

	T->lock_walk++;
	vec_push(&bodies, (void *)&dp->uses);
	while (bodies.n) {
		const struct sem_body *u = bodies.v[--bodies.n];

		lock_body(T, u, &touched);
		for (size_t i = 0; i < u->calls.n; i++) {
			struct sem_function *f = u->calls.v[i];
			int k = ptrindex_get(&T->fn_index, f);

			if (k < 0 || T->lock_seen[k] == T->lock_walk)
				continue;
			T->lock_seen[k] = T->lock_walk;
			vec_push(&bodies, &f->uses);
		}
	}
	/* the runtime takes the locks in the order of the globals */
	if (touched.n)
		qsort(touched.v, touched.n, sizeof(touched.v[0]), cmp_global);
	set.n = (int)touched.n;
	set.g = xcalloc(touched.n + 1, sizeof(int));
	set.mode = xcalloc(touched.n + 1, sizeof(int));
	for (size_t i = 0; i < touched.n; i++) {
		int g = (int)((struct tr_global *)touched.v[i] - T->globals);

		set.g[i] = g;
		set.mode[i] = T->lock_mode[g];
		T->lock_mode[g] = 0;
	}
	vec_free(&bodies);
	vec_free(&touched);
	return set;
}

void tr_lock_set_free(struct lock_set *set)
{
	free(set->g);
	free(set->mode);
	memset(set, 0, sizeof(*set));
}

static int emit_locks(FILE *out, const char *name, const struct lock_set *set)
{
	if (!set->n)
		return 0;
	fprintf(out, "static const struct tap_lock_req %s_locks[] = {", name);
	for (int i = 0; i < set->n; i++)
		fprintf(out, " { %d, %d },", set->g[i], set->mode[i] == 2);
	fputs(" };\n", out);
	return set->n;
}

/* ---- auto-printing of globals written but never read ------------------- */

static bool any_auto_print(const struct tr *T)
{
	if (!T->o->global_var_display)
		return false;
	for (int i = 0; i < T->nglobals; i++)
		if (T->globals[i].v->auto_print)
			return true;
	return false;
}

/* printf text that prints one key of a foreach element. */
static void display_array(struct tr *T, const struct tr_global *g)
{
	const struct vardecl *v = g->v;
	struct strbuf fmt = STRBUF_INIT, args = STRBUF_INIT;
	int nargs = 0;

	tr_line(T, "{");
	T->indent++;
	tr_line(T, "long long i, n;");
	/* SystemTap's display sorts on the value, decreasing */
	tr_line(T, "n = tap_foreach_start(c, %s, 0, -1, %s, -1);", g->cname,
		v->type == SEM_STATS ? "TAP_STAT_OP_COUNT" : "0");
	tr_line(T, "if (n < 0)");
	tr_line(T, "\tgoto out;");
	tr_line(T, "for (i = 0; i < n; i++) {");
	T->indent++;
	tr_line(T, "struct tap_map_entry *e;");
	tr_line(T, "if ((e = tap_foreach_get(%s, i)) == NULL)", g->cname);
	tr_line(T, "\tcontinue;");
	strbuf_addf(&fmt, "%s[", v->name);
	for (int k = 0; k < v->arity; k++) {
		bool s = v->index_types[k] == SEM_STRING;

		strbuf_adds(&fmt, k ? (s ? ",\\\"%#s\\\"" : ",%#d") : (s ? "\\\"%#s\\\"" : "%#d"));
		strbuf_addf(&args, "%s%s(tap_entry_key_%s(%s, e, %d))", nargs ? ", " : "",
			    s ? "TAP_PSTR" : "TAP_PNUM", s ? "str" : "long", g->cname, k);
		nargs++;
	}
	strbuf_adds(&fmt, "]");
	if (v->type == SEM_STATS) {
		static const char *const ops[] = { "COUNT", "MIN", "MAX", "SUM", "AVG" };

		tr_line(T, "long long a[5];");
		for (int k = 0; k < 5; k++) {
			tr_line(T, "if (tap_entry_stat(c, %s, e, TAP_STAT_OP_%s, 0, &a[%d]))",
				g->cname, ops[k], k);
			tr_line(T, "\tgoto out;");
		}
		strbuf_adds(&fmt, " @count=%#d @min=%#d @max=%#d @sum=%#d @avg=%#d\\n");
		for (int k = 0; k < 5; k++)
			strbuf_addf(&args, ", TAP_PNUM(a[%d])", k);
		nargs += 5;
	} else if (v->type == SEM_STRING) {
		strbuf_adds(&fmt, "=\\\"%#s\\\"\\n");
		strbuf_addf(&args, ", TAP_PSTR(tap_entry_str(%s, e))", g->cname);
		nargs++;
	} else {
		strbuf_adds(&fmt, v->holds_pointer ? "=%#x\\n" : "=%d\\n");
		strbuf_addf(&args, ", TAP_PNUM(tap_entry_long(%s, e))", g->cname);
		nargs++;
	}
	tr_line(T, "const struct tap_parg pa[] = { %s };", args.buf);
	tr_line(T, "if (tap_printf(c, \"%s\", %d, pa) < 0)", fmt.buf, nargs);
	tr_line(T, "\tgoto out;");
	T->indent--;
	tr_line(T, "}");
	T->indent--;
	tr_line(T, "}");
	strbuf_free(&fmt);
	strbuf_free(&args);
}

static void display_scalar_stat(struct tr *T, const struct tr_global *g)
{
	static const char *const ops[] = { "COUNT", "MIN", "MAX", "SUM", "AVG" };
	const char *name = g->v->name;

	/* an empty statistic shows only its count, as SystemTap's does */
	tr_line(T, "{");
	T->indent++;
	tr_line(T, "long long a[5] = { 0, 0, 0, 0, 0 };");
	tr_line(T, "if (tap_stat_get(c, %s, 0, TAP_STAT_OP_COUNT, 0, &a[0]))", g->cname);
	tr_line(T, "\tgoto out;");
	tr_line(T, "if (a[0] > 0) {");
	for (int k = 1; k < 5; k++) {
		tr_line(T, "\tif (tap_stat_get(c, %s, 0, TAP_STAT_OP_%s, 0, &a[%d]))",
			g->cname, ops[k], k);
		tr_line(T, "\t\tgoto out;");
	}
	tr_line(T, "\tconst struct tap_parg pa[] = { TAP_PNUM(a[0]), TAP_PNUM(a[1]), "
		"TAP_PNUM(a[2]), TAP_PNUM(a[3]), TAP_PNUM(a[4]) };");
	tr_line(T, "\tif (tap_printf(c, \"%s @count=%%#d @min=%%#d @max=%%#d @sum=%%#d "
		"@avg=%%#d\\n\", 5, pa) < 0)", name);
	tr_line(T, "\t\tgoto out;");
	tr_line(T, "} else {");
	tr_line(T, "\ttap_print(c, \"%s @count=0x0\\n\");", name);
	tr_line(T, "}");
	T->indent--;
	tr_line(T, "}");
}

static struct body_out gen_display(struct tr *T)
{
	struct body_out b = { 0 };
	struct strbuf head = STRBUF_INIT;

	body_begin(T, NULL);
	b.member = xstrdup("probe_display");
	tr_line(T, "TAP_STMT(c, 0);");
	for (int i = 0; i < T->nglobals; i++) {
		const struct tr_global *g = &T->globals[i];
		const struct vardecl *v = g->v;

		if (!v->auto_print)
			continue;
		if (v->arity > 0) {
			display_array(T, g);
		} else if (v->type == SEM_STATS) {
			display_scalar_stat(T, g);
		} else if (v->type == SEM_STRING) {
			tr_line(T, "{");
			tr_line(T, "\tconst struct tap_parg pa[] = { TAP_PSTR(%s) };", g->cname);
			tr_line(T, "\tif (tap_printf(c, \"%s=\\\"%%#s\\\"\\n\", 1, pa) < 0)", v->name);
			tr_line(T, "\t\tgoto out;");
			tr_line(T, "}");
		} else {
			tr_line(T, "{");
			tr_line(T, "\tconst struct tap_parg pa[] = { TAP_PNUM(%s) };", g->cname);
			/* as SystemTap's: decimal, a C pointer in hex */
			tr_line(T, "\tif (tap_printf(c, \"%s=%s\\n\", 1, pa) < 0)", v->name,
				v->holds_pointer ? "%#x" : "%d");
			tr_line(T, "\t\tgoto out;");
			tr_line(T, "}");
		}
	}
	T->indent = 0;
	tr_line(T, "out: __attribute__((unused));");
	T->indent = 1;
	tr_line(T, "return;");
	T->dp = NULL;
	strbuf_addf(&head, "static void %s(struct tap_context *c)\n{\n%s}\n\n", b.member,
		    T->body.buf ? T->body.buf : "");
	b.code = strbuf_detach(&head);
	b.frame = body_frame(T);
	return b;
}

/* ---- module parameters --------------------------------------------------- */

static void emit_params(struct tr *T, FILE *out)
{
	fputs("/* Generated by tapc: module parameters that set script globals. */\n"
	      "#include <linux/module.h>\n#include <linux/moduleparam.h>\n"
	      "#include \"tapc_runtime.h\"\n\n", out);
	for (int i = 0; i < T->nglobals; i++) {
		const struct tr_global *g = &T->globals[i];
		const struct vardecl *v = g->v;

		/* private globals cannot be named from outside their file */
		if (!global_is_scalar(v) || v->is_private)
			continue;
		/* a global may share its name with a kernel macro (memory.stp's
		 * VM_FAULT_ERROR): the parameter's name must not expand */
		fprintf(out, "#undef %s\n", v->name);
		if (v->type == SEM_STRING) {
			fprintf(out, "extern char %s[MAXSTRINGLEN];\n", g->cname);
			fprintf(out, "module_param_string(%s, %s, MAXSTRINGLEN, 0);\n",
				v->name, g->cname);
		} else {
			/* long long is the kernel's long on the 64-bit targets */
			fprintf(out, "extern long long %s;\n", g->cname);
			fprintf(out, "module_param_cb(%s, &param_ops_long, &%s, 0);\n",
				v->name, g->cname);
			/* named in .modinfo, where tapc-run checks the
			 * parameters it passes (module_param_string
			 * names its own) */
			fprintf(out, "__MODULE_PARM_TYPE(%s, \"long\");\n", v->name);
		}
	}
}

/* ---- the whole module ------------------------------------------------------ */

static void emit_embeds(struct tr *T, FILE *out)
{
	for (size_t i = 0; i < T->p->embeds.n; i++) {
		const struct embedded *e = T->p->embeds.v[i];

		if (!T->o->guru && !(e->pos.file && e->pos.file->privileged)) {
			tr_error(T, &e->pos, "embedded code in unprivileged script; "
				 "need stap -g");
			continue;
		}
		fprintf(out, "%s\n", e->code);
	}
	/* SystemTap's module hooks, named by a macro of the script's C */
	if (T->p->embeds.n)
		fputs("#ifdef STAP_MODULE_INIT_HOOK\n"
		      "int (*const tap_script_init_hook)(void) = STAP_MODULE_INIT_HOOK;\n"
		      "#endif\n"
		      "#ifdef STAP_MODULE_EXIT_HOOK\n"
		      "void (*const tap_script_exit_hook)(void) = STAP_MODULE_EXIT_HOOK;\n"
		      "#endif\n", out);
}

/*
 * The --privilege level, in the section tapc-run reads to decide who may
 * load the module (as SystemTap's .stap_privilege, the same numbers) and
 * as the symbol the runtime reads to limit a stapusr module to the
 * processes of the user who loaded it.
 */
static void emit_privilege(struct tr *T, FILE *out)
{
	unsigned level = privilege_level(T);

	fprintf(out, "/* --privilege=%s */\n"
		"const unsigned int tap_privilege\n"
		"\t__attribute__((section(\".tapc_privilege\"), used)) = 0x%x;\n",
		privilege_name(level), level);
}

static bool any_embedded(const struct program *p)
{
	for (size_t i = 0; i < p->functions.n; i++)
		if (((const struct sem_function *)p->functions.v[i])->decl->embedded)
			return true;
	return p->embeds.n > 0;
}

/* Embedded C written for SystemTap calls the kernel's C library; main_c
 * includes no kernel header, so declare the exported functions it uses
 * most (the same prototypes as <linux/kernel.h> and <linux/string.h>). */
/* Operators go through these functions so that gcc's front end does not
 * see the script's constant or self comparisons, comparisons used as
 * numbers, or arithmetic used as a truth value: all legal in the script
 * language, all rejected by -Wall -Wextra -Werror when spelled inline.
 * A shift count is taken modulo 64 (its low 6 bits), as SystemTap 4.8's
 * translator masks it ("<< (n & 63)"); in C a count outside 0..63 would
 * be undefined.  Literal counts it folds are binary()'s (translate_expr.c). */
static const struct {
	const char *name;	/* as the generated code calls it */
	const char *def;
} op_helpers[] = {
	{ "tap_op_lt(", "static inline long long tap_op_lt(long long a, long long b) { return a < b; }" },
	{ "tap_op_gt(", "static inline long long tap_op_gt(long long a, long long b) { return a > b; }" },
	{ "tap_op_le(", "static inline long long tap_op_le(long long a, long long b) { return a <= b; }" },
	{ "tap_op_ge(", "static inline long long tap_op_ge(long long a, long long b) { return a >= b; }" },
	{ "tap_op_eq(", "static inline long long tap_op_eq(long long a, long long b) { return a == b; }" },
	{ "tap_op_ne(", "static inline long long tap_op_ne(long long a, long long b) { return a != b; }" },
	{ "tap_op_scmp(", "static inline long long tap_op_scmp(int r) { return r; }" },
	{ "tap_op_true(", "static inline int tap_op_true(long long a) { return a != 0; }" },
	{ "tap_op_not(", "static inline long long tap_op_not(long long a) { return a == 0; }" },
	{ "tap_op_sh", "static inline int tap_op_count(long long n) "
	  "{ return (int)(n & 63); }" },
	{ "tap_op_shl(", "static inline long long tap_op_shl(long long a, long long n)\n"
	  "{ return (long long)((unsigned long long)a << tap_op_count(n)); }" },
	{ "tap_op_shr(", "static inline long long tap_op_shr(long long a, long long n)\n"
	  "{ return a >> tap_op_count(n); }" },
	{ "tap_op_ushr(", "static inline long long tap_op_ushr(long long a, long long n)\n"
	  "{ return (long long)((unsigned long long)a >> tap_op_count(n)); }" },
};

static bool bodies_use(const struct body_out *b, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (b[i].code && strstr(b[i].code, name))
			return true;
	return false;
}

/* Only the helpers the bodies call, to keep the file short. */
static void emit_operator_helpers(FILE *out, const struct body_out *fns, size_t nfns,
				  const struct body_out *probes, size_t nprobes)
{
	bool any = false;

	for (size_t i = 0; i < sizeof(op_helpers) / sizeof(op_helpers[0]); i++) {
		const char *name = op_helpers[i].name;

		if (!bodies_use(fns, nfns, name) && !bodies_use(probes, nprobes, name)) {
			/* tap_op_count serves both right shifts too */
			if (strcmp(name, "tap_op_sh") || (!bodies_use(fns, nfns, "tap_op_ushr(")
			    && !bodies_use(probes, nprobes, "tap_op_ushr(")))
				continue;
		}
		fprintf(out, "%s\n", op_helpers[i].def);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

/* The module symbols module statics are read from (translate_tvar.c),
 * which the runtime looks up when the script starts. */
static void emit_modsyms(const struct tr *T, FILE *out)
{
	fputs("const char *const tap_modsyms[] = {", out);
	for (size_t i = 0; i < T->modsyms.n; i++)
		fprintf(out, " \"%s\",", (const char *)T->modsyms.v[i]);
	fprintf(out, " NULL };\nconst unsigned int tap_nmodsyms = %zu;\n", T->modsyms.n);
	/* the registers (or values computed from them) companion kprobes
	 * save at function entries */
	for (size_t i = 0; i < T->entryvals.n; i++) {
		const struct tr_entryval *ev = T->entryvals.v[i];

		if (ev->expr)
			fprintf(out, "static const struct tap_ev_op tap_evops%zu[] = {%s\n};\n", i,
				ev->expr_c);
	}
	fputs("const struct tap_entryval tap_entryvals[] = {", out);
	for (size_t i = 0; i < T->entryvals.n; i++) {
		const struct tr_entryval *ev = T->entryvals.v[i];
		char *lit = tr_cstr(ev->sym, strlen(ev->sym));

		fprintf(out, "\n\t{ %s, %#" PRIx64 "UL, %u, %d, ", lit, ev->offset, ev->reg,
			ev->user);
		if (ev->expr)
			fprintf(out, "tap_evops%zu, %u },", i, ev->nexpr);
		else
			fputs("NULL, 0 },", out);
		free(lit);
	}
	fprintf(out, "%s{ NULL, 0, 0, 0, NULL, 0 } };\nconst unsigned int tap_nentryvals = %zu;\n",
		T->entryvals.n ? "\n\t" : " ", T->entryvals.n);
	/* the limits the runtime reads, with this module's -D values */
	fprintf(out, "TAP_DEFINE_LIMITS_SUPPRESSING(%d);\n", T->o->suppress_handler_errors);
}

/* SystemTap's STAP_COMPAT_VERSION for embedded C's own version tests
 * (#if STAP_COMPAT_VERSION >= STAP_VERSION(1,8)): --compatible's major
 * and minor numbers, tapc's language version by default. */
static void emit_compat_version(FILE *out, const char *compatible)
{
	unsigned major = 0, minor = 0;

	if (!compatible || sscanf(compatible, "%u.%u", &major, &minor) < 1)
		sscanf(TAPC_COMPAT_VERSION, "%u.%u", &major, &minor);
	fprintf(out, "#define STAP_COMPAT_VERSION STAP_VERSION(%u, %u)\n",
		major, minor);
}

static void emit_kernel_decls(FILE *out)
{
	fputs("int snprintf(char *buf, unsigned long size, const char *fmt, ...)\n"
	      "\t__attribute__((format(printf, 3, 4)));\n"
	      "int scnprintf(char *buf, unsigned long size, const char *fmt, ...)\n"
	      "\t__attribute__((format(printf, 3, 4)));\n"
	      "int sprintf(char *buf, const char *fmt, ...)\n"
	      "\t__attribute__((format(printf, 2, 3)));\n"
	      "char *strncpy(char *dst, const char *src, unsigned long n);\n"
	      "int strcmp(const char *a, const char *b);\n"
	      "int strncmp(const char *a, const char *b, unsigned long n);\n"
	      "char *strchr(const char *s, int c);\n"
	      "void *memcpy(void *dst, const void *src, unsigned long n);\n"
	      "void *memset(void *s, int c, unsigned long n);\n"
	      "int memcmp(const void *a, const void *b, unsigned long n);\n"
	      "#include \"tapc_embedded.h\"\n\n", out);
}

static void emit_frames(FILE *out, struct body_out *fns, size_t nfns,
			struct body_out *probes, size_t nprobes)
{
	for (size_t i = 0; i < nfns; i++)
		fprintf(out, "struct %s_frame {\n%s};\n", fns[i].member, fns[i].frame);
	for (size_t i = 0; i < nprobes; i++)
		if (probes[i].frame)
			fprintf(out, "struct %s_frame {\n%s};\n", probes[i].member,
				probes[i].frame);
	fputs("\n/* This CPU's scratch area: the running probe's frame, then one\n"
	      " * function frame per nesting depth. */\nstruct tap_locals {\n"
	      "\tunion {\n\t\tchar none_;\n", out);
	for (size_t i = 0; i < nprobes; i++)
		if (probes[i].frame)
			fprintf(out, "\t\tstruct %s_frame %s;\n", probes[i].member,
				probes[i].member);
	fputs("\t} probe;\n\tunion {\n\t\tchar none_;\n", out);
	for (size_t i = 0; i < nfns; i++)
		fprintf(out, "\t\tstruct %s_frame %s;\n", fns[i].member, fns[i].member);
	fputs("\t} fn[MAXNESTING];\n};\n\n"
	      "const unsigned long tap_locals_size = sizeof(struct tap_locals);\n\n", out);
}

struct probe_row {
	const struct derived_probe *dp;
	struct lock_set locks;	/* the globals its handler locks */
	bool runs;
	bool armed;		/* has tap_armcond_INDEX() */
	size_t handler;		/* runs probe_HANDLER (translate_share.c) */
	const char *consts;	/* with this row of its constants, or NULL */
	size_t locks_of;	/* the row whose probe_N_locks it uses */
};

/* The text of a lock set, to find rows with equal ones. */
static char *lock_set_key(const struct lock_set *set)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < set->n; i++)
		strbuf_addf(&sb, "%d:%d,", set->g[i], set->mode[i]);
	return strbuf_detach(&sb);
}

/* One probe_N_locks array per distinct lock set: a wildcard's probes
 * mostly lock the same globals. */
static void emit_row_locks(FILE *out, struct probe_row *rows, size_t n)
{
	struct namemap seen = { 0 };
	char **keys = xcalloc(n + 1, sizeof(*keys));

	for (size_t i = 0; i < n; i++) {
		const struct vec *same;
		char *name;

		if (!rows[i].runs || !rows[i].locks.n)
			continue;
		keys[i] = lock_set_key(&rows[i].locks);
		same = namemap_get(&seen, keys[i]);
		if (same) {
			rows[i].locks_of = (size_t)same->v[0];
			continue;
		}
		namemap_add(&seen, keys[i], (void *)i);
		rows[i].locks_of = i;
		name = xasprintf("probe_%zu", i);
		emit_locks(out, name, &rows[i].locks);
		free(name);
	}
	namemap_free(&seen);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* Whether the program calls pn() or pnlabel(), which read tap_probe.pn. */
static bool uses_probe_name(const struct program *p)
{
	for (size_t i = 0; i < p->functions.n; i++) {
		const struct sem_function *f = p->functions.v[i];

		if (!strcmp(f->name, "pn") || !strcmp(f->name, "pnlabel"))
			return true;
	}
	return false;
}

/*
 * ".pn = TEXT, " for pn(): SystemTap's script-level probe point, the name
 * of the alias the user's point matched (after wildcard expansion), or
 * the point itself (what -l lists); nothing when that is pp.
 */
static void emit_probe_name(FILE *out, const struct derived_probe *dp,
			    const char *pp)
{
	char *pn = derived_list_name(dp), *pns;

	if (strcmp(pn, pp)) {
		pns = tr_cstr(pn, strlen(pn));
		fprintf(out, ".pn = %s, ", pns);
		free(pns);
	}
	free(pn);
}

static void emit_probe_table(struct tr *T, FILE *out, struct probe_row *rows,
			     size_t n, bool display)
{
	bool with_pn = uses_probe_name(T->p);

	emit_row_locks(out, rows, n);
	if (display) {
		struct lock_set set = { 0 };

		set.g = xcalloc((size_t)T->nglobals + 1, sizeof(int));
		set.mode = xcalloc((size_t)T->nglobals + 1, sizeof(int));
		for (int g = 0; g < T->nglobals; g++)
			if (T->globals[g].v->auto_print) {
				set.g[set.n] = g;
				set.mode[set.n++] = 1;
			}
		emit_locks(out, "probe_display", &set);
		tr_lock_set_free(&set);
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].runs && rows[i].dp->family->emit_support)
			rows[i].dp->family->emit_support(out, rows[i].dp, i);
	for (size_t i = 0; i < n; i++)
		if (rows[i].runs)
			callee_emit_support(T, out, rows[i].dp, i);
	for (size_t i = 0; i < n; i++)
		rows[i].armed = rows[i].runs && tr_arm_emit_cond(T, out, rows[i].dp, i);
	fputs("\nconst struct tap_probe tap_probes[] = {\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct derived_probe *dp = rows[i].dp;
		char *pp, *pps, *deriv, *loc;
		int nl = rows[i].locks.n;

		if (!rows[i].runs)
			continue;
		pp = pp_text(dp->loc);
		pps = tr_cstr(pp, strlen(pp));
		deriv = derivation_text(dp, " from: ");
		loc = xasprintf("%s:%d:%d", dp->origin && dp->origin->pos.file ?
				dp->origin->pos.file->name : "?",
				dp->origin ? dp->origin->pos.line : 0,
				dp->origin ? dp->origin->pos.col : 0);
		fputs("\t{ ", out);
		dp->family->emit_entry(out, dp, i);
		callee_emit_field(out, dp, i);
		if (rows[i].armed)
			fprintf(out, ".armcond = tap_armcond_%zu, ", i);
		{
			char *ls = tr_cstr(loc, strlen(loc));
			char *ds = tr_cstr(deriv, strlen(deriv));

			fprintf(out, ".handler = probe_%zu, ", rows[i].handler);
			if (dp->entry_exprs.n) {
				char *size = tr_entry_size(T, dp);

				fprintf(out, ".entry = probe_%zu_entry, .entry_size = %s, ",
					rows[i].handler, size);
				free(size);
			}
			if (rows[i].consts)
				fprintf(out, ".consts = %s, ", rows[i].consts);
			fprintf(out, ".pp = %s, .loc = %s, .derivation = %s, ", pps, ls, ds);
			if (with_pn)
				emit_probe_name(out, dp, pp);
			free(ls);
			free(ds);
		}
		if (nl)
			fprintf(out, ".locks = probe_%zu_locks, .nlocks = %d },\n",
				rows[i].locks_of, nl);
		else
			fputs(".locks = 0, .nlocks = 0 },\n", out);
		free(pp);
		free(pps);
		free(deriv);
		free(loc);
	}
	if (display) {
		int nl = 0;

		for (int g = 0; g < T->nglobals; g++)
			nl += T->globals[g].v->auto_print;
		/* SystemTap adds plain end probes after the script's */
		fprintf(out, "\t{ .kind = TAP_PROBE_END, .seq = 0, "
			".handler = probe_display, .pp = \"end\", .loc = \"<global display>\", "
			".derivation = \"end\", .locks = %s, .nlocks = %d },\n",
			nl ? "probe_display_locks" : "0", nl);
	}
	fputs("};\nconst unsigned int tap_nprobes = sizeof(tap_probes) / "
	      "sizeof(tap_probes[0]);\n", out);
}

bool translate(const struct program *p, const struct translate_options *o,
	       FILE *main_c, FILE *params_c, struct diag *d)
{
	struct tr T = { .p = p, .o = o, .d = d };
	size_t nfns = p->functions.n, nprobes = p->probes.n;
	struct body_out *fns = xcalloc(nfns + 1, sizeof(*fns));
	struct body_out *probes = xcalloc(nprobes + 2, sizeof(*probes));
	struct probe_row *rows = xcalloc(nprobes + 1, sizeof(*rows));
	bool display = false;
	size_t nruns = 0;
	struct strbuf shared = STRBUF_INIT;	/* constants of shared handlers */

	collect_globals(&T);
	for (size_t i = 0; i < nfns; i++)
		ptrindex_set(&T.fn_index, p->functions.v[i], (int)i);
	T.lock_mode = xcalloc((size_t)T.nglobals + 1, sizeof(int));
	T.lock_adds = xcalloc((size_t)T.nglobals + 1, sizeof(int));
	T.lock_seen = xcalloc(nfns + 1, sizeof(int));
	tr_arm_prepare(&T);
	for (size_t i = 0; i < nprobes; i++) {
		rows[i].dp = p->probes.v[i];
		rows[i].runs = rows[i].dp->runs;
		if (rows[i].runs)
			rows[i].locks = lock_set_of(&T, rows[i].dp);
		nruns += rows[i].runs;
	}
	for (size_t i = 0; i < nfns; i++)
		fns[i] = gen_function(&T, i);
	for (size_t i = 0; i < nprobes; i++)
		if (rows[i].runs)
			probes[i] = gen_probe(&T, i, &rows[i].locks);
	tr_share_handlers(probes, nprobes, &shared);
	for (size_t i = 0; i < nprobes; i++) {
		rows[i].handler = probes[i].handler;
		rows[i].consts = probes[i].consts;
	}
	display = any_auto_print(&T);
	if (display)
		probes[nprobes] = gen_display(&T);

	fprintf(main_c, "/* Generated by tapc (pass 3) for module %s. */\n"
		"#include \"tapc_runtime.h\"\n\n", o->module_name ? o->module_name : "?");
	emit_operator_helpers(main_c, fns, nfns, probes, nprobes + 1);
	if (o->guru)
		fputs("#define TAPC_GURU_HEADERS 1\n", main_c);
	if (o->guru || any_embedded(p)) {
		emit_compat_version(main_c, o->compatible);
		emit_kernel_decls(main_c);
	}
	emit_embeds(&T, main_c);
	emit_global_vars(&T, main_c);
	if (T.decls.buf)
		fprintf(main_c, "%s\n", T.decls.buf);
	emit_frames(main_c, fns, nfns, probes, nprobes + (display ? 1 : 0));
	for (size_t i = 0; i < nfns; i++) {
		struct strbuf sig = STRBUF_INIT;

		fn_signature(&T, &sig, p->functions.v[i]);
		/* with -u a function may be kept without callers */
		fprintf(main_c, "%s __attribute__((unused));\n", sig.buf);
		strbuf_free(&sig);
	}
	fputc('\n', main_c);
	if (shared.buf)
		fputs(shared.buf, main_c);
	for (size_t i = 0; i < nfns; i++)
		fputs(fns[i].code, main_c);
	for (size_t i = 0; i < nprobes + 1; i++)
		if (probes[i].code)
			fputs(probes[i].code, main_c);
	emit_global_table(&T, main_c);
	fprintf(main_c, "const int tap_timing = %d;\n", o->timing ? 1 : 0);
	translate_kmod_lines(&T, main_c, o->umods);
	callee_add_modsyms(&T);
	emit_modsyms(&T, main_c);
	emit_privilege(&T, main_c);
	translate_umods(main_c, o->umods);
	if (!nruns && !display)
		fputs("/* no probe runs: the table holds only a placeholder */\n", main_c);
	emit_probe_table(&T, main_c, rows, nprobes, display);
	if (params_c)
		emit_params(&T, params_c);

	for (size_t i = 0; i < nfns; i++) {
		free(fns[i].code);
		free(fns[i].frame);
		free(fns[i].member);
	}
	for (size_t i = 0; i < nprobes + 1; i++) {
		free(probes[i].code);
		free(probes[i].frame);
		free(probes[i].member);
		free(probes[i].consts);
	}
	for (int i = 0; i < T.nglobals; i++)
		free(T.globals[i].cname);
	free(T.globals);
	ptrindex_free(&T.global_index);
	ptrindex_free(&T.fn_index);
	ptrindex_free(&T.side_cache);
	free(T.arm_globals);
	free(T.lock_mode);
	free(T.lock_adds);
	free(T.lock_seen);
	for (size_t i = 0; i < nprobes; i++)
		tr_lock_set_free(&rows[i].locks);
	free(fns);
	free(probes);
	free(rows);
	strbuf_free(&T.body);
	strbuf_free(&T.frame);
	strbuf_free(&T.chunks);
	strbuf_free(&T.decls);
	for (size_t i = 0; i < T.modsyms.n; i++)
		free(T.modsyms.v[i]);
	free(T.modsyms.v);
	for (size_t i = 0; i < T.entryvals.n; i++) {
		free(((struct tr_entryval *)T.entryvals.v[i])->expr_c);
		free(T.entryvals.v[i]);
	}
	free(T.entryvals.v);
	strbuf_free(&shared);
	return !T.failed;
}
