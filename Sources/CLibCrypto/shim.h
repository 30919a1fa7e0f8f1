// Bridge header for OpenSSL 3's libcrypto (https://www.openssl.org/docs/man3.0/).
// Only the Crypto module imports this module. The EVP, RAND and CRYPTO_memcmp calls it needs are not
// variadic, so no wrappers are required.
#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#endif
