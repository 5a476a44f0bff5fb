/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * lex.h - MLIR text as tokens, for the parser (parse*.c).  The lexer
 * works on demand, one token at a time; its state is a small struct the
 * parser copies to look ahead or to re-read a shape ("4x?xi32") at a
 * finer grain.
 */
#ifndef IRON_MLIR_LEX_H
#define IRON_MLIR_LEX_H

#include <stddef.h>

#include "mlir/ast.h"

typedef enum iron__mlir_tok {
    IRON__TK_EOF,
    IRON__TK_BARE,       /* bare identifier: arith.constant, x4xi32, to */
    IRON__TK_VALUE,      /* %name, %name#3 */
    IRON__TK_BLOCK,      /* ^bb0 */
    IRON__TK_SYM,        /* @name or @"quoted" (text includes the '@') */
    IRON__TK_HASH,       /* #alias, #dialect.name */
    IRON__TK_BANG,       /* !alias, !dialect.name */
    IRON__TK_INT,        /* 42, 0x2A */
    IRON__TK_FLOAT,      /* 1.5, 2.0e-3 */
    IRON__TK_STRING,     /* "..." (text includes the quotes) */
    IRON__TK_LPAREN,
    IRON__TK_RPAREN,
    IRON__TK_LBRACE,
    IRON__TK_RBRACE,
    IRON__TK_LBRACKET,
    IRON__TK_RBRACKET,
    IRON__TK_LESS,
    IRON__TK_GREATER,
    IRON__TK_COMMA,
    IRON__TK_COLON,
    IRON__TK_EQUAL,
    IRON__TK_ARROW,      /* -> */
    IRON__TK_QUESTION,
    IRON__TK_STAR,
    IRON__TK_PLUS,
    IRON__TK_MINUS
} iron__mlir_tok;

typedef struct iron__mlir_token {
    iron__mlir_tok kind;
    const char *p;       /* the token's text in the source */
    size_t n;
    iron__mlir_loc loc;
} iron__mlir_token;

typedef struct iron__mlir_lexer {
    const char *text;
    size_t len, pos;
    int line, col;
    const char *file;    /* for messages */
} iron__mlir_lexer;

/* Starts at the beginning of text (which must hold no NUL byte: the
 * parser checks first). */
void iron__mlir_lex_init(iron__mlir_lexer *lx, const char *text, size_t len,
                         const char *file);

/* The next token into *t; 0, or -1 with IRON_ESYNTAX set ("FILE:L:C:
 * ..." for a character that starts no token, invalid UTF-8, an
 * unterminated string). */
int iron__mlir_lex_next(iron__mlir_lexer *lx, iron__mlir_token *t);

/* The token kind as a word for messages ("')'", "an integer"). */
const char *iron__mlir_tok_name(iron__mlir_tok k);

/* Decodes a string token's text (with its quotes) into out (at least
 * n - 1 bytes); the decoded length, or -1 with the offset of the bad
 * escape in *bad. */
long iron__mlir_lex_unescape(const char *p, size_t n, char *out,
                             size_t *bad);

/* Whether c continues a bare identifier / a value name. */
int iron__mlir_lex_is_bare_char(int c);
int iron__mlir_lex_is_suffix_char(int c);

#endif
