/* Unit tests for the pass-1 lexer (lexer.l), tokens (token.c) and the
 * preprocessor (preproc.c).
 *
 * Prints one line per failed check and ends with "N passed, N failed";
 * exits non-zero when anything failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lexer.h"
#include "util.h"

/* CHECK() and check_summary(): check.h */

/* ---- running the lexer or the preprocessor over a string ----------- */

#define MAXTOK 512

struct run {
	struct srcfile *file;
	struct token tok[MAXTOK];
	int n;			/* tokens, not counting the final EOF */
	struct token eof;
	struct srcpos from[MAXTOK];	/* copies of expanded_from */
	char *last;			/* text of the last token */
	int errors, warnings;
	char *msgs;		/* everything diag printed */
	bool saw_token;		/* preproc_saw_token at the end */
};

static const char *cfg_lookup(void *ctx, const char *name)
{
	(void)ctx;
	if (strcmp(name, "CONFIG_SMP") == 0)
		return "y";
	if (strcmp(name, "CONFIG_HZ") == 0)
		return "250";
	if (strcmp(name, "CONFIG_NR_CPUS") == 0)
		return "0x200";
	return NULL;
}

static char *test_argv[] = { "x + 1", "hello \"q\"", "$2", NULL };

static struct pass1_env test_env = {
	.kernel_vr = "6.1.0-57-amd64",
	.kernel_v = "6.1.0",
	.arch = "x86_64",
	.runtime = "kernel",
	.systemtap_v = "5.1",
	.guru_mode = false,
	.argc = 3,
	.argv = test_argv,
	.config = cfg_lookup,
};

static struct macro_lib *test_lib;

static void run_free(struct run *r)
{
	for (int i = 0; i < r->n; i++)
		token_free(&r->tok[i]);
	token_free(&r->eof);
	srcfile_free(r->file);
	free(r->msgs);
	free(r->last);
	free(r);
}

static void diag_to_mem(struct diag *d, char **buf, size_t *len)
{
	diag_init(d);
	d->stream = open_memstream(buf, len);
	if (!d->stream) {
		perror("open_memstream");
		exit(2);
	}
}

/* raw = true: lexer only; otherwise the preprocessor with test_env. */
static struct run *run(const char *src, bool raw)
{
	struct run *r = xcalloc(1, sizeof(*r));
	struct lexer *lx = NULL;
	struct preproc *pp = NULL;
	struct diag d;
	size_t len;

	diag_to_mem(&d, &r->msgs, &len);
	r->file = srcfile_new("t.stp", src, strlen(src));
	if (raw)
		lx = lexer_new(r->file, &d);
	else
		pp = preproc_new(r->file, &test_env, &d);
	if (pp && test_lib)
		preproc_set_library(pp, test_lib);
	for (;;) {
		struct token t;

		if (raw)
			lexer_next(lx, &t);
		else
			preproc_next(pp, &t);
		if (t.kind == TK_EOF) {
			r->eof = t;
			break;
		}
		free(r->last);
		r->last = xstrdup(t.text);
		if (r->n < MAXTOK) {
			/* the preprocessor owns what expanded_from points
			 * to, and it is freed below */
			if (t.expanded_from) {
				r->from[r->n] = *t.expanded_from;
				t.expanded_from = &r->from[r->n];
			}
			r->tok[r->n++] = t;
		} else {
			token_free(&t);
		}
	}
	lexer_free(lx);
	r->saw_token = pp && preproc_saw_token(pp);
	preproc_free(pp);
	fclose(d.stream);
	r->errors = d.errors;
	r->warnings = d.warnings;
	return r;
}

/* The token spellings joined by single spaces, e.g. "x = 1 + 2". */
static char *joined(const struct run *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < r->n; i++) {
		if (i)
			strbuf_addc(&sb, ' ');
		if (r->tok[i].kind == TK_STRING)
			strbuf_addf(&sb, "\"%s\"", r->tok[i].text);
		else
			strbuf_adds(&sb, r->tok[i].text);
	}
	return strbuf_detach(&sb);
}

/* Preprocess src; expect exactly the token spellings `want` and no
 * errors. */
static void expect_pp(int line, const char *src, const char *want)
{
	struct run *r = run(src, false);
	char *got = joined(r);

	check_at(strcmp(got, want) == 0, __FILE__, line,
		 "%s: got [%s], want [%s]", src, got, want);
	check_at(r->errors == 0, __FILE__, line,
		 "%s: unexpected errors:\n%s", src, r->msgs);
	free(got);
	run_free(r);
}

/* Preprocess (or lex) src; expect an error whose text contains msg. */
static void expect_err(int line, const char *src, bool raw, const char *msg)
{
	struct run *r = run(src, raw);

	check_at(r->errors > 0 && strstr(r->msgs, msg) != NULL, __FILE__, line,
		 "%s: want error containing [%s], got %d errors:\n%s", src, msg,
	      r->errors, r->msgs);
	run_free(r);
}

#define EXPECT_PP(src, want) expect_pp(__LINE__, src, want)
#define EXPECT_ERR(src, msg) expect_err(__LINE__, src, false, msg)
#define EXPECT_LEX_ERR(src, msg) expect_err(__LINE__, src, true, msg)

