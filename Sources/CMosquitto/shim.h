// libmosquitto, the Eclipse Mosquitto project's MQTT client library
// (Debian's libmosquitto-dev), for TockMQTT's link to the broker. The loop
// makes only non-blocking calls (the reactor owns the socket); the MQTT 5
// connect, which blocks, runs on a thread of its own (MqttConnectThread).
#include <mosquitto.h>
#include <mqtt_protocol.h>
