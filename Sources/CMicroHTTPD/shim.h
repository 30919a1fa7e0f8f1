// Bridge header for libmicrohttpd (https://www.gnu.org/software/libmicrohttpd/manual/).
//
// Swift cannot call C variadic functions, so MHD_start_daemon, MHD_get_daemon_info and
// MHD_get_connection_info are not imported. The static inline wrappers below give them a fixed arity.
// Only the HTTPServer module imports this module.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// MHD_start_daemon with every option passed as one MHD_OPTION_END-terminated MHD_OptionItem array
/// (MHD_OPTION_ARRAY). No accept-policy callback is installed.
static inline struct MHD_Daemon *cmhd_start_daemon(unsigned int flags,
                                                   uint16_t port,
                                                   MHD_AccessHandlerCallback handler,
                                                   void *handler_context,
                                                   struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/// The MHD_OptionItem for MHD_OPTION_NOTIFY_COMPLETED. Options taking two pointers carry the function
/// pointer in `value`, cast to intptr_t (see MHD_OPTION_ARRAY in microhttpd.h).
static inline struct MHD_OptionItem cmhd_option_notify_completed(MHD_RequestCompletedCallback callback,
                                                                 void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) callback, context };
    return item;
}

/// The signature MHD_OPTION_URI_LOG_CALLBACK expects; microhttpd.h gives it no typedef.
typedef void *(*cmhd_uri_log_callback)(void *context, const char *uri, struct MHD_Connection *connection);

/// The MHD_OptionItem for MHD_OPTION_URI_LOG_CALLBACK.
static inline struct MHD_OptionItem cmhd_option_uri_log(cmhd_uri_log_callback callback, void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) callback, context };
    return item;
}

/// The MHD_OptionItem for MHD_OPTION_EXTERNAL_LOGGER.
static inline struct MHD_OptionItem cmhd_option_external_logger(MHD_LogCallback callback, void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) callback, context };
    return item;
}

/// The MHD_OptionItem for MHD_OPTION_NOTIFY_CONNECTION (called when a connection opens and closes).
static inline struct MHD_OptionItem cmhd_option_notify_connection(MHD_NotifyConnectionCallback callback,
                                                                  void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) callback, context };
    return item;
}

/// MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT): the port the daemon listens on, 0 if unknown.
static inline uint16_t cmhd_daemon_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return (NULL == info) ? 0 : info->port;
}

/// MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS): the peer address, or NULL.
static inline const struct sockaddr *cmhd_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return (NULL == info) ? NULL : info->client_addr;
}

/// MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD): the connection's socket, or -1.
static inline int cmhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return (NULL == info) ? -1 : info->connect_fd;
}

#endif
