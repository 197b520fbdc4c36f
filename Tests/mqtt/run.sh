#!/usr/bin/env bash
# The MQTT integration tests: tock against real mosquitto brokers of our own.
#
#   bash Tests/mqtt/run.sh [TOCK_BIN]      the suite (default .build/debug/tock)
#   bash Tests/mqtt/run.sh --self-test     only the harness's own tests (no tock)
#   bash Tests/mqtt/run.sh [TOCK_BIN] -k partition    tests whose name contains a word
#
# Prints one ok/FAIL line per test and last `mqtt: N passed, M failed (T s)`;
# exits non-zero when a test failed.
#
# Needs, on Debian 12: mosquitto mosquitto-clients python3-paho-mqtt
# python3-jsonschema python3-jinja2 (the Add timer text's template, rendered
# as Home Assistant does) openssl iproute2 iptables; root for the network
# partition test (a network namespace). The brokers listen on 127.0.0.1 on
# free ports (and on a veth address inside the test's own namespace), so a
# system mosquitto service on 1883 does not matter and is left alone.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# Debian's interpreter: it has paho-mqtt and jsonschema from apt.
py=/usr/bin/python3

missing=()
for tool in mosquitto mosquitto_passwd openssl ip iptables; do
	command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
done
"$py" -c 'import paho.mqtt.client, jsonschema, jinja2' 2>/dev/null || missing+=("python3-paho-mqtt/python3-jsonschema/python3-jinja2")
if [ ${#missing[@]} -gt 0 ]; then
	echo "mqtt: missing: ${missing[*]} (apt-get install mosquitto mosquitto-clients python3-paho-mqtt python3-jsonschema python3-jinja2 openssl iproute2 iptables)" >&2
	echo "mqtt: 0 passed, 1 failed (0 s)"
	exit 1
fi
export PATH="$PATH:/usr/sbin:/sbin"
export PYTHONDONTWRITEBYTECODE=1
export PYTHONWARNINGS="ignore::DeprecationWarning"

if [ "${1:-}" = "--self-test" ]; then
	shift
	cd "$here"
	exec "$py" -m unittest -v test_harness "$@"
fi

tock="$repo/.build/debug/tock"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
	tock="$(realpath -m -- "$1")"
	shift
fi
exec "$py" "$here/test_mqtt.py" "$tock" "$@"