/* ---- lexer ------------------------------------------------------------ */

static void test_kinds(void)
{
	static const struct {
		const char *text;
		enum tok_kind kind;
	} cases[] = {
		{ "<<<", TK_AGG }, { ">>>", TK_USHR }, { "<<=", TK_SHL_ASSIGN },
		{ ">>=", TK_SHR_ASSIGN }, { "<<", TK_SHL }, { ">>", TK_SHR },
		{ ".=", TK_CAT_ASSIGN }, { "->", TK_ARROW }, { "=~", TK_MATCH },
		{ "!~", TK_NMATCH }, { "==", TK_EQ }, { "!=", TK_NE },
		{ "<=", TK_LE }, { ">=", TK_GE }, { "+=", TK_ADD_ASSIGN },
		{ "-=", TK_SUB_ASSIGN }, { "*=", TK_MUL_ASSIGN },
		{ "/=", TK_DIV_ASSIGN }, { "%=", TK_MOD_ASSIGN },
		{ "&=", TK_AND_ASSIGN }, { "|=", TK_OR_ASSIGN },
		{ "^=", TK_XOR_ASSIGN }, { "&&", TK_ANDAND }, { "||", TK_OROR },
		{ "++", TK_INC }, { "--", TK_DEC }, { "%(", TK_PP_OPEN },
		{ "%?", TK_PP_THEN }, { "%:", TK_PP_ELSE }, { "%)", TK_PP_CLOSE },
		{ "{", TK_LBRACE }, { "}", TK_RBRACE }, { "(", TK_LPAREN },
		{ ")", TK_RPAREN }, { "[", TK_LBRACKET }, { "]", TK_RBRACKET },
		{ ";", TK_SEMI }, { ",", TK_COMMA }, { ".", TK_DOT },
		{ ":", TK_COLON }, { "?", TK_QUESTION }, { "=", TK_ASSIGN },
		{ "+", TK_PLUS }, { "-", TK_MINUS }, { "*", TK_STAR },
		{ "/", TK_SLASH }, { "%", TK_PERCENT }, { "<", TK_LT },
		{ ">", TK_GT }, { "!", TK_NOT }, { "~", TK_TILDE },
		{ "&", TK_AMP }, { "|", TK_PIPE }, { "^", TK_CARET },
		{ "probe", TK_PROBE }, { "global", TK_GLOBAL },
		{ "private", TK_PRIVATE }, { "function", TK_FUNCTION },
		{ "if", TK_IF }, { "else", TK_ELSE }, { "for", TK_FOR },
		{ "foreach", TK_FOREACH }, { "in", TK_IN }, { "limit", TK_LIMIT },
		{ "return", TK_RETURN }, { "delete", TK_DELETE },
		{ "while", TK_WHILE }, { "break", TK_BREAK },
		{ "continue", TK_CONTINUE }, { "next", TK_NEXT },
		{ "try", TK_TRY }, { "catch", TK_CATCH },
		{ "string", TK_KW_STRING }, { "long", TK_KW_LONG },
		{ "probes", TK_IDENT }, { "_x9", TK_IDENT }, { "a$b", TK_IDENT },
		{ "$foo", TK_TARGET }, { "$$vars", TK_TARGET },
		{ "$$parms$", TK_TARGET }, { "$var$$", TK_TARGET },
		{ "$$return", TK_TARGET }, { "$$locals$$", TK_TARGET },
		{ "$1", TK_PP_ARG }, { "$42", TK_PP_ARG }, { "$#", TK_PP_ARG },
		{ "@3", TK_PP_ARG }, { "@#", TK_PP_ARG },
		{ "@define", TK_PP_DEFINE }, { "@defined", TK_AT },
		{ "@cast", TK_AT }, { "@entry", TK_AT }, { "@my_macro", TK_AT },
		{ "%{ x %}", TK_EMBEDDED }, { "\"s\"", TK_STRING },
		{ "123", TK_NUMBER },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run *r = run(cases[i].text, true);

		CHECK(r->n == 1 && r->tok[0].kind == cases[i].kind &&
		      r->errors == 0, "lex '%s': %d tokens, kind %d, want %d",
		      cases[i].text, r->n, r->n ? (int)r->tok[0].kind : -1,
		      (int)cases[i].kind);
		if (r->n == 1 && cases[i].kind != TK_EMBEDDED &&
		    cases[i].kind != TK_STRING)
			CHECK(strcmp(r->tok[0].text, cases[i].text) == 0,
			      "lex '%s': text '%s'", cases[i].text,
			      r->tok[0].text);
		if (r->n == 1 && tok_spelling(cases[i].kind)[0])
			CHECK(strcmp(tok_spelling(cases[i].kind),
				     cases[i].text) == 0,
			      "spelling of '%s' is '%s'", cases[i].text,
			      tok_spelling(cases[i].kind));
		run_free(r);
	}
}

