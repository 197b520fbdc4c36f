"""The discovery configs the broker keeps, each checked against the MQTT
platform's own schema in this Home Assistant with unknown keys refused
(discovery would drop them silently). Run by ha_test.py with Home
Assistant's Python, on its standard input:

  python - BROKER_PORT WORK_DIR < discovery_check.py

Prints one JSON object: {"topics": [...], "problems": [...]}.
"""
import asyncio
import importlib
import json
import sys
import time

import paho.mqtt.client as mqtt

try:  # Home Assistant 2026.3 and later validate with probatio, before with voluptuous.
    import probatio as vol
except ImportError:
    import voluptuous as vol
from homeassistant.core import HomeAssistant as Core


def retained_configs(port):
    got = {}
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="ha-test-configs")
    c.on_connect = lambda cl, *a: cl.subscribe("homeassistant/#", 1)
    c.on_message = lambda cl, u, m: got.__setitem__(m.topic, m.payload)
    c.connect("127.0.0.1", port)
    c.loop_start()
    time.sleep(1.5)
    c.loop_stop()
    c.disconnect()
    # Only the configs: Home Assistant's own birth message (`online` on
    # homeassistant/status) may arrive while this listens.
    return {t: json.loads(p) for t, p in got.items() if p and t.endswith("/config")}


async def schema_problems(configs, work):
    # Templates are checked against a Home Assistant instance on this loop
    # (an idle one: it is never started).
    Core(work + "/schema-check")
    problems = []
    for topic, config in sorted(configs.items()):
        component = topic.split("/")[1]
        if component == "device_automation":
            schema = importlib.import_module("homeassistant.components.mqtt.device_trigger").TRIGGER_DISCOVERY_SCHEMA
            schema = schema.extend({}, extra=vol.PREVENT_EXTRA)
        else:
            schema = importlib.import_module(f"homeassistant.components.mqtt.{component}").PLATFORM_SCHEMA_MODERN
        try:
            schema(dict(config))
        except vol.Invalid as e:
            problems.append(f"{topic}: {e}")
    return problems


configs = retained_configs(int(sys.argv[1]))
print(json.dumps({"topics": sorted(configs), "problems": asyncio.run(schema_problems(configs, sys.argv[2]))}))
