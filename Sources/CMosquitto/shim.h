// libmosquitto, the Eclipse Mosquitto project's MQTT client library
// (Debian's libmosquitto-dev), for TockAppliance's MQTT link. Only the
// non-blocking calls are used: the reactor owns the socket.
#include <mosquitto.h>