static void test_longest_match(void)
{
	struct run *r = run("a<<<=b>>>c<<=d-->e!~f.=g", true);
	static const enum tok_kind want[] = {
		TK_IDENT, TK_AGG, TK_ASSIGN, TK_IDENT, TK_USHR, TK_IDENT,
		TK_SHL_ASSIGN, TK_IDENT, TK_DEC, TK_GT, TK_IDENT, TK_NMATCH,
		TK_IDENT, TK_CAT_ASSIGN, TK_IDENT,
	};
	int n = (int)(sizeof(want) / sizeof(want[0]));

	CHECK(r->n == n, "longest match: %d tokens, want %d", r->n, n);
	for (int i = 0; i < n && i < r->n; i++)
		CHECK(r->tok[i].kind == want[i], "longest match: token %d ('%s') kind %d, want %d",
		      i, r->tok[i].text, (int)r->tok[i].kind, (int)want[i]);
	run_free(r);
}

static void test_positions(void)
{
	struct run *r = run("a\n  bb\tc /* x\ny */ d # e\n//f\n\"s\"", true);
	static const int want[][2] = { {1, 1}, {2, 3}, {2, 6}, {3, 6}, {5, 1} };
	static const bool space[] = { false, true, true, true, true };

	CHECK(r->n == 5, "positions: %d tokens", r->n);
	for (int i = 0; i < 5 && i < r->n; i++) {
		CHECK(r->tok[i].pos.line == want[i][0] &&
		      r->tok[i].pos.col == want[i][1],
		      "token %d at %d:%d, want %d:%d", i, r->tok[i].pos.line,
		      r->tok[i].pos.col, want[i][0], want[i][1]);
		CHECK(r->tok[i].space_before == space[i],
		      "token %d space_before %d", i, r->tok[i].space_before);
		CHECK(r->tok[i].pos.file == r->file, "token %d file", i);
	}
	CHECK(r->eof.pos.line == 5 && r->eof.pos.col == 4,
	      "EOF at %d:%d, want 5:4", r->eof.pos.line, r->eof.pos.col);
	run_free(r);

	/* glued probe-point pieces: no space before '*' and 'x' */
	r = run("sys_*x /**/y", true);
	CHECK(r->n == 4 && !r->tok[1].space_before && !r->tok[2].space_before &&
	      r->tok[3].space_before, "space_before in sys_*x /**/y");
	run_free(r);
	r = run("#! /usr/bin/stap\nprobe", true);
	CHECK(r->n == 1 && r->tok[0].kind == TK_PROBE && r->tok[0].pos.line == 2,
	      "#! line is a comment");
	run_free(r);
}

static void test_numbers(void)
{
	static const struct {
		const char *text;
		uint64_t value;
	} ok[] = {
		{ "0", 0 }, { "7", 7 }, { "010", 8 }, { "0x10", 16 },
		{ "0XfF", 255 }, { "9223372036854775807", 9223372036854775807ULL },
		{ "9223372036854775808", 9223372036854775808ULL },
		{ "18446744073709551615", UINT64_MAX },
		{ "0xffffffffffffffff", UINT64_MAX },
		{ "01777777777777777777777", UINT64_MAX },
	};
	static const char *const bad[] = {
		"18446744073709551616", "0x10000000000000000",
		"02000000000000000000000", "09", "0x", "12abc", "0x1g", "08",
		"99999999999999999999999999",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct run *r = run(ok[i].text, false);

		CHECK(r->n == 1 && r->tok[0].kind == TK_NUMBER &&
		      r->tok[0].num == ok[i].value && r->errors == 0,
		      "number %s: n=%d value %llu errors %d", ok[i].text, r->n,
		      r->n ? (unsigned long long)r->tok[0].num : 0ULL,
		      r->errors);
		run_free(r);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char src[64];
		struct run *r;

		snprintf(src, sizeof(src), "x %s", bad[i]);
		r = run(src, false);
		CHECK(r->errors == 1 && r->n == 2 &&
		      strstr(r->msgs, "t.stp:1:3: parse error: number invalid or out of range"),
		      "bad number %s: %d errors, %d tokens:\n%s", bad[i],
		      r->errors, r->n, r->msgs);
		run_free(r);
	}
	/* a bad number in an untaken branch is not an error (SystemTap
	 * checks numbers only when it parses them) */
	EXPECT_PP("%( 1 == 0 %? 09 %) y", "y");
}

