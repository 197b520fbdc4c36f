// libmosquitto, the Eclipse Mosquitto project's MQTT client library
// (Debian's libmosquitto-dev), for TockMQTT's link to the broker. The loop
// makes only non-blocking calls (the reactor owns the socket); the MQTT 5
// connect, which blocks, runs on a thread of its own (MqttConnectThread).
//
// The library is opened with dlopen(3) when an `mqtt:` section is
// configured, not linked: a box without MQTT neither loads nor relocates
// libmosquitto and the TLS libraries it brings (libssl, libcrypto).
// `tock_mosquitto_load` opens it and resolves every function Tock calls;
// the `tock_mosquitto_*` functions below call them, with libmosquitto's
// own signatures (mosquitto.h).
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>

#define TOCK_MOSQUITTO_FUNCTIONS(X) \
    X(lib_init) X(new) X(destroy) X(user_data_set) X(int_option) X(will_set) \
    X(username_pw_set) X(tls_set) X(connect_callback_set) X(message_callback_set) \
    X(publish_callback_set) X(socket) X(loop_read) X(loop_write) X(loop_misc) \
    X(want_write) X(subscribe) X(publish) X(disconnect) X(strerror) X(reason_string) \
    X(connack_string) X(property_add_int32) X(property_free_all) X(connect_bind_v5)

struct tock_mosquitto_api {
#define TOCK_MOSQUITTO_MEMBER(name) __typeof__(mosquitto_##name) *name;
    TOCK_MOSQUITTO_FUNCTIONS(TOCK_MOSQUITTO_MEMBER)
#undef TOCK_MOSQUITTO_MEMBER
};
extern struct tock_mosquitto_api tock_mosquitto;

/// Opens `library` (libmosquitto.so.1) and resolves every function. 0 on
/// success; -1 with a message in `error` when the library or one of its
/// functions cannot be had. The first library loaded stays in use; a later
/// call still opens and checks its `library`.
int tock_mosquitto_load(const char *library, char *error, size_t size);

static inline int tock_mosquitto_lib_init(void) { return tock_mosquitto.lib_init(); }
static inline struct mosquitto *tock_mosquitto_new(const char *id, bool clean_session, void *obj) { return tock_mosquitto.new(id, clean_session, obj); }
static inline void tock_mosquitto_destroy(struct mosquitto *m) { tock_mosquitto.destroy(m); }
static inline void tock_mosquitto_user_data_set(struct mosquitto *m, void *obj) { tock_mosquitto.user_data_set(m, obj); }
static inline int tock_mosquitto_int_option(struct mosquitto *m, enum mosq_opt_t option, int value) { return tock_mosquitto.int_option(m, option, value); }
static inline int tock_mosquitto_will_set(struct mosquitto *m, const char *topic, int payloadlen, const void *payload, int qos, bool retain) { return tock_mosquitto.will_set(m, topic, payloadlen, payload, qos, retain); }
static inline int tock_mosquitto_username_pw_set(struct mosquitto *m, const char *username, const char *password) { return tock_mosquitto.username_pw_set(m, username, password); }
static inline int tock_mosquitto_tls_set(struct mosquitto *m, const char *cafile, const char *capath, const char *certfile, const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) { return tock_mosquitto.tls_set(m, cafile, capath, certfile, keyfile, pw_callback); }
static inline void tock_mosquitto_connect_callback_set(struct mosquitto *m, void (*on_connect)(struct mosquitto *, void *, int)) { tock_mosquitto.connect_callback_set(m, on_connect); }
static inline void tock_mosquitto_message_callback_set(struct mosquitto *m, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) { tock_mosquitto.message_callback_set(m, on_message); }
static inline void tock_mosquitto_publish_callback_set(struct mosquitto *m, void (*on_publish)(struct mosquitto *, void *, int)) { tock_mosquitto.publish_callback_set(m, on_publish); }
static inline int tock_mosquitto_socket(struct mosquitto *m) { return tock_mosquitto.socket(m); }
static inline int tock_mosquitto_loop_read(struct mosquitto *m, int max_packets) { return tock_mosquitto.loop_read(m, max_packets); }
static inline int tock_mosquitto_loop_write(struct mosquitto *m, int max_packets) { return tock_mosquitto.loop_write(m, max_packets); }
static inline int tock_mosquitto_loop_misc(struct mosquitto *m) { return tock_mosquitto.loop_misc(m); }
static inline bool tock_mosquitto_want_write(struct mosquitto *m) { return tock_mosquitto.want_write(m); }
static inline int tock_mosquitto_subscribe(struct mosquitto *m, int *mid, const char *sub, int qos) { return tock_mosquitto.subscribe(m, mid, sub, qos); }
static inline int tock_mosquitto_publish(struct mosquitto *m, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain) { return tock_mosquitto.publish(m, mid, topic, payloadlen, payload, qos, retain); }
static inline int tock_mosquitto_disconnect(struct mosquitto *m) { return tock_mosquitto.disconnect(m); }
static inline const char *tock_mosquitto_strerror(int mosq_errno) { return tock_mosquitto.strerror(mosq_errno); }
static inline const char *tock_mosquitto_reason_string(int reason_code) { return tock_mosquitto.reason_string(reason_code); }
static inline const char *tock_mosquitto_connack_string(int connack_code) { return tock_mosquitto.connack_string(connack_code); }
static inline int tock_mosquitto_property_add_int32(mosquitto_property **proplist, int identifier, uint32_t value) { return tock_mosquitto.property_add_int32(proplist, identifier, value); }
static inline void tock_mosquitto_property_free_all(mosquitto_property **properties) { tock_mosquitto.property_free_all(properties); }
static inline int tock_mosquitto_connect_bind_v5(struct mosquitto *m, const char *host, int port, int keepalive, const char *bind_address, const mosquitto_property *properties) { return tock_mosquitto.connect_bind_v5(m, host, port, keepalive, bind_address, properties); }
