"""The household in make ha-test: a Home Assistant user who is not an
administrator, as most of a family are, and what such a user does with Tock.

Since Home Assistant 2026.10 `mqtt.publish` is an administrator's action
(async_register_admin_service): a person who is not one gets
"Unauthorized" from it, directly or through a script their sentence runs.
ha_test.py makes this user right after onboarding and sends every entity
action and every Assist sentence of the test with the user's token
(`Member`); `household` then goes through what the Timer select, its
buttons, Silence and the Up/Down switch do, and what they refuse.
"""
import asyncio
import json
import time

import aiohttp

NAME, USERNAME, PASSWORD = "Family", "family", "family-password-1"


class Member:
    """A websocket and a bearer token of the family member. Every refusal
    that says "unauthorized", from a call or in an Assist reply, is kept
    in `unauthorized` (the test fails on any)."""

    def __init__(self, url, session, token):
        self.url, self.session, self.token = url, session, token
        self.ws = None
        self.msg_id = 0
        self.results = {}
        self.unauthorized = []
        # The test's own mqtt.publish, refused on purpose (its one log line).
        self.publish_refused = False
        # Log lines of refusals a test step asked for (update_entity).
        self.expected_refusals = []

    async def connect(self):
        self.ws = await self.session.ws_connect(f"{self.url}/api/websocket")
        await self.ws.receive_json()
        await self.ws.send_json({"type": "auth", "access_token": self.token})
        assert (await self.ws.receive_json())["type"] == "auth_ok", "the family member's token is refused"
        asyncio.get_running_loop().create_task(self._read())

    async def _read(self):
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data.get("type") == "result" and data["id"] in self.results:
                self.results.pop(data["id"]).set_result(data)

    async def call(self, **msg):
        self.msg_id += 1
        msg["id"] = self.msg_id
        fut = asyncio.get_running_loop().create_future()
        self.results[self.msg_id] = fut
        await self.ws.send_json(msg)
        data = await asyncio.wait_for(fut, 30)
        if not data.get("success"):
            error = data.get("error") or {}
            if "unauthorized" in f"{error.get('code')} {error.get('message')}".lower():
                self.unauthorized.append((msg.get("domain"), msg.get("service"), msg.get("target"), error))
            raise AssertionError(f"{msg['type']} failed: {error}")
        return data.get("result"), self.msg_id

    async def rest(self, method, path, body=None):
        async with self.session.request(method, f"{self.url}{path}", json=body,
                                        headers={"Authorization": f"Bearer {self.token}"}) as r:
            out = await r.json()
        if "unauthorized" in json.dumps(out).lower():
            self.unauthorized.append((method, path, body, out))
        return r.status, out


async def join(ha):
    """The family member: made by the owner (Settings → People → Add
    person, with a login, not an administrator), logged in through the
    login flow as the app does. Returns a connected `Member`."""
    made, _ = await ha.call(type="config/auth/create", name=NAME, group_ids=["system-users"], local_only=False)
    await ha.call(type="config/auth_provider/homeassistant/create", user_id=made["user"]["id"],
                  username=USERNAME, password=PASSWORD)
    client_id = f"{ha.url}/"
    session = aiohttp.ClientSession()
    async with session.post(f"{ha.url}/auth/login_flow", json={
            "client_id": client_id, "handler": ["homeassistant", None], "redirect_uri": f"{client_id}?auth_callback=1"}) as r:
        flow = await r.json()
    async with session.post(f"{ha.url}/auth/login_flow/{flow['flow_id']}", json={
            "client_id": client_id, "username": USERNAME, "password": PASSWORD}) as r:
        done = await r.json()
    assert done.get("type") == "create_entry", f"the family member cannot log in: {done}"
    async with session.post(f"{ha.url}/auth/token", data={
            "grant_type": "authorization_code", "code": done["result"], "client_id": client_id}) as r:
        token = (await r.json())["access_token"]
    member = Member(ha.url, session, token)
    await member.connect()
    return member


async def listen(ha, topic):
    """The owner's subscription to a topic of the box (Home Assistant's
    mqtt/subscribe is an administrator's too): its messages come among
    the owner's websocket events."""
    _, sub = await ha.call(type="mqtt/subscribe", topic=topic)
    # Home Assistant gathers new subscriptions for a moment before it
    # sends them to the broker: what comes before is not forwarded.
    await asyncio.sleep(2)
    return sub


def heard(ha, sub):
    """The JSON messages of subscription `sub` so far, leaving other events."""
    out, kept = [], []
    while not ha.events.empty():
        ev = ha.events.get_nowait()
        (out if ev.get("id") == sub else kept).append(ev)
    for ev in kept:
        ha.events.put_nowait(ev)
    return [json.loads(e["event"]["payload"]) for e in out]