static void test_strings(void)
{
	struct run *r = run("\"a\\n\\t\\\\\\\"\\101\\x41\\x4a\\q\\'\\0\\a\\b\\f\\v\\r\"", true);
	static const char want[] = "a\n\t\\\"AAJq'\0\a\b\f\v\r";

	CHECK(r->n == 1 && r->tok[0].kind == TK_STRING &&
	      r->tok[0].len == sizeof(want) - 1 &&
	      memcmp(r->tok[0].text, want, sizeof(want) - 1) == 0,
	      "escapes decoded (len %zu)", r->n ? r->tok[0].len : 0);
	run_free(r);

	r = run("\"\" \"x\\\ny\" \"\\1234\"", true);
	CHECK(r->n == 3 && r->tok[0].len == 0 && strcmp(r->tok[1].text, "x\ny") == 0 &&
	      strcmp(r->tok[2].text, "S4") == 0, "empty, backslash-newline, 3-digit octal");
	run_free(r);

	/* adjacent literals stay separate: the parser concatenates them */
	r = run("\"a\" \"b\"", false);
	CHECK(r->n == 2, "adjacent strings are two tokens");
	run_free(r);

	EXPECT_ERR("x = \"abc\ny", "t.stp:1:5: parse error: Could not find matching closing quote");
	EXPECT_ERR("x = \"abc", "Could not find matching closing quote");
	EXPECT_ERR("x = \"abc\\", "Could not find matching closing quote");
	/* the rest of the file is still lexed */
	r = run("\"abc\nprobe", false);
	CHECK(r->n == 1 && r->tok[0].kind == TK_PROBE && r->errors == 1,
	      "lexing goes on after an unterminated string");
	run_free(r);
}

static void test_comments_embedded(void)
{
	struct run *r;

	EXPECT_PP("a /* b */ c // d\n e # f\n g", "a c e g");
	EXPECT_PP("a /* ** / * */ b /*/ */ c", "a b c");
	EXPECT_ERR("a /* b", "t.stp:1:3: parse error: unterminated comment");

	r = run("%{ int x = 1 % 2; /* } */ %}", false);
	CHECK(r->n == 1 && r->tok[0].kind == TK_EMBEDDED &&
	      strcmp(r->tok[0].text, " int x = 1 % 2; /* } */ ") == 0,
	      "embedded text");
	run_free(r);
	r = run("%{%}%{%%}", false);
	CHECK(r->n == 2 && r->tok[0].len == 0 && strcmp(r->tok[1].text, "%") == 0,
	      "empty embedded code and a lone %%");
	run_free(r);
	EXPECT_ERR("probe %{ abc", "t.stp:1:7: parse error: Could not find matching '%}' to close embedded function block");
	r = run("%{ x }% y %}", false);
	CHECK(r->warnings == 1 && strstr(r->msgs, "possible erroneous closing '}%', use '%}'?"),
	      "warning for }%%: %s", r->msgs);
	run_free(r);
}

static void test_bad_chars(void)
{
	struct run *r = run("a \x01 b ` c \xff", false);

	CHECK(r->n == 3 && r->errors == 3, "bad characters: %d tokens, %d errors",
	      r->n, r->errors);
	CHECK(strstr(r->msgs, "t.stp:1:3: parse error: invalid character '\\x01'") != NULL,
	      "message for \\x01:\n%s", r->msgs);
	CHECK(strstr(r->msgs, "t.stp:1:7: parse error: invalid character '`'") != NULL,
	      "message for `:\n%s", r->msgs);
	CHECK(strstr(r->msgs, "invalid character '\\xff'") != NULL,
	      "message for \\xff:\n%s", r->msgs);
	run_free(r);

	/* a run of bad characters is one error */
	r = run("a \x01\x02'\\\x80 b", false);
	CHECK(r->n == 2 && r->errors == 1, "run of bad characters: %d tokens, %d errors",
	      r->n, r->errors);
	run_free(r);

	/* raw lexer: TK_ERROR token, nothing reported */
	r = run("\x02", true);
	CHECK(r->n == 1 && r->tok[0].kind == TK_ERROR && r->errors == 0,
	      "raw lexer returns TK_ERROR");
	run_free(r);

	/* NUL bytes in the input */
	{
		struct srcfile *f = srcfile_new("nul", "a\0b", 3);
		struct diag d;
		char *buf = NULL;
		size_t len;
		struct preproc *pp;
		struct token t;
		int n = 0;

		diag_to_mem(&d, &buf, &len);
		pp = preproc_new(f, &test_env, &d);
		for (preproc_next(pp, &t); t.kind != TK_EOF; preproc_next(pp, &t)) {
			n++;
			token_free(&t);
		}
		token_free(&t);
		preproc_free(pp);
		fclose(d.stream);
		CHECK(n == 2 && d.errors == 1, "NUL byte: %d tokens %d errors", n,
		      d.errors);
		free(buf);
		srcfile_free(f);
	}
}

