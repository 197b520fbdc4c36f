"""The update entity in Home Assistant, as the family member sees it
(docs/updates.md): what the box's daily check found, and no Install.

The check's result is written beside tock's state file as the check writes
it, then `update-checked` on tock's control socket, as the check's unit
sends it; Home Assistant's state and attributes are read back with the
family member's token. Versions are Debian's: an epoch Home Assistant
cannot order is still "on" (the box said newer), and a repository's
"0.2.0~rc1" under an installed 0.2.0 is "off" (the box sends the installed
version as the latest, since Home Assistant cannot order "~")."""
import asyncio
import time

ENTITY = "update.tock_kitchen_update"
# UpdateEntityFeature.INSTALL (homeassistant/components/update/const.py).
INSTALL = 1


async def member_state(ha):
    """The entity's state as the family member reads it (REST, their token)."""
    m = ha.member
    async with m.session.get(f"{m.url}/api/states/{ENTITY}", headers={"Authorization": f"Bearer {m.token}"}) as r:
        return await r.json() if r.status == 200 else None


async def until(ha, pred, timeout=10):
    deadline = time.monotonic() + timeout
    s = None
    while time.monotonic() < deadline:
        s = await member_state(ha)
        if s and pred(s):
            return s
        await asyncio.sleep(0.2)
    return s


async def update_entity(ha, tock, check, latencies):
    def told(text):
        (tock.dir / "update-check.json").write_text(text)
        t0 = time.monotonic()
        r = tock.request({"cmd": "update-checked"})
        check(r.get("ok") is True, "update-checked taken by the box", r)
        return t0

    def attrs(s):
        return (s or {}).get("attributes", {})

    t0 = told('{"v":1,"checked":"2026-11-27T03:00:00Z","result":"no_repository","installed":"0.1.0",'
              '"reason":"/etc/apt/sources.list.d/tock.sources names no repository (https://tock.invalid/debian)"}')
    s = await until(ha, lambda s: "No repository" in (attrs(s).get("release_summary") or ""))
    check(s and s["state"] == "unknown" and attrs(s).get("installed_version") == "0.1.0" and attrs(s).get("latest_version") is None,
          "Update: no repository configured reads unknown, never up to date, and says why", s)
    check(not (attrs(s).get("supported_features", 0) & INSTALL), "Update: no Install offered", attrs(s))

    t0 = told('{"v":1,"checked":"2026-11-27T03:00:00Z","result":"available","installed":"0.1.0","latest":"1:0.0.1"}')
    s = await until(ha, lambda s: s["state"] == "on")
    latencies.append(("Update (update-checked)", round((time.monotonic() - t0) * 1000) if s and s["state"] == "on" else None))
    check(s and s["state"] == "on" and attrs(s).get("latest_version") == "1:0.0.1" and "tock-update" in attrs(s).get("release_summary", ""),
          "Update: 1:0.0.1 over 0.1.0 (an epoch) is on, the summary says tock-update on the box", s)

    told('{"v":1,"checked":"2026-11-28T03:00:00Z","result":"current","installed":"0.2.0","latest":"0.2.0~rc1"}')
    s = await until(ha, lambda s: s["state"] == "off")
    check(s and s["state"] == "off" and attrs(s).get("installed_version") == "0.2.0" and "0.2.0~rc1" in attrs(s).get("release_summary", ""),
          "Update: 0.2.0~rc1 offered under 0.2.0 installed is off (dpkg's order)", s)

    # No action installs. update.install is an administrator's action in
    # this Home Assistant: the family member is refused ("Unauthorized", one
    # log line the test expects); the owner is refused too, because the
    # entity offers no Install. The box unchanged either way.
    before = tock.request({"cmd": "status"}).get("update")
    refusals = {}
    for who, caller in (("the family member", ha.member), ("the owner", ha)):
        try:
            await caller.call(type="call_service", domain="update", service="install", target={"entity_id": ENTITY})
            refusals[who] = None
        except AssertionError as e:
            refusals[who] = str(e)
    ha.member.unauthorized = [u for u in ha.member.unauthorized if u[0] != "update"]
    if refusals["the family member"] and "unauthorized" in refusals["the family member"].lower():
        ha.member.expected_refusals.append("Error during service call to update.install: Unauthorized")
    check(refusals["the family member"] is not None, "Update: update.install refused to the family member", refusals)
    check(refusals["the owner"] is not None and "unauthorized" not in refusals["the owner"].lower(),
          "Update: update.install refused to the owner too (no Install: the entity does not support it)", refusals)
    check(tock.request({"cmd": "status"}).get("update") == before, "Update: the box unchanged by the refused installs")
