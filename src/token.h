/* Tokens: what the lexer (lexer.l) produces, the preprocessor (preproc.c)
 * filters, and the parser (parser.y) consumes.
 *
 * The token stream seen by the parser has no preprocessor tokens left in
 * it: %( %? %: %) conditionals are decided, @define macros are removed and
 * their uses expanded, and $N / @N / $# / @# are replaced by the script
 * arguments.
 */
#ifndef TAPC_TOKEN_H
#define TAPC_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

enum tok_kind {
	TK_EOF = 0,
	TK_ERROR,		/* lexical error; text holds the message. The
				 * preprocessor reports it when the token is
				 * in a taken branch and drops it: the parser
				 * never sees one */

	TK_IDENT,		/* foo, _bar, also "string" is NOT here: see keywords */
	TK_TARGET,		/* $foo $foo$ $foo$$ $$vars $$parms$ $$return ... */
	TK_AT,			/* @cast @defined @entry @var @count ... (text has '@') */
	TK_NUMBER,		/* decimal, hex or octal; value in tok.num */
	TK_STRING,		/* decoded bytes in tok.text/len */
	TK_EMBEDDED,		/* %{ ... %}; text holds what is between the braces */

	/* keywords */
	TK_PROBE, TK_GLOBAL, TK_PRIVATE, TK_FUNCTION, TK_IF, TK_ELSE, TK_FOR,
	TK_FOREACH, TK_IN, TK_LIMIT, TK_RETURN, TK_DELETE, TK_WHILE, TK_BREAK,
	TK_CONTINUE, TK_NEXT, TK_TRY, TK_CATCH, TK_KW_STRING, TK_KW_LONG,

	/* operators and punctuation */
	TK_LBRACE, TK_RBRACE, TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET,
	TK_SEMI, TK_COMMA, TK_DOT, TK_COLON, TK_QUESTION,
	TK_ASSIGN,		/* = */
	TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT,
	TK_LT, TK_GT, TK_LE, TK_GE, TK_EQ, TK_NE,
	TK_NOT, TK_TILDE, TK_AMP, TK_PIPE, TK_CARET,
	TK_ANDAND, TK_OROR,
	TK_SHL, TK_SHR, TK_USHR,	/* << >> >>> */
	TK_INC, TK_DEC,		/* ++ -- */
	TK_ARROW,		/* -> */
	TK_MATCH, TK_NMATCH,	/* =~ !~ */
	TK_AGG,			/* <<< */
	TK_ADD_ASSIGN, TK_SUB_ASSIGN, TK_MUL_ASSIGN, TK_DIV_ASSIGN,
	TK_MOD_ASSIGN, TK_AND_ASSIGN, TK_OR_ASSIGN, TK_XOR_ASSIGN,
	TK_SHL_ASSIGN, TK_SHR_ASSIGN, TK_CAT_ASSIGN,	/* <<= >>= .= */

	/* preprocessor; never reach the parser */
	TK_PP_OPEN,		/* %( */
	TK_PP_THEN,		/* %? */
	TK_PP_ELSE,		/* %: */
	TK_PP_CLOSE,		/* %) */
	TK_PP_DEFINE,		/* @define */
	TK_PP_ARG,		/* $1 @1 $# @# ; text holds the spelling */

	TK_COUNT
};

struct token {
	enum tok_kind kind;
	struct srcpos pos;
	char *text;		/* owned, NUL-terminated spelling (decoded for
				 * strings and embedded code) */
	size_t len;		/* bytes in text, excluding the NUL */
	uint64_t num;		/* TK_NUMBER: the value, two's complement */
	bool space_before;	/* white space or a comment precedes it; the
				 * parser needs this to glue probe-point
				 * components such as "sys_*" or "foo**" */
	/* Where the token came from when it was produced by macro expansion;
	 * NULL otherwise. Errors point at pos and mention the expansion. */
	const struct srcpos *expanded_from;
};

/* A short human name for a token kind: "identifier", "number", "string",
 * "embedded code", "keyword", "operator", "end of input". */
const char *tok_kind_class(enum tok_kind k);

/* "identifier 'foo'", "operator '}'", "string \"x\"", "end of input":
 * what error messages print after "saw". Returns a malloc'ed string. */
char *tok_describe(const struct token *t);

/* Whether name is spelled as a keyword ("return", "if"...): SystemTap's
 * messages then call it "keyword", not "identifier 'return'". */
bool tok_is_keyword(const char *name);

/* The fixed spelling of keyword and operator kinds ("probe", "<<<"). */
const char *tok_spelling(enum tok_kind k);

void token_free(struct token *t);

/* A deep copy of src (the text is duplicated; positions are shared). */
void token_copy(struct token *dst, const struct token *src);

/* Parse a number token's spelling as SystemTap does (strtoull with base
 * 0): decimal, 0x hex or leading-0 octal, at most 2^64-1. Returns false
 * for anything else ("09", "0x", "12abc", too large); the caller then
 * reports "number invalid or out of range". */
bool tok_parse_number(const char *s, uint64_t *out);

#endif