static void test_describe(void)
{
	static const struct {
		const char *src;
		const char *want;
	} cases[] = {
		{ "foo", "identifier 'foo'" }, { "probe", "keyword 'probe'" },
		{ "}", "operator '}'" }, { "<<<", "operator '<<<'" },
		{ "12", "number '12'" }, { "\"a\\nb\\\"\"", "string \"a\\nb\\\"\"" },
		{ "%{ x %}", "embedded code" }, { "@cast", "operator '@cast'" },
		{ "$var", "identifier '$var'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run *r = run(cases[i].src, true);
		char *s = r->n == 1 ? tok_describe(&r->tok[0]) : xstrdup("?");

		CHECK(strcmp(s, cases[i].want) == 0, "describe %s: '%s', want '%s'",
		      cases[i].src, s, cases[i].want);
		free(s);
		if (i == 0) {
			s = tok_describe(&r->eof);
			CHECK(strcmp(s, "end of input") == 0, "describe EOF: %s", s);
			free(s);
		}
		run_free(r);
	}
	CHECK(strcmp(tok_kind_class(TK_IDENT), "identifier") == 0 &&
	      strcmp(tok_kind_class(TK_WHILE), "keyword") == 0 &&
	      strcmp(tok_kind_class(TK_AGG), "operator") == 0 &&
	      strcmp(tok_kind_class(TK_EOF), "end of input") == 0,
	      "tok_kind_class");
}

/* ---- conditionals --------------------------------------------------- */

static void test_conditionals(void)
{
	EXPECT_PP("%( kernel_v >= \"2.6.30\" %? a %: b %)", "a");
	EXPECT_PP("%( kernel_v < \"6.1.0\" %? a %: b %)", "b");
	EXPECT_PP("%( kernel_v == \"6.1.0\" %? a %: b %)", "a");
	EXPECT_PP("%( kernel_v > \"6.1\" %? a %: b %)", "a");
	EXPECT_PP("%( kernel_v < \"6.10\" %? a %: b %)", "a");
	EXPECT_PP("%( kernel_vr == \"6.1.0-*\" %? a %: b %)", "a");
	EXPECT_PP("%( kernel_vr != \"6.1.0-*\" %? a %: b %)", "b");
	EXPECT_PP("%( systemtap_v >= \"4.0\" %? a %: b %)", "a");
	EXPECT_PP("%( systemtap_v <= \"5.0\" %? a %: b %)", "b");
	EXPECT_PP("%( arch == \"x86_*\" %? a %: b %)", "a");
	EXPECT_PP("%( arch == \"i?86\" %? a %: b %)", "b");
	EXPECT_PP("%( arch != \"arm*\" %? a %)", "a");
	EXPECT_PP("%( runtime == \"kernel\" %? a %: b %)", "a");
	EXPECT_PP("%( runtime == \"dyninst\" %? a %: b %)", "b");
	EXPECT_PP("%( systemtap_privilege == \"stapdev\" %? a %: b %)", "a");
	EXPECT_PP("%( guru_mode == 0 %? a %: b %)", "a");
	EXPECT_PP("%( guru_mode != 0 %? a %: b %)", "b");
	EXPECT_PP("%( CONFIG_SMP == \"y\" %? a %: b %)", "a");
	EXPECT_PP("%( CONFIG_SMP == \"[ym]\" %? a %: b %)", "a");
	EXPECT_PP("%( CONFIG_NOPE == \"y\" %? a %: b %)", "b");
	EXPECT_PP("%( CONFIG_NOPE == \"\" %? a %: b %)", "a");
	EXPECT_PP("%( CONFIG_HZ >= 100 %? a %: b %)", "a");
	EXPECT_PP("%( CONFIG_NR_CPUS == 512 %? a %: b %)", "a");
	EXPECT_PP("%( CONFIG_NR_CPUS > CONFIG_HZ %? a %: b %)", "a");
	EXPECT_PP("%( 1 < 2 %? a %: b %)", "a");
	EXPECT_PP("%( 0x10 == 16 %? a %: b %)", "a");
	EXPECT_PP("%( \"abc\" < \"abd\" %? a %: b %)", "a");
	EXPECT_PP("%( \"ab\" == \"abc\" %? a %: b %)", "b");
	EXPECT_PP("%( $# == 3 %? a %: b %)", "a");
	EXPECT_PP("%( @# == \"3\" %? a %: b %)", "a");
	EXPECT_PP("%( @1 == \"x + 1\" %? a %: b %)", "a");
	/* && binds tighter than || */
	EXPECT_PP("%( 1 == 0 && 1 == 1 || 1 == 1 %? a %: b %)", "a");
	EXPECT_PP("%( 1 == 1 || 1 == 0 && 1 == 0 %? a %: b %)", "a");
	EXPECT_PP("%( 1 == 1 && 1 == 0 || 2 == 3 %? a %: b %)", "b");
	EXPECT_PP("%( 1 == 1 && 2 == 2 && 3 == 3 %? a %: b %)", "a");
	/* nesting, in both branches, and empty branches */
	EXPECT_PP("x %( 1 == 1 %? %( 2 == 3 %? a %: b %) c %: %( 1 == 1 %? d %) %) y",
		  "x b c y");
	EXPECT_PP("%( 1 == 0 %? %( 1 == 1 %? a %: b %) %: c %( 0 == 0 %? d %: e %) %)",
		  "c d");
	EXPECT_PP("%( 1 == 1 %? %) %( 1 == 0 %? %: %)", "");
	/* in the middle of an expression, as SystemTap allows */
	EXPECT_PP("x = %( arch == \"x86_64\" %? 64 %: 32 %) ;", "x = 64 ;");
	/* junk in an untaken branch is silent but still balanced */
	EXPECT_PP("%( 1 == 0 %? \x01 $9 @define %( x %? ` %) %: ok %)", "ok");
	/* a definition in an untaken branch does not count */
	EXPECT_PP("%( 1 == 0 %? @define m %( a %) %) @m", "@m");
	EXPECT_PP("%( 1 == 1 %? @define m %( a %) %) @m", "a");

	EXPECT_ERR("x %( 1 == 1 %? a", "t.stp:1:3: parse error: incomplete conditional at end of file");
	EXPECT_ERR("a %? b", "t.stp:1:3: parse error: incomplete conditional - missing '%('");
	EXPECT_ERR("a %: b", "incomplete conditional - missing '%('");
	EXPECT_ERR("a %) b", "incomplete conditional - missing '%('");
	EXPECT_ERR("%( 1 == 1 %? a %: b %: c %)", "t.stp:1:21: parse error: invalid conditional - duplicate '%:'");
	EXPECT_ERR("%( 1 == 1 a %)", "t.stp:1:1: parse error: expected '%?' marker for conditional");
	EXPECT_ERR("%( 1 == ", "incomplete condition after '%('");
	EXPECT_ERR("%( kernel_v < \"2.6*\" %? a %)", "t.stp:1:13: parse error: wildcard not allowed with order comparison operators");
	EXPECT_ERR("%( kernel_v == 2 %? a %)", "t.stp:1:16: parse error: expected string literal");
	EXPECT_ERR("%( arch < \"x\" %? a %)", "t.stp:1:9: parse error: expected '==' or '!='");
	EXPECT_ERR("%( guru_mode == 2 %? a %)", "expected 0 or 1");
	EXPECT_ERR("%( guru_mode == \"x\" %? a %)", "expected number");
	EXPECT_ERR("%( 1 = 1 %? a %)", "t.stp:1:6: parse error: expected comparison operator");
	EXPECT_ERR("%( 1 == \"x\" %? a %)", "expected number literal as right value");
	EXPECT_ERR("%( \"x\" == 1 %? a %)", "expected string literal as right value");
	EXPECT_ERR("%( CONFIG_SMP < 3 %? a %)", "t.stp:1:4: parse error: Config option value not a number");
	EXPECT_ERR("%( CONFIG_SMP == probe %? a %)", "expected string, number literal or other CONFIG_... as right side operand");
	EXPECT_ERR("%( foo == 1 %? a %)", "t.stp:1:4: parse error: expected 'arch', 'kernel_v', 'kernel_vr', 'systemtap_v',");
	EXPECT_ERR("%( $7 == 1 %? a %)", "command line argument out of range [1-3]");

	/* after a bad condition both branches are dropped, and the rest of
	 * the file is fine */
	{
		struct run *r = run("%( foo == 1 %? a %: b %) c %( 1 = 2 %? d %: e %) f", false);
		char *got = joined(r);

		CHECK(strcmp(got, "c f") == 0 && r->errors == 2,
		      "recovery after bad conditions: [%s], %d errors", got, r->errors);
		free(got);
		run_free(r);
	}
	{
		struct run *r = run("%( %( %( 1 == 1 %? x", false);

		CHECK(r->errors >= 1 && r->n == 0, "nested garbage conditionals: %d errors", r->errors);
		run_free(r);
	}
}

/* ---- macros --------------------------------------------------------- */

static void test_macros(void)
{
	struct run *r;

	EXPECT_PP("@define foo %( 1 + 2 %) x = @foo", "x = 1 + 2");
	EXPECT_PP("@define add(a, b) %( (@a + @b) %) @add(1, f(2, 3))",
		  "( 1 + f ( 2 , 3 ) )");
	EXPECT_PP("@define id(a) %( @a %) @id([1, 2]) @id() @id(x[1,2])",
		  "[ 1 , 2 ] x [ 1 , 2 ]");
	/* nested uses, and arguments that use other macros */
	EXPECT_PP("@define one %( 1 %) @define two %( @one + @one %) "
		  "@define sq(x) %( @x * @x %) @sq(@two)",
		  "1 + 1 * 1 + 1");
	/* parameters are evaluated in the caller's context */
	EXPECT_PP("@define inner(a) %( <@a> %) @define outer(a, b) %( @inner(@b @a) %) "
		  "@outer(p, q)", "< q p >");
	/* a parameterless macro leaves a following (...) alone */
	EXPECT_PP("@define fn %( printf %) @fn(\"x\")", "printf ( \"x\" )");
	/* the body may contain conditionals, decided where it is used */
	EXPECT_PP("@define bits %( %( arch == \"x86_64\" %? 64 %: 32 %) %) @bits",
		  "64");
	/* built-in @ operators and unknown names pass through */
	EXPECT_PP("@cast(p, \"t\")->x @entry($a) @nosuch", "@cast ( p , \"t\" ) -> x @entry ( $a ) @nosuch");

	/* expansion positions */
	r = run("@define m %( a b %)\n  @m", false);
	CHECK(r->n == 2 && r->tok[0].pos.line == 1 && r->tok[0].pos.col == 14 &&
	      r->tok[0].expanded_from && r->tok[0].expanded_from->line == 2 &&
	      r->tok[0].expanded_from->col == 3,
	      "expanded token keeps its position and points at the use");
	run_free(r);
	r = run("x", false);
	CHECK(r->n == 1 && r->tok[0].expanded_from == NULL, "plain token has no expansion");
	run_free(r);

	/* an error in expanded code mentions the use */
	r = run("@define m %( 09 %)\n@m", false);
	CHECK(r->errors == 1 && strstr(r->msgs, "t.stp:1:14: parse error: number invalid or out of range") &&
	      strstr(r->msgs, "t.stp:2:1: note: in expansion of macro"),
	      "error inside expansion:\n%s", r->msgs);
	run_free(r);

	/* ... but only once, however often the macro is used */
	r = run("@define m %( 09 %)\n@m @m @m", false);
	CHECK(r->errors == 1 && r->n == 3, "error in a macro body reported once: %d errors",
	      r->errors);
	run_free(r);

	EXPECT_ERR("@define m %( a %) @define m %( b %)", "t.stp:1:27: parse error: attempt to redefine macro '@m' in the same file");
	EXPECT_ERR("@define m %( a %) @define m %( b %)", "t.stp:1:9: note: macro '@m' first defined here");
	EXPECT_ERR("@define define %( a %)", "attempt to redefine '@define'");
	EXPECT_ERR("@define 3 %( a %)", "t.stp:1:9: parse error: expected identifier");
	EXPECT_ERR("@define", "expected identifier");
	EXPECT_ERR("@define m(a b) %( a %)", "expected ',' or ')'");
	EXPECT_ERR("@define m(a,) %( a %)", "expected identifier");
	EXPECT_ERR("@define m x", "expected '%(' or '('");
	EXPECT_ERR("@define m(a) x", "expected '%('");
	EXPECT_ERR("@define m %( a b", "t.stp:1:9: parse error: incomplete macro definition - missing '%)'");
	EXPECT_ERR("@define m(a) %( @a %) @m(1, 2)", "t.stp:1:27: parse error: too many parameters for macro '@m' (expected 1)");
	EXPECT_ERR("@define m(a, b) %( @a %) @m(1)", "too few parameters for macro '@m' (expected 2)");
	EXPECT_ERR("@define m(a) %( @a %) @m x", "expected '(' in invocation of macro '@m' taking 1 parameter");
	EXPECT_ERR("@define m(a, b) %( @a %) @m", "expected '(' in invocation of macro '@m' taking 2 parameters");
	EXPECT_ERR("@define m(a) %( @a %) @m(1", "could not find end of macro invocation");
	EXPECT_ERR("@define m %( @define n %( x %) %) @m", "'@define' forbidden inside macro body");

	r = run("@define cast %( x %) @cast", false);
	CHECK(r->warnings == 1 && strstr(r->msgs, "macro redefines built-in operator '@cast'") &&
	      r->n == 1 && strcmp(r->tok[0].text, "x") == 0,
	      "redefining a built-in @ operator warns:\n%s", r->msgs);
	run_free(r);

	/* a bad definition does not swallow the rest of the file */
	r = run("@define 3 %( a %) probe", false);
	CHECK(r->n == 1 && r->tok[0].kind == TK_PROBE, "recovery after a bad definition");
	run_free(r);
	r = run("@define 3 x y probe z", false);
	CHECK(r->n == 2 && r->tok[0].kind == TK_PROBE, "recovery stops at a keyword");
	run_free(r);
}

static void test_runaway_macros(void)
{
	struct run *r;

	r = run("@define r %( @r x %) @r y", false);
	CHECK(r->errors == 1 && strstr(r->msgs, "macro expansion nested too deeply"),
	      "direct recursion is an error:\n%.300s", r->msgs);
	CHECK(r->n >= 1 && strcmp(r->tok[r->n - 1].text, "y") == 0,
	      "tokens after a runaway macro still come out");
	run_free(r);

	r = run("@define a(x) %( @b(@x @x) %) @define b(x) %( @a(@x) %) @a(1)", false);
	CHECK(r->errors == 1 && strstr(r->msgs, "macro expansion"),
	      "mutual recursion with arguments is an error:\n%.300s", r->msgs);
	run_free(r);

	/* exponential growth hits the token budget */
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_adds(&sb, "@define m0 %( x x %)\n");
		for (int i = 1; i < 40; i++)
			strbuf_addf(&sb, "@define m%d %%( @m%d @m%d %%)\n", i, i - 1, i - 1);
		strbuf_adds(&sb, "@m39 @m39 end");
		r = run(sb.buf, false);
		CHECK(r->errors == 1 && strstr(r->msgs, "macro expansion produced more than"),
		      "exponential expansion is an error:\n%.300s", r->msgs);
		CHECK(r->last && strcmp(r->last, "end") == 0,
		      "tokens after an exponential macro still come out");
		run_free(r);
		strbuf_free(&sb);
	}
}

