/* Tokens: names, spellings and descriptions for messages. */
#include "token.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const spellings[TK_COUNT] = {
	[TK_PROBE] = "probe", [TK_GLOBAL] = "global",
	[TK_PRIVATE] = "private", [TK_FUNCTION] = "function",
	[TK_IF] = "if", [TK_ELSE] = "else", [TK_FOR] = "for",
	[TK_FOREACH] = "foreach", [TK_IN] = "in", [TK_LIMIT] = "limit",
	[TK_RETURN] = "return", [TK_DELETE] = "delete", [TK_WHILE] = "while",
	[TK_BREAK] = "break", [TK_CONTINUE] = "continue", [TK_NEXT] = "next",
	[TK_TRY] = "try", [TK_CATCH] = "catch", [TK_KW_STRING] = "string",
	[TK_KW_LONG] = "long",

	[TK_LBRACE] = "{", [TK_RBRACE] = "}", [TK_LPAREN] = "(",
	[TK_RPAREN] = ")", [TK_LBRACKET] = "[", [TK_RBRACKET] = "]",
	[TK_SEMI] = ";", [TK_COMMA] = ",", [TK_DOT] = ".", [TK_COLON] = ":",
	[TK_QUESTION] = "?", [TK_ASSIGN] = "=", [TK_PLUS] = "+",
	[TK_MINUS] = "-", [TK_STAR] = "*", [TK_SLASH] = "/",
	[TK_PERCENT] = "%", [TK_LT] = "<", [TK_GT] = ">", [TK_LE] = "<=",
	[TK_GE] = ">=", [TK_EQ] = "==", [TK_NE] = "!=", [TK_NOT] = "!",
	[TK_TILDE] = "~", [TK_AMP] = "&", [TK_PIPE] = "|", [TK_CARET] = "^",
	[TK_ANDAND] = "&&", [TK_OROR] = "||", [TK_SHL] = "<<",
	[TK_SHR] = ">>", [TK_USHR] = ">>>", [TK_INC] = "++", [TK_DEC] = "--",
	[TK_ARROW] = "->", [TK_MATCH] = "=~", [TK_NMATCH] = "!~",
	[TK_AGG] = "<<<", [TK_ADD_ASSIGN] = "+=", [TK_SUB_ASSIGN] = "-=",
	[TK_MUL_ASSIGN] = "*=", [TK_DIV_ASSIGN] = "/=", [TK_MOD_ASSIGN] = "%=",
	[TK_AND_ASSIGN] = "&=", [TK_OR_ASSIGN] = "|=", [TK_XOR_ASSIGN] = "^=",
	[TK_SHL_ASSIGN] = "<<=", [TK_SHR_ASSIGN] = ">>=",
	[TK_CAT_ASSIGN] = ".=",

	[TK_PP_OPEN] = "%(", [TK_PP_THEN] = "%?", [TK_PP_ELSE] = "%:",
	[TK_PP_CLOSE] = "%)", [TK_PP_DEFINE] = "@define",
};

const char *tok_spelling(enum tok_kind k)
{
	if ((unsigned)k >= TK_COUNT || !spellings[k])
		return "";
	return spellings[k];
}

const char *tok_kind_class(enum tok_kind k)
{
	switch (k) {
	case TK_EOF: return "end of input";
	case TK_ERROR: return "junk";
	case TK_IDENT: case TK_TARGET: return "identifier";
	case TK_NUMBER: return "number";
	case TK_STRING: return "string";
	case TK_EMBEDDED: return "embedded code";
	case TK_PP_ARG: return "operator";
	case TK_AT: return "operator";
	default:
		break;
	}
	if (k >= TK_PROBE && k <= TK_KW_LONG)
		return "keyword";
	return "operator";
}

/* Append s[0..n) to sb the way a C string literal would spell it. */
static void add_escaped(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '\n': strbuf_adds(sb, "\\n"); break;
		case '\t': strbuf_adds(sb, "\\t"); break;
		case '\r': strbuf_adds(sb, "\\r"); break;
		case '\a': strbuf_adds(sb, "\\a"); break;
		case '\b': strbuf_adds(sb, "\\b"); break;
		case '\f': strbuf_adds(sb, "\\f"); break;
		case '\v': strbuf_adds(sb, "\\v"); break;
		case '\\': strbuf_adds(sb, "\\\\"); break;
		case '"': strbuf_adds(sb, "\\\""); break;
		default:
			if (c < ' ' || c >= 0x7f)
				strbuf_addf(sb, "\\%03o", c);
			else
				strbuf_addc(sb, (char)c);
		}
	}
}

/* Show a spelling with anything unprintable replaced by '?', as
 * SystemTap does for the "saw:" part of parse errors. */
static void add_printable(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		strbuf_addc(sb, c >= ' ' && c < 0x7f ? (char)c : '?');
	}
}

char *tok_describe(const struct token *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *text = t->text ? t->text : tok_spelling(t->kind);
	size_t len = t->text ? t->len : strlen(text);

	switch (t->kind) {
	case TK_EOF:
		return xstrdup("end of input");
	case TK_EMBEDDED:
		return xstrdup("embedded code");
	case TK_ERROR:
		return xstrdup("invalid token");
	case TK_STRING:
		strbuf_adds(&sb, "string \"");
		add_escaped(&sb, text, len);
		strbuf_addc(&sb, '"');
		return strbuf_detach(&sb);
	default:
		break;
	}
	strbuf_adds(&sb, tok_kind_class(t->kind));
	strbuf_adds(&sb, " '");
	add_printable(&sb, text, len);
	strbuf_addc(&sb, '\'');
	return strbuf_detach(&sb);
}

void token_free(struct token *t)
{
	if (!t)
		return;
	free(t->text);
	t->text = NULL;
	t->len = 0;
}

void token_copy(struct token *dst, const struct token *src)
{
	*dst = *src;
	dst->text = xmalloc(src->len + 1);
	if (src->text)
		memcpy(dst->text, src->text, src->len);
	dst->text[src->len] = '\0';
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

bool tok_parse_number(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return false;	/* "0x" alone */
	} else if (s[0] == '0') {
		base = 8;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d = (unsigned)digit_value(*s);

		if (d >= base)
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

bool tok_is_keyword(const char *name)
{
	for (int k = TK_PROBE; k <= TK_KW_LONG; k++)
		if (tok_spelling(k) && !strcmp(tok_spelling(k), name))
			return true;
	return false;
}
