/// The page: plain HTML, CSS and JS served from the binary (no CDN, no
/// build step). The display is drawn as SVG from the segment bits the
/// hardware gets (as TockSimulator's SegmentSVG draws them), one column
/// on a phone, two on a desktop.
enum Page {
    static func reply(_ text: String, _ type: String) -> WebReply {
        WebReply(status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-cache"),
                                        ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")],
                 body: Array(text.utf8))
    }

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Tock</title>
    <link rel="stylesheet" href="/app.css">
    <script src="/app.js" defer></script>
    </head>
    <body>
    <header><h1>Tock</h1><span id="state" data-testid="state"></span></header>
    <section id="pairing" hidden>
      <h2>Pair this browser</h2>
      <p>Ask the box for a code: it shows four digits on its display for a minute.</p>
      <button id="ask" type="button">Show a code on the box</button>
      <form id="pair-form">
        <label>Code <input id="code" name="code" inputmode="numeric" autocomplete="off" maxlength="4" pattern="[0-9]{4}" required></label>
        <button type="submit">Pair</button>
      </form>
      <p id="pair-message" role="status"></p>
    </section>
    <main id="app" hidden>
      <section class="card display-card">
        <div id="display" data-testid="display" aria-label=""></div>
        <p id="left"></p>
        <div class="buttons">
          <button data-post="/api/start">Start</button>
          <button data-post="/api/stop">Stop</button>
          <button data-post="/api/reset">Reset</button>
        </div>
        <div class="switch" role="group" aria-label="Up/Down switch">
          <span>Switch</span>
          <button id="switch-up" data-switch="up" aria-pressed="false">Up</button>
          <button id="switch-down" data-switch="down" aria-pressed="false">Down</button>
        </div>
        <p id="ringing" hidden><span id="ring-text"></span>
          <button data-post="/api/alarm/snooze">Snooze</button>
          <button data-post="/api/alarm/dismiss">Dismiss</button></p>
        <p id="message" role="status"></p>
      </section>
      <section class="card">
        <h2>Mode and preset</h2>
        <label>Mode <select id="mode">
          <option>timer</option><option>stopwatch</option><option>countdown</option><option>interval</option>
        </select></label>
        <label id="program-row" hidden>Program <select id="program"></select></label>
        <form id="preset-form"><label>Preset <input id="preset" placeholder="12m30s" required></label>
          <button type="submit">Set</button></form>
        <p id="presets"></p>
      </section>
      <section class="card">
        <h2>Brightness</h2>
        <label>By day <input id="brightness" type="range" min="0" max="7" step="1">
          <output id="brightness-value"></output></label>
        <p id="night-text"></p>
        <form id="night-form">
          <label>Night from <input id="night-from" type="time" required></label>
          <label>to <input id="night-to" type="time" required></label>
          <label>at <select id="night-level"><option>0</option><option selected>1</option><option>2</option><option>3</option>
            <option>4</option><option>5</option><option>6</option><option>7</option></select></label>
          <button type="submit">Set</button>
          <button id="night-off" type="button">No night</button>
        </form>
      </section>
      <section class="card">
        <h2>Alarms</h2>
        <ul id="alarms"></ul>
        <form id="alarm-form">
          <input id="alarm-at" type="time" required aria-label="time">
          <input id="alarm-days" placeholder="every day" aria-label="days">
          <input id="alarm-label" placeholder="label" aria-label="label" maxlength="16">
          <button type="submit">Add</button>
        </form>
      </section>
      <section class="card">
        <h2>Paired browsers</h2>
        <ul id="tokens"></ul>
      </section>
    </main>
    </body>
    </html>
    """#

    static let css = #"""
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body { margin: 0; font: 16px/1.4 system-ui, sans-serif; background: #f3f3f1; color: #1b1b1b; }
    header { display: flex; align-items: baseline; gap: 1em; padding: .6em 1em; background: #1b1b1b; color: #fafafa; }
    header h1 { margin: 0; font-size: 1.3em; }
    main, #pairing { display: grid; gap: 1em; padding: 1em; max-width: 1100px; margin: 0 auto; }
    @media (min-width: 800px) { main { grid-template-columns: 1fr 1fr; } .display-card { grid-row: span 2; } }
    .card { background: #fff; border-radius: 10px; padding: 1em; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
    h2 { margin: 0 0 .5em; font-size: 1.1em; }
    #display svg { width: 100%; height: auto; display: block; border-radius: 8px; }
    .buttons { display: grid; grid-template-columns: repeat(3, 1fr); gap: .5em; margin-top: .8em; }
    button { font: inherit; padding: .7em 1em; border-radius: 8px; border: 1px solid #999; background: #fafafa; cursor: pointer; }
    .buttons button { font-size: 1.15em; }
    input, select { font: inherit; padding: .5em; border-radius: 6px; border: 1px solid #999; max-width: 100%; }
    form { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .5em 0; }
    ul { list-style: none; padding: 0; margin: 0; }
    li { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; padding: .4em 0; border-bottom: 1px solid #eee; }
    li span { flex: 1 1 12em; }
    li button { padding: .3em .6em; }
    .switch { display: flex; gap: .5em; align-items: center; margin-top: .8em; }
    .switch span { flex: 0 0 auto; }
    .switch button { flex: 1; }
    .switch button[aria-pressed="true"] { background: #1b1b1b; color: #fafafa; border-color: #1b1b1b; }
    #brightness { vertical-align: middle; }
    #message, #pair-message { min-height: 1.4em; color: #a01515; }
    """#

    static let js = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);
    const SEG = [[1,0,true],[2,1,false],[2,3,false],[1,4,true],[0,3,false],[0,1,false],[1,2,true]];
    function digitSVG(bits, x) {
      const L = 30, W = 8, out = [];
      SEG.forEach(([cx, cy, h], i) => {
        const on = (bits >> i) & 1;
        let px, py;
        if (h) { px = x + 10 + L / 2; py = 10 + (cy / 2) * L; } else { px = x + 10 + (cx / 2) * L; py = 10 + ((cy + 0) / 2) * L; }
        const s = L / 2 - 2, t = W / 2;
        const pts = h ? [[px - s, py], [px - s + t, py - t], [px + s - t, py - t], [px + s, py], [px + s - t, py + t], [px - s + t, py + t]]
                      : [[px, py - s], [px + t, py - s + t], [px + t, py + s - t], [px, py + s], [px - t, py + s - t], [px - t, py - s + t]];
        out.push(`<polygon class="${on ? "on" : "off"}" points="${pts.map(p => p.join(",")).join(" ")}" fill="${on ? "#e8202a" : "#2e2e2e"}"/>`);
      });
      out.push(`<circle cx="${x + 10 + L + 8}" cy="${10 + 2 * L}" r="4" fill="${(bits & 128) ? "#e8202a" : "#2e2e2e"}"/>`);
      return out.join("");
    }
    function drawDisplay(segments, colon, text) {
      const n = segments.length, step = 58, width = n * step + 20;
      let body = segments.map((b, i) => digitSVG(b, 10 + i * step + (n === 4 && i >= 2 ? 14 : 0))).join("");
      if (n === 4) {
        const cx = 10 + 2 * step + 2, c = colon ? "#e8202a" : "#2e2e2e";
        body += `<circle cx="${cx}" cy="32" r="4" fill="${c}"/><circle cx="${cx}" cy="58" r="4" fill="${c}"/>`;
      }
      $("display").innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width + 14} 90" role="img"><rect width="100%" height="100%" fill="#0c0c0c"/>${body}</svg>`;
      $("display").setAttribute("aria-label", text || "");
      $("display").dataset.text = text || "";
    }
    async function api(method, path, body) {
      const init = { method, headers: {}, credentials: "same-origin" };
      if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
      const r = await fetch(path, init);
      let data = {};
      try { data = await r.json(); } catch (e) {}
      if (r.status === 401) { showPairing(); throw new Error(data.error || "not paired"); }
      if (!r.ok) { throw new Error(data.error || r.statusText); }
      return data;
    }
    function say(text) { $("message").textContent = text || ""; }
    function fmt(ms) { const s = Math.round(ms / 1000), m = Math.floor(s / 60); return `${m}:${String(s % 60).padStart(2, "0")}`; }
    function render(s) {
      $("state").textContent = s.state + (s.mode ? ` · ${s.mode}` : "");
      if (s.segments) drawDisplay(s.segments, s.colon, s.display);
      $("left").textContent = s.remaining_ms !== undefined ? `${fmt(s.remaining_ms)} left` : s.elapsed_ms !== undefined ? `${fmt(s.elapsed_ms)} elapsed` : "";
      $("mode").value = s.mode;
      $("presets").textContent = s.presets ? `Presets: ${s.presets.join(", ")} (now ${s.preset})` : "";
      for (const b of document.querySelectorAll("[data-switch]")) b.setAttribute("aria-pressed", String(s.switch === b.dataset.switch));
      $("program-row").hidden = !s.programs;
      const sel = $("program"), names = s.programs || [];
      if ([...sel.options].map((o) => o.value).join() !== names.join()) {
        sel.innerHTML = "";
        for (const n of names) { const o = document.createElement("option"); o.textContent = n; sel.append(o); }
      }
      if (s.program) sel.value = s.program;
      if (s.brightness !== undefined && document.activeElement !== $("brightness")) $("brightness").value = s.brightness;
      $("brightness-value").textContent = s.brightness;
      $("night-text").textContent = s.night ? `Night ${s.night.from} to ${s.night.to} at ${s.night.brightness}` : "No night schedule";
      if (s.night && !$("night-form").contains(document.activeElement)) {
        $("night-from").value = s.night.from; $("night-to").value = s.night.to; $("night-level").value = String(s.night.brightness);
      }
      $("ringing").hidden = !s.alarm;
      $("ring-text").textContent = s.alarm ? `Alarm ${s.alarm}` : "";
      const ul = $("alarms"); ul.innerHTML = "";
      for (const a of s.alarms || []) {
        const li = document.createElement("li");
        const span = document.createElement("span"); span.textContent = a.line; li.append(span);
        const add = (label, method, path) => { const b = document.createElement("button"); b.textContent = label; b.onclick = () => act(method, path); li.append(b); };
        add(a.enabled ? "Off" : "On", "POST", `/api/alarms/${a.n}/${a.enabled ? "off" : "on"}`);
        add("Skip next", "POST", `/api/alarms/${a.n}/skip-next`);
        add("Remove", "DELETE", `/api/alarms/${a.n}`);
        ul.append(li);
      }
    }
    async function act(method, path, body) {
      try { const s = await api(method, path, body); say(""); if (s.state) render(s); } catch (e) { say(e.message); }
    }
    async function refresh() { render(await api("GET", "/api/status")); }
    async function tokens() {
      const t = await api("GET", "/api/tokens"), ul = $("tokens"); ul.innerHTML = "";
      for (const e of t.tokens) {
        const li = document.createElement("li"), span = document.createElement("span");
        span.textContent = `${e.id} ${e.name}${e.current ? " (this browser)" : ""}`; li.append(span);
        const b = document.createElement("button"); b.textContent = "Revoke";
        b.onclick = async () => { try { await api("DELETE", `/api/tokens/${e.id}`); if (e.current) showPairing(); else tokens(); } catch (x) { say(x.message); } };
        li.append(b); ul.append(li);
      }
    }
    let events;
    function showPairing() { if (events) events.close(); $("app").hidden = true; $("pairing").hidden = false; $("state").textContent = "not paired"; }
    async function showApp() {
      $("pairing").hidden = true; $("app").hidden = false;
      await refresh(); await tokens();
      if (events) events.close();
      events = new EventSource("/api/events");
      events.onmessage = (m) => {
        const e = JSON.parse(m.data);
        if (e.segments) drawDisplay(e.segments, e.colon, e.display);
        if (e.state || e.switch) refresh().catch(() => {});
      };
    }
    document.addEventListener("DOMContentLoaded", () => {
      document.querySelectorAll("[data-post]").forEach((b) => b.onclick = () => act("POST", b.dataset.post));
      $("mode").onchange = () => act("POST", "/api/mode", { mode: $("mode").value });
      $("program").onchange = () => act("POST", "/api/program", { name: $("program").value });
      document.querySelectorAll("[data-switch]").forEach((b) => b.onclick = () => act("POST", "/api/switch", { position: b.dataset.switch }));
      $("brightness").onchange = () => act("POST", "/api/brightness", { level: Number($("brightness").value) });
      $("night-form").onsubmit = (e) => {
        e.preventDefault();
        act("POST", "/api/night", { from: $("night-from").value, to: $("night-to").value, brightness: Number($("night-level").value) });
      };
      $("night-off").onclick = () => act("POST", "/api/night", { off: true });
      $("preset-form").onsubmit = (e) => { e.preventDefault(); act("POST", "/api/preset", { duration: $("preset").value }); };
      $("alarm-form").onsubmit = (e) => {
        e.preventDefault();
        const body = { at: $("alarm-at").value };
        if ($("alarm-days").value) body.days = $("alarm-days").value;
        if ($("alarm-label").value) body.label = $("alarm-label").value;
        act("POST", "/api/alarms", body);
      };
      $("ask").onclick = async () => {
        try { await api("POST", "/api/pair/request"); $("pair-message").textContent = "The box shows a code for a minute: type it here."; }
        catch (e) { $("pair-message").textContent = e.message; }
      };
      $("pair-form").onsubmit = async (e) => {
        e.preventDefault();
        try { await api("POST", "/api/pair", { code: $("code").value, name: navigator.platform || "browser" }); $("pair-message").textContent = ""; await showApp(); }
        catch (x) { $("pair-message").textContent = x.message; }
      };
      showApp().catch(() => showPairing());
    });
    """#
}
