/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * lex.c - the MLIR lexer: identifiers, value / block / symbol names,
 * numbers, strings and punctuation, with line and column of every token.
 * Comments (// to the end of the line) and white space are skipped;
 * bytes outside strings must be ASCII (a comment may hold any valid
 * UTF-8), so binary garbage is named where it starts.
 */
#include <string.h>

#include "mlir/lex.h"

void iron__mlir_lex_init(iron__mlir_lexer *lx, const char *text, size_t len,
                         const char *file)
{
    lx->text = text;
    lx->len = len;
    lx->pos = 0;
    lx->line = 1;
    lx->col = 1;
    lx->file = file ? file : "<mlir>";
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int iron__mlir_lex_is_bare_char(int c)
{
    return is_alpha(c) || is_digit(c) || c == '_' || c == '$' || c == '.';
}

int iron__mlir_lex_is_suffix_char(int c)
{
    return iron__mlir_lex_is_bare_char(c) || c == '-';
}

/* The length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n, unsigned *cp)
{
    unsigned c = p[0];
    size_t k;
    unsigned v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        k = 2, v = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        k = 3, v = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        k = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (k > n)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return k;
}

static int fail_at(const iron__mlir_lexer *lx, const char *what)
{
    iron__fail(IRON_ESYNTAX, "%s:%d:%d: %s", lx->file, lx->line, lx->col,
               what);
    return -1;
}

/* what holds one %X / %c conversion for arg. */
static int fail_at_u(const iron__mlir_lexer *lx, const char *what,
                     unsigned arg)
{
    char msg[128];
    snprintf(msg, sizeof msg, what, arg);
    return fail_at(lx, msg);
}

/* A byte >= 0x80 where none may be: names what it is. */
static int bad_byte(const iron__mlir_lexer *lx)
{
    const unsigned char *p = (const unsigned char *)lx->text + lx->pos;
    unsigned cp;
    if (utf8_len(p, lx->len - lx->pos, &cp))
        return fail_at_u(lx, "unexpected character U+%04X outside a string",
                         cp);
    return fail_at_u(lx, "invalid UTF-8 (byte 0x%02X): binary data?",
                     p[0]);
}

static void advance(iron__mlir_lexer *lx, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (lx->text[lx->pos + i] == '\n') {
            lx->line++;
            lx->col = 1;
        } else {
            lx->col++;
        }
    }
    lx->pos += n;
}

static int skip_space(iron__mlir_lexer *lx)
{
    while (lx->pos < lx->len) {
        unsigned char c = (unsigned char)lx->text[lx->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
            c == '\v') {
            advance(lx, 1);
        } else if (c == '/' && lx->pos + 1 < lx->len &&
                   lx->text[lx->pos + 1] == '/') {
            while (lx->pos < lx->len && lx->text[lx->pos] != '\n') {
                const unsigned char *p =
                    (const unsigned char *)lx->text + lx->pos;
                unsigned cp;
                size_t k = utf8_len(p, lx->len - lx->pos, &cp);
                if (!k)
                    return bad_byte(lx);
                lx->pos += k;
                lx->col++;
            }
        } else {
            break;
        }
    }
    return 0;
}

static void set(iron__mlir_token *t, iron__mlir_tok k,
                const iron__mlir_lexer *lx, size_t start, size_t n)
{
    t->kind = k;
    t->p = lx->text + start;
    t->n = n;
}

/* A string from the quote at pos: its length with quotes, or 0 (error
 * set). */
static size_t string_len(iron__mlir_lexer *lx)
{
    size_t i = lx->pos + 1;
    while (i < lx->len) {
        char c = lx->text[i];
        if (c == '"')
            return i + 1 - lx->pos;
        if (c == '\n' || c == '\r') {
            fail_at(lx, "string not closed on its line");
            return 0;
        }
        if (c == '\\') {
            if (i + 1 >= lx->len)
                break;
            i += 2;
            continue;
        }
        i++;
    }
    fail_at(lx, "string not closed before the end of the text");
    return 0;
}

static size_t run(const iron__mlir_lexer *lx, size_t from,
                  int (*ok)(int))
{
    size_t i = from;
    while (i < lx->len && ok((unsigned char)lx->text[i]))
        i++;
    return i - from;
}

static int number(iron__mlir_lexer *lx, iron__mlir_token *t)
{
    const char *s = lx->text;
    size_t start = lx->pos, i = start;
    if (s[i] == '0' && i + 2 < lx->len && (s[i + 1] == 'x') &&
        is_hex((unsigned char)s[i + 2])) {
        i += 2;
        while (i < lx->len && is_hex((unsigned char)s[i]))
            i++;
        set(t, IRON__TK_INT, lx, start, i - start);
        return 0;
    }
    while (i < lx->len && is_digit((unsigned char)s[i]))
        i++;
    if (i < lx->len && s[i] == '.') {
        i++;
        while (i < lx->len && is_digit((unsigned char)s[i]))
            i++;
        if (i < lx->len && (s[i] == 'e' || s[i] == 'E')) {
            size_t j = i + 1;
            if (j < lx->len && (s[j] == '+' || s[j] == '-'))
                j++;
            if (j < lx->len && is_digit((unsigned char)s[j])) {
                while (j < lx->len && is_digit((unsigned char)s[j]))
                    j++;
                i = j;
            }
        }
        set(t, IRON__TK_FLOAT, lx, start, i - start);
        return 0;
    }
    set(t, IRON__TK_INT, lx, start, i - start);
    return 0;
}

int iron__mlir_lex_next(iron__mlir_lexer *lx, iron__mlir_token *t)
{
    if (skip_space(lx))
        return -1;
    t->loc.line = lx->line;
    t->loc.col = lx->col;
    if (lx->pos >= lx->len) {
        set(t, IRON__TK_EOF, lx, lx->pos, 0);
        return 0;
    }
    const char *s = lx->text;
    size_t start = lx->pos;
    unsigned char c = (unsigned char)s[start];
    size_t n = 1;
    iron__mlir_tok k;
    switch (c) {
    case '(': k = IRON__TK_LPAREN; break;
    case ')': k = IRON__TK_RPAREN; break;
    case '{': k = IRON__TK_LBRACE; break;
    case '}': k = IRON__TK_RBRACE; break;
    case '[': k = IRON__TK_LBRACKET; break;
    case ']': k = IRON__TK_RBRACKET; break;
    case '<': k = IRON__TK_LESS; break;
    case '>': k = IRON__TK_GREATER; break;
    case ',': k = IRON__TK_COMMA; break;
    case ':': k = IRON__TK_COLON; break;
    case '=': k = IRON__TK_EQUAL; break;
    case '?': k = IRON__TK_QUESTION; break;
    case '*': k = IRON__TK_STAR; break;
    case '+': k = IRON__TK_PLUS; break;
    case '-':
        if (start + 1 < lx->len && s[start + 1] == '>') {
            k = IRON__TK_ARROW;
            n = 2;
        } else {
            k = IRON__TK_MINUS;
        }
        break;
    case '"':
        n = string_len(lx);
        if (!n)
            return -1;
        k = IRON__TK_STRING;
        break;
    case '%':
    case '^':
        n = run(lx, start + 1, iron__mlir_lex_is_suffix_char);
        if (n == 0)
            return fail_at_u(lx, "'%c' must be followed by a name", c);
        n++;
        k = c == '%' ? IRON__TK_VALUE : IRON__TK_BLOCK;
        /* %name#3: one result of a group */
        if (c == '%' && start + n + 1 < lx->len && s[start + n] == '#' &&
            is_digit((unsigned char)s[start + n + 1]))
            n += 1 + run(lx, start + n + 1, is_digit);
        break;
    case '@':
        if (start + 1 < lx->len && s[start + 1] == '"') {
            iron__mlir_lexer sub = *lx;
            advance(&sub, 1);
            size_t q = string_len(&sub);
            if (!q) {
                return -1;
            }
            n = q + 1;
        } else {
            n = run(lx, start + 1, iron__mlir_lex_is_suffix_char);
            if (n == 0)
                return fail_at(lx, "'@' must be followed by a name");
            n++;
        }
        k = IRON__TK_SYM;
        break;
    case '#':
    case '!':
        n = run(lx, start + 1, iron__mlir_lex_is_bare_char);
        if (n == 0)
            return fail_at_u(lx, "'%c' must be followed by a name", c);
        n++;
        k = c == '#' ? IRON__TK_HASH : IRON__TK_BANG;
        break;
    default:
        if (is_digit(c)) {
            if (number(lx, t))
                return -1;
            advance(lx, t->n);
            return 0;
        }
        if (is_alpha(c) || c == '_') {
            n = run(lx, start, iron__mlir_lex_is_bare_char);
            k = IRON__TK_BARE;
            break;
        }
        if (c >= 0x80)
            return bad_byte(lx);
        if (c < 0x20 || c == 0x7F)
            return fail_at_u(lx, "unexpected control character 0x%02X", c);
        return fail_at_u(lx, "unexpected character '%c'", c);
    }
    set(t, k, lx, start, n);
    advance(lx, n);
    return 0;
}

const char *iron__mlir_tok_name(iron__mlir_tok k)
{
    switch (k) {
    case IRON__TK_EOF: return "the end of the text";
    case IRON__TK_BARE: return "a name";
    case IRON__TK_VALUE: return "a value";
    case IRON__TK_BLOCK: return "a block label";
    case IRON__TK_SYM: return "a symbol";
    case IRON__TK_HASH: return "an attribute name";
    case IRON__TK_BANG: return "a type name";
    case IRON__TK_INT: return "an integer";
    case IRON__TK_FLOAT: return "a float";
    case IRON__TK_STRING: return "a string";
    case IRON__TK_LPAREN: return "'('";
    case IRON__TK_RPAREN: return "')'";
    case IRON__TK_LBRACE: return "'{'";
    case IRON__TK_RBRACE: return "'}'";
    case IRON__TK_LBRACKET: return "'['";
    case IRON__TK_RBRACKET: return "']'";
    case IRON__TK_LESS: return "'<'";
    case IRON__TK_GREATER: return "'>'";
    case IRON__TK_COMMA: return "','";
    case IRON__TK_COLON: return "':'";
    case IRON__TK_EQUAL: return "'='";
    case IRON__TK_ARROW: return "'->'";
    case IRON__TK_QUESTION: return "'?'";
    case IRON__TK_STAR: return "'*'";
    case IRON__TK_PLUS: return "'+'";
    case IRON__TK_MINUS: return "'-'";
    }
    return "a token";
}

static int hex_val(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

long iron__mlir_lex_unescape(const char *p, size_t n, char *out,
                             size_t *bad)
{
    size_t o = 0;
    /* skip the quotes */
    for (size_t i = 1; i + 1 < n; i++) {
        char c = p[i];
        if (c != '\\') {
            out[o++] = c;
            continue;
        }
        char e = i + 2 < n ? p[i + 1] : '\0';
        switch (e) {
        case '"': out[o++] = '"'; i++; break;
        case '\\': out[o++] = '\\'; i++; break;
        case 'n': out[o++] = '\n'; i++; break;
        case 't': out[o++] = '\t'; i++; break;
        default:
            if (i + 3 < n && is_hex((unsigned char)p[i + 1]) &&
                is_hex((unsigned char)p[i + 2])) {
                int v = hex_val((unsigned char)p[i + 1]) * 16 +
                        hex_val((unsigned char)p[i + 2]);
                if (v == 0) {
                    *bad = i;
                    return -1;
                }
                out[o++] = (char)v;
                i += 2;
                break;
            }
            *bad = i;
            return -1;
        }
    }
    out[o] = '\0';
    return (long)o;
}