async def household(ha, tock, check):
    """The Timer select and its buttons, Silence and the Up/Down switch, as
    the family member; each refusal clear and changing nothing else."""
    member = ha.member
    me, _ = await member.call(type="auth/current_user")
    check(me.get("is_admin") is False and me.get("name") == NAME, "the family member is not an administrator", me)
    # The rule this is all about, in force in this Home Assistant.
    try:
        await member.call(type="call_service", domain="mqtt", service="publish",
                          service_data={"topic": "tock/kitchen/cmd", "payload": '{"cmd":"status"}'})
        refused = None
    except AssertionError as e:
        refused = str(e)
    member.unauthorized = [u for u in member.unauthorized if u[0] != "mqtt"]  # expected: not an everyday step
    member.publish_refused = refused is not None
    check(refused is not None and "unauthorized" in refused.lower(), "mqtt.publish is refused to the family member", refused)

    def timers():
        return {t["name"]: t["state"] for t in tock.request({"cmd": "timer", "op": "list"}).get("timers", [])}

    async def options():
        s = await ha.state("select.tock_kitchen_timer")
        return (s or {}).get("attributes", {}).get("options")

    async def offered(names):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if await options() == names:
                return True
            await asyncio.sleep(0.2)
        return False

    check(await ha.wait_value("select.tock_kitchen_timer", "unavailable") and
          await ha.value("button.tock_kitchen_timer_pause") == "unavailable",
          "no timer in progress: the Timer select and its buttons are unavailable")
    await ha.service("text", "set_value", "text.tock_kitchen_add_timer", value="EGG 10m")
    await asyncio.sleep(1.1)
    await ha.service("text", "set_value", "text.tock_kitchen_add_timer", value="tEA 10m")
    # Home Assistant's call returns once it has published the command: the
    # box is asked for the third timer only once it has the second, or the
    # socket's request can overtake the broker's and change the order.
    deadline = time.monotonic() + 10
    while "tEA" not in timers() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    # A name with signs the display draws, and a space inside (the control
    # socket adds it; Add timer takes one word).
    tock.request({"cmd": "timer", "op": "add", "name": "-_ H", "duration": "20m"})
    check(await offered(["EGG", "tEA", "-_ H"]), "the Timer select offers the timers in progress, in order", await options())
    check(await ha.wait_value("select.tock_kitchen_timer", "EGG"), "the first one is selected",
          await ha.value("select.tock_kitchen_timer"))
    check(await ha.timed("Timer select", "select", "select_option", "select.tock_kitchen_timer", {"option": "tEA"},
                         "select.tock_kitchen_timer", "tEA"), "selecting tEA")

    async def box_says(name, state):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if timers().get(name) == state:
                return True
            await asyncio.sleep(0.1)
        return False
    await ha.service("button", "press", "button.tock_kitchen_timer_pause")
    check(await box_says("tEA", "paused") and timers()["EGG"] == "running", "Pause timer pauses the selected one only", timers())
    await ha.service("button", "press", "button.tock_kitchen_timer_resume")
    check(await box_says("tEA", "running"), "Resume timer resumes it", timers())
    await ha.service("select", "select_option", "select.tock_kitchen_timer", option="-_ H")
    check(await ha.wait_value("select.tock_kitchen_timer", "-_ H"), "a name with signs and a space is selected")
    await ha.service("button", "press", "button.tock_kitchen_timer_pause")
    check(await box_says("-_ H", "paused"), "and paused", timers())

    # A flood of presses: each is a request of its own; the paused one is
    # refused (it is not running), answered, logged at most once a minute.
    replies = await listen(ha, "tock/kitchen/reply")
    log_at = tock.log_size()
    before = tock.request({"cmd": "status"})
    await asyncio.gather(*(ha.service("button", "press", "button.tock_kitchen_timer_pause") for _ in range(40)))
    # Every reply, however busy the machine (up to 20 s), then 1 s for any
    # reply too many.
    said = []
    deadline = time.monotonic() + 20
    while len(said) < 40 and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        said += heard(ha, replies)
    await asyncio.sleep(1)
    said += heard(ha, replies)
    after = tock.request({"cmd": "status"})
    check(timers() == {"EGG": "running", "tEA": "running", "-_ H": "paused"} and after["state"] == before["state"],
          "40 presses of Pause timer at once change nothing else", timers())
    check(len(said) == 40 and all(r.get("ok") is False and "-_ H is paused; only a running timer pauses" in r.get("error", "")
                                  for r in said), "each is refused on reply with the reason", (len(said), said[:3]))
    check(tock.log_since(log_at).count("mqtt: refused") <= 1, "and logged once at most", tock.log_since(log_at)[-1500:])

    # A name that is not (or no longer) there: Home Assistant refuses it
    # from its options; on the topic itself the box refuses it.
    try:
        await ha.service("select", "select_option", "select.tock_kitchen_timer", option="GONE")
        said = None
    except AssertionError as e:
        said = str(e)
    check(said is not None and "unauthorized" not in said.lower(), "Home Assistant refuses a name it does not offer", said)
    log_at = tock.log_size()
    ignored = tock.request({"cmd": "status"})["mqtt"]["ignored"]
    for payload in ['{"op":"select","name":"GONE"}', '{"op":"select","name":"E\\"G"}', '{"op":"select"}',
                    '{"op":"explode"}', '{"op":"pause","name":"tEA"}', '[]', '', 'x' * 2000]:
        await ha.call(type="call_service", domain="mqtt", service="publish",
                      service_data={"topic": "tock/kitchen/timer_cmd", "payload": payload, "qos": 1})
    await asyncio.sleep(1.5)
    log = tock.log_since(log_at)
    said = [r.get("error") for r in heard(ha, replies)]
    check(await ha.value("select.tock_kitchen_timer") == "-_ H" and timers()["-_ H"] == "paused",
          "bad payloads on timer_cmd change neither the selection nor a timer", (await ha.value("select.tock_kitchen_timer"), timers()))
    check(said == ['no timer named "GONE" is in progress (in progress: EGG, tEA, -_ H); the selection stays as it was',
                   'no timer named "E\\"G" is in progress (in progress: EGG, tEA, -_ H); the selection stays as it was'],
          "a name not in progress is refused on reply, with those that are", said)
    check(tock.request({"cmd": "status"})["mqtt"]["ignored"] - ignored == 6, "the 6 malformed ones are counted as ignored",
          tock.request({"cmd": "status"})["mqtt"])
    check("mqtt: ignored a message on tock/kitchen/timer_cmd" in log or "mqtt: ignored" not in log,
          "and logged as ignored on timer_cmd (at most once a minute)", log[-1500:])

    await ha.service("button", "press", "button.tock_kitchen_timer_cancel")
    check(await box_says("-_ H", None), "Cancel timer cancels the selected one", timers())
    check(await offered(["EGG", "tEA"]) and await ha.wait_value("select.tock_kitchen_timer", "EGG"),
          "the select drops it and selects the first in progress", (await options(), await ha.value("select.tock_kitchen_timer")))
    for name in ("EGG", "tEA"):
        tock.request({"cmd": "timer", "op": "cancel", "name": name})
    check(await ha.wait_value("select.tock_kitchen_timer", "unavailable"), "none in progress: unavailable again")

    # Silence: offered while something rings, whatever it is.
    check(await ha.value("button.tock_kitchen_silence") == "unavailable", "Silence is unavailable while nothing rings")
    await ha.service("text", "set_value", "text.tock_kitchen_add_timer", value="biP 2s")
    check(await ha.wait_value("button.tock_kitchen_silence", "unknown", 10), "Silence is offered when an extra timer rings")
    await ha.service("button", "press", "button.tock_kitchen_silence")
    check(await box_says("biP", "done"), "Silence silences the extra timer", timers())
    check(await ha.wait_value("button.tock_kitchen_silence", "unavailable"), "and is unavailable again")
    await ha.service("select", "select_option", "select.tock_kitchen_up_down", option="up")
    check(await ha.wait_value("sensor.tock_kitchen_direction", "up"), "the Up/Down switch set to Up: the count goes up")
    await ha.service("select", "select_option", "select.tock_kitchen_up_down", option="down")
    check(await ha.wait_value("sensor.tock_kitchen_direction", "down"), "and to Down")
    await ha.service("text", "set_value", "text.tock_kitchen_preset", value="2s")
    await ha.wait_value("text.tock_kitchen_preset", "2s")
    await ha.service("button", "press", "button.tock_kitchen_start")
    check(await ha.wait_value("sensor.tock_kitchen_state", "ringing", 10), "the count rings")
    check(await ha.timed("Silence", "button", "press", "button.tock_kitchen_silence", {},
                         "sensor.tock_kitchen_state", "done"), "Silence silences the count")
    st = tock.request({"cmd": "silence"})
    check(st.get("ok") is False and "nothing rings" in st.get("error", ""), "a silence when nothing rings is refused", st)
    await ha.service("button", "press", "button.tock_kitchen_reset")
    await ha.wait_value("sensor.tock_kitchen_state", "ready")
    await ha.service("text", "set_value", "text.tock_kitchen_preset", value="5m")
    await ha.wait_value("text.tock_kitchen_preset", "5m")