/* ---- script arguments ------------------------------------------------ */

static void test_args(void)
{
	struct run *r;

	EXPECT_PP("a = $1", "a = x + 1");
	EXPECT_PP("a = @1", "a = \"x + 1\"");
	EXPECT_PP("a = @2", "a = \"hello \"q\"\"");
	EXPECT_PP("$# @#", "3 \"3\"");
	/* arguments are substituted inside macro bodies and conditions too */
	EXPECT_PP("@define m %( $1 %) @m", "x + 1");
	EXPECT_PP("%( $# > 2 && @1 == \"x + 1\" %? yes %: no %)", "yes");

	r = run("f($1)", false);
	CHECK(r->n == 6 && r->tok[2].kind == TK_IDENT && r->tok[3].kind == TK_PLUS &&
	      r->tok[4].kind == TK_NUMBER && r->tok[4].num == 1 &&
	      r->tok[2].pos.col == 3 && r->tok[4].pos.col == 3,
	      "$1 becomes tokens placed at the $1");
	run_free(r);
	r = run("$#", false);
	CHECK(r->n == 1 && r->tok[0].kind == TK_NUMBER && r->tok[0].num == 3,
	      "$# is a number");
	run_free(r);

	EXPECT_ERR("x $4", "t.stp:1:3: parse error: command line argument out of range [1-3]");
	EXPECT_ERR("x @0", "command line argument out of range [1-3]");
	EXPECT_ERR("x $99999999999999999999999", "command line argument out of range [1-3]");
	EXPECT_ERR("x $3", "invalid nested substitution of command line arguments");
	/* an out-of-range argument in an untaken branch is fine */
	EXPECT_PP("%( $# > 5 %? $6 %: ok %)", "ok");

	{
		struct pass1_env saved = test_env;

		test_env.argc = 0;
		test_env.argv = NULL;
		EXPECT_ERR("$1", "command line argument out of range [1-0]");
		EXPECT_PP("$# @#", "0 \"0\"");
		test_env = saved;
	}
}

