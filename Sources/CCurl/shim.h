// Bridge header for libcurl (https://curl.se/libcurl/c/).
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call, and
// CURL_GLOBAL_DEFAULT is a macro expression. The static inline wrappers below give them a fixed arity, one
// per argument type. Only the CurlHTTP module imports this module.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

/// curl_global_init(CURL_GLOBAL_DEFAULT).
static inline CURLcode ccurl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// curl_easy_setopt for options that take a long.
static inline CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a curl_off_t.
static inline CURLcode ccurl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a string or a data pointer.
static inline CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for CURLOPT_HTTPHEADER.
static inline CURLcode ccurl_easy_setopt_list(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// curl_easy_setopt for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode ccurl_easy_setopt_write(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// curl_easy_setopt for CURLOPT_XFERINFOFUNCTION.
static inline CURLcode ccurl_easy_setopt_xferinfo(CURL *handle, CURLoption option,
                                                  curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// curl_easy_setopt for CURLOPT_OPENSOCKETFUNCTION.
static inline CURLcode ccurl_easy_setopt_opensocket(CURL *handle, CURLoption option,
                                                    curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// curl_easy_getinfo for information returned as a long.
static inline CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for information returned as a string (owned by the handle).
static inline CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_multi_setopt for options that take a long.
static inline CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/// CURL_SOCKET_BAD, the socket an opensocket callback returns to refuse a connection.
static inline curl_socket_t ccurl_socket_bad(void) {
    return CURL_SOCKET_BAD;
}

#endif
