// Bridge header for zlib (https://zlib.net/manual.html).
//
// deflateInit2 and inflateInit2 are function-like macros (they pass ZLIB_VERSION and sizeof(z_stream)
// to deflateInit2_ and inflateInit2_), which Swift does not import. The static inline wrappers below
// give them a fixed arity. Only the Gzip module imports this module.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// deflateInit2 for the gzip format (window bits 15 + 16), deflate method, memory level 8, default
/// strategy, at compression `level` (0-9, or Z_DEFAULT_COMPRESSION).
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// inflateInit2 for the gzip format only (window bits 15 + 16).
static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

/// inflateInit2 for the zlib format (RFC 1950, window bits 15), as PNG images hold their pixels.
static inline int czlib_inflate_init_zlib(z_streamp stream) {
    return inflateInit2(stream, 15);
}

#endif