/* ---- library macros --------------------------------------------------- */

static bool load_lib(const char *text, char **msgs, struct srcfile **keep)
{
	struct diag d;
	size_t len;
	bool ok;

	*keep = srcfile_new("lib.stpm", text, strlen(text));
	diag_to_mem(&d, msgs, &len);
	ok = macro_lib_load(test_lib, *keep, &test_env, &d);
	fclose(d.stream);
	return ok;
}

static void test_library(void)
{
	struct srcfile *f1, *f2, *f3, *f4;
	char *m1 = NULL, *m2 = NULL, *m3 = NULL, *m4 = NULL;
	bool ok;

	test_lib = macro_lib_new();
	ok = load_lib("@define lm %( 42 %)\n"
		      "%( arch == \"x86_64\" %? @define lx %( @lm + @loc %) %)\n"
		      "@define loc %( libloc %)\n", &m1, &f1);
	CHECK(ok && m1[0] == 0, "library loads:\n%s", m1);
	ok = load_lib("@define lm %( 43 %)\n", &m2, &f2);
	CHECK(!ok && strstr(m2, "lib.stpm:1:9: parse error: duplicate definition of library macro '@lm'"),
	      "duplicate library macro:\n%s", m2);
	ok = load_lib("@define other %( 1 %) probe", &m3, &f3);
	CHECK(!ok && strstr(m3, "unexpected token in library macro file 'lib.stpm'"),
	      "stray token in a library file:\n%s", m3);
	ok = load_lib("@define n1 %( 1 %) @define n2 %( 2 %)", &m4, &f4);
	CHECK(ok, "second library file loads:\n%s", m4);

	EXPECT_PP("@lm @n2", "42 2");
	/* a library macro sees library macros, not the user's */
	EXPECT_PP("@define loc %( userloc %) @lx @loc", "42 + libloc userloc");
	/* a refused file adds nothing */
	EXPECT_PP("@other", "@other");
	/* the user's own definition takes precedence in user code */
	EXPECT_PP("@define lm %( mine %) @lm", "mine");

	macro_lib_free(test_lib);
	test_lib = NULL;
	srcfile_free(f1);
	srcfile_free(f2);
	srcfile_free(f3);
	srcfile_free(f4);
	free(m1);
	free(m2);
	free(m3);
	free(m4);
}

/* Whether a file held a token before preprocessing: pass 1's "is empty"
 * against "is empty after preprocessing". */
static void test_saw_token(void)
{
	static const struct {
		const char *src;
		bool saw;
	} cases[] = {
		{ "", false },
		{ " \t\n\n", false },
		{ "# hash\n// slashes\n/* block\n */\n", false },
		{ "#! /usr/bin/env stap\n", false },
		{ "%( 1 == 0 %? probe begin {} %)", true },
		{ "@define m %( 1 %)", true },
		{ "/* never closed", true },	/* the lexer's error is a token */
		{ "$1", true },
		{ "probe", true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run *r = run(cases[i].src, false);

		CHECK(r->saw_token == cases[i].saw, "saw_token of \"%s\": %d", cases[i].src,
		      r->saw_token);
		run_free(r);
	}
}

int main(void)
{
	test_kinds();
	test_longest_match();
	test_positions();
	test_numbers();
	test_strings();
	test_comments_embedded();
	test_bad_chars();
	test_describe();
	test_conditionals();
	test_macros();
	test_runaway_macros();
	test_args();
	test_library();
	test_saw_token();
	return check_summary(NULL);
}
