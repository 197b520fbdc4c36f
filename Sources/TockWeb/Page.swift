import TockControl

/// The page: plain HTML, CSS and JS served from the binary (no CDN, no
/// build step). The display is drawn as SVG from the segment bits the
/// hardware gets (as TockSimulator's SegmentSVG draws them), one column
/// on a phone, two on a desktop.
enum Page {
    /// The files by path, made ready once.
    static let assets: [String: StaticAsset] = [
        "": StaticAsset(html, type: "text/html; charset=utf-8"),
        "index.html": StaticAsset(html, type: "text/html; charset=utf-8"),
        "app.js": StaticAsset(js, type: "text/javascript; charset=utf-8"),
        "app.css": StaticAsset(css, type: "text/css; charset=utf-8"),
        "icon.svg": StaticAsset(icon, type: "image/svg+xml"),
        "manifest.webmanifest": StaticAsset(manifest, type: "application/manifest+json"),
    ]

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="theme-color" content="#1b1b1b">
    <title>Tock</title>
    <link rel="manifest" href="/manifest.webmanifest">
    <link rel="icon" href="/icon.svg" type="image/svg+xml">
    <link rel="apple-touch-icon" href="/icon.svg">
    <link rel="stylesheet" href="/app.css">
    <script src="/app.js" defer></script>
    </head>
    <body>
    <header><h1>Tock <span id="host" data-testid="host"></span></h1><span id="state" data-testid="state"></span></header>
    <section id="pairing" hidden>
      <h2>Pair this browser</h2>
      <p>Pairing needs a hand on the box. Ask for a code: the box shows <b>HoLd</b>; hold its Start button until four digits appear, then type them here.</p>
      <button id="ask" type="button">Show a code on the box</button>
      <form id="pair-form">
        <label for="code">Code</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="off" maxlength="4" pattern="[0-9]{4}" required aria-describedby="pair-message">
        <button type="submit">Pair</button>
      </form>
      <p id="pair-message" class="hint" role="status"></p>
    </section>
    <main id="app" hidden>
      <section class="card display-card">
        <div id="ringing" role="alert" hidden>
          <p id="ring-text"></p>
          <button id="silence" class="wide"></button>
          <button id="dismiss" class="wide" hidden>Dismiss</button>
        </div>
        <div id="display" data-testid="display" aria-label=""></div>
        \#(countLineHTML)
        <div class="buttons">
          <button id="start" class="start" data-post="/api/start"><span aria-hidden="true">&#9654;</span> Start</button>
          <button id="stop" class="stop" data-post="/api/stop"><span aria-hidden="true">&#10074;&#10074;</span> Stop</button>
          <button id="reset" class="reset" data-post="/api/reset"><span aria-hidden="true">&#8634;</span> Reset</button>
        </div>
        <div class="switch" role="group" aria-labelledby="switch-name">
          <span id="switch-name">Switch</span>
          <button id="switch-up" data-switch="up" aria-pressed="false">Up</button>
          <button id="switch-down" data-switch="down" aria-pressed="false">Down</button>
        </div>
        <p id="snoozed" hidden><span id="snoozed-text"></span> <button data-post="/api/alarm/dismiss">Dismiss</button></p>
        <p id="update" class="hint" data-testid="update" hidden></p>
        <p id="unverified" hidden>The box's clock is not synchronised yet: alarm and countdown times are unverified.</p>
        <p id="message" class="error" role="status"></p>
      </section>
      \#(timersHTML)
      <section class="card">
        <h2>Mode and preset</h2>
        <div class="field"><label for="mode">Mode</label> <select id="mode">
          \#(ControlRequest.modes.map { "<option>\($0)</option>" }.joined())
        </select></div>
        <p id="mode-error" class="error" role="status"></p>
        <div id="program-row" class="field" hidden><label for="program">Program</label> <select id="program"></select></div>
        <form id="preset-form"><label for="preset">Preset</label> <input id="preset" placeholder="12m30s" required aria-describedby="preset-error">
          <button type="submit">Set</button></form>
        <p id="preset-error" class="error" role="status"></p>
        <p id="presets"></p>
      </section>
      <section class="card">
        <h2>Brightness</h2>
        <div class="field"><label for="brightness">By day</label> <input id="brightness" type="range" min="0" max="7" step="1">
          <output id="brightness-value" for="brightness"></output></div>
        <p id="brightness-error" class="error" role="status"></p>
        <p id="night-text"></p>
        <form id="night-form">
          <label for="night-from">Night from</label> <input id="night-from" class="hhmm" required>
          <label for="night-to">to</label> <input id="night-to" class="hhmm" required>
          <label for="night-level">at</label> <select id="night-level"><option>0</option><option selected>1</option><option>2</option><option>3</option>
            <option>4</option><option>5</option><option>6</option><option>7</option></select>
          <button type="submit">Set</button>
          <button id="night-off" type="button">No night</button>
        </form>
        <p id="night-error" class="error" role="status"></p>
      </section>
      <section class="card">
        <h2>Alarms</h2>
        <ul id="alarms"></ul>
        <form id="alarm-form">
          <label for="alarm-at">At</label> <input id="alarm-at" class="hhmm" required>
          <label for="alarm-days">Days</label> <input id="alarm-days" placeholder="every day">
          <label for="alarm-label">Label</label> <input id="alarm-label" maxlength="16">
          <button type="submit">Add</button>
        </form>
        <p id="alarm-error" class="error" role="status"></p>
      </section>
      <section class="card">
        <h2>Paired browsers</h2>
        <ul id="tokens"></ul>
      </section>
    </main>
    </body>
    </html>
    """#

    /// A home-screen icon (the manifest's, and the tab's): a lit 7-segment
    /// digit on the display's black.
    static let icon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="18" fill="#0c0c0c"/><g fill="#e8202a"><path d="M34 16h28l-5 6H39z"/><path d="M65 19v26l-5-4V24z"/><path d="M65 51v26l-5-5V55z"/><path d="M34 80h28l-5-6H39z"/><path d="M31 51v26l5-5V55z"/><path d="M31 19v26l5-4V24z" opacity=".25"/><path d="M35 48l4-4h18l4 4-4 4H39z"/></g></svg>
    """#

    static let manifest = #"""
    {"name":"Tock","short_name":"Tock","start_url":"/","scope":"/","display":"standalone","background_color":"#1b1b1b","theme_color":"#1b1b1b",
     "icons":[{"src":"/icon.svg","sizes":"any","type":"image/svg+xml","purpose":"any"}]}
    """#

    static let css = #"""
    :root { --bg: #f3f3f1; --fg: #1b1b1b; --card: #fff; --line: #999; --soft: #eee; --btn: #fafafa; --err: #a01515;
            --go: #1d7a34; --halt: #b86e00; --ring: #c4161c; color-scheme: light dark; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #111; --fg: #e8e8e8; --card: #1e1e1e; --line: #555; --soft: #2a2a2a; --btn: #2b2b2b; --err: #ff7b7b;
              --go: #2f9e4c; --halt: #c98a1c; --ring: #d8262c; }
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body { margin: 0; font: 16px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
    header { display: flex; align-items: baseline; gap: 1em; padding: .6em 1em; background: #1b1b1b; color: #fafafa; }
    header h1 { margin: 0; font-size: 1.3em; }
    main, #pairing { display: grid; gap: 1em; padding: 1em; max-width: 1100px; margin: 0 auto; }
    @media (min-width: 800px) { main { grid-template-columns: 1fr 1fr; } .display-card { grid-row: span 2; } }
    .card { background: var(--card); border-radius: 10px; padding: 1em; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
    h2 { margin: 0 0 .5em; font-size: 1.1em; }
    #display svg { width: 100%; height: auto; display: block; border-radius: 8px; }
    #left { margin: .4em 0 0; font-variant-numeric: tabular-nums; }
    .buttons { display: grid; grid-template-columns: repeat(3, 1fr); gap: .5em; margin-top: .8em; }
    button { font: inherit; color: inherit; padding: .7em 1em; border-radius: 8px; border: 1px solid var(--line); background: var(--btn); cursor: pointer; }
    .buttons button { font-size: 1.15em; font-weight: 600; color: #fff; border: 0; }
    .buttons .start { background: var(--go); }
    .buttons .stop { background: var(--halt); }
    .buttons .reset { background: #5a5f66; }
    input, select { font: inherit; color: inherit; background: var(--card); padding: .5em; border-radius: 6px; border: 1px solid var(--line); max-width: 100%; }
    input.hhmm { width: 5.5em; font-variant-numeric: tabular-nums; }
    input[aria-invalid="true"] { border-color: var(--err); }
    form, .field { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .5em 0; }
    ul { list-style: none; padding: 0; margin: 0; }
    li { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; padding: .4em 0; border-bottom: 1px solid var(--soft); }
    li span { flex: 1 1 12em; }
    li button { padding: .3em .6em; }
    .switch { display: flex; gap: .5em; align-items: center; margin-top: .8em; }
    .switch span { flex: 0 0 auto; }
    .switch button { flex: 1; }
    .switch button[aria-pressed="true"] { background: var(--fg); color: var(--bg); border-color: var(--fg); }
    #brightness { vertical-align: middle; }
    .error { margin: 0; color: var(--err); }
    .hint { margin: 0; }
    #host:not(:empty)::before { content: "\00b7 "; }
    .error:empty { display: none; }
    #message, #pair-message { min-height: 1.4em; }
    #ringing { display: grid; gap: .6em; margin-bottom: .8em; padding: 1em; border-radius: 10px; background: var(--ring); color: #fff;
               animation: pulse 1s ease-in-out infinite alternate; }
    #ring-text { margin: 0; font-size: 1.6em; font-weight: 700; text-align: center; }
    .wide { display: block; width: 100%; padding: 1em; font-size: 1.4em; font-weight: 700; border: 0; background: #fff; color: var(--ring); }
    #dismiss { background: transparent; color: #fff; border: 2px solid #fff; font-size: 1.1em; }
    body.ringing header { background: var(--ring); }
    @keyframes pulse { to { filter: brightness(1.25); } }
    @media (prefers-reduced-motion: reduce) { #ringing, li.timer.ring { animation: none; } }
    \#(timersCSS)
    \#(addCSS)
    """#

    static let js = #"""
    "use strict";
    \#(wordsJS)
    const $ = (id) => document.getElementById(id);
    const SEG = [[1,0,true],[2,1,false],[2,3,false],[1,4,true],[0,3,false],[0,1,false],[1,2,true]];
    const ON = "#e8202a", OFF = "#2e2e2e";
    function digitSVG(bits, x) {
      const L = 30, W = 8, out = [];
      SEG.forEach(([cx, cy, h], i) => {
        const on = (bits >> i) & 1;
        const px = h ? x + 10 + L / 2 : x + 10 + (cx / 2) * L, py = 10 + (cy / 2) * L;
        const s = L / 2 - 2, t = W / 2;
        const pts = h ? [[px - s, py], [px - s + t, py - t], [px + s - t, py - t], [px + s, py], [px + s - t, py + t], [px - s + t, py + t]]
                      : [[px, py - s], [px + t, py - s + t], [px + t, py + s - t], [px, py + s], [px - t, py + s - t], [px - t, py - s + t]];
        out.push(`<polygon class="${on ? "on" : "off"}" points="${pts.map(p => p.join(",")).join(" ")}" fill="${on ? ON : OFF}"/>`);
      });
      out.push(`<circle cx="${x + 10 + L + 8}" cy="${10 + 2 * L}" r="4" fill="${(bits & 128) ? ON : OFF}"/>`);
      return out.join("");
    }
    // The last status (from GET /api/status, an action's reply or the stream's first event).
    let last = {};
    function drawDisplay(segments, colon, text) {
      const n = segments.length, step = 58, width = n * step + 20;
      let body = segments.map((b, i) => digitSVG(b, 10 + i * step + (n === 4 && i >= 2 ? 14 : 0))).join("");
      if (n === 4) {
        const cx = 10 + 2 * step + 2, c = colon ? ON : OFF;
        body += `<circle cx="${cx}" cy="32" r="4" fill="${c}"/><circle cx="${cx}" cy="58" r="4" fill="${c}"/>`;
      }
      $("display").innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width + 14} 90" role="img"><rect width="100%" height="100%" fill="#0c0c0c"/>${body}</svg>`;
      $("display").setAttribute("aria-label", text || "");
      $("display").dataset.text = text || "";
      leftLine(text);
    }
    \#(linesJS)
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
    // A refusal goes beside what it concerns: `where` is the id of the
    // error line under that field or form (the display's by default).
    function say(text, where) {
      const p = $(where || "message");
      p.textContent = text || "";
      const form = p.previousElementSibling;
      if (form) for (const i of form.querySelectorAll("input")) {
        if (text) { i.setAttribute("aria-invalid", "true"); i.setAttribute("aria-describedby", p.id); } else i.removeAttribute("aria-invalid");
      }
    }
    function fmt(ms) { const s = Math.round(ms / 1000), m = Math.floor(s / 60); return `${m}:${String(s % 60).padStart(2, "0")}`; }
    let buzz;
    // A ringing count, extra timer (the one on the display: Stop silences
    // it, as on the box) or daily alarm: the red band with a full-width
    // Silence (or Snooze), the tab's title, and the phone's vibration.
    function ringing(s) {
      const alarm = s.alarm && s.alarm.startsWith("ringing") ? s.alarm.slice(8) : null, count = s.state === STATE.ringing;
      const timer = (s.timers || []).find((t) => t.state === STATE.ringing && t.shown);
      const on = !!(alarm || count || timer), what = alarm ? `Alarm ${alarm}` : count || !timer ? "Time's up" : `${timer.name}: time's up`;
      $("ringing").hidden = !on;
      document.body.classList.toggle("ringing", on);
      if (on) {
        $("ring-text").textContent = what;
        $("silence").textContent = alarm ? "Snooze" : "Silence";
        $("silence").dataset.post = alarm ? "/api/alarm/snooze" : "/api/stop";
        $("dismiss").hidden = !alarm;
      }
      const name = s.host ? `${s.host} \u2013 Tock` : "Tock";
      document.title = on ? `\u23F0 ${what} \u2013 ${name}` : name;
      if (on && !buzz && navigator.vibrate) {
        const pulse = () => { try { navigator.vibrate([400, 200, 400, 200, 400]); } catch (e) {} };
        pulse(); buzz = setInterval(pulse, 2500);
      } else if (!on && buzz) { clearInterval(buzz); buzz = undefined; try { navigator.vibrate(0); } catch (e) {} }
      const snoozed = s.alarm && s.alarm.startsWith("snoozed");
      $("snoozed").hidden = !snoozed;
      $("snoozed-text").textContent = snoozed ? `Alarm ${s.alarm}` : "";
    }
    function render(s) {
      last = s;
      $("state").textContent = s.state + (s.mode ? ` · ${s.mode}` : "");
      $("host").textContent = s.host || "";
      updateLine(s.update);
      if (s.segments) drawDisplay(s.segments, s.colon, s.display); else leftLine(s.display);
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
      renderTimers(s.timers || []); showAdd(s);
      ringing(s);
      $("unverified").hidden = !s.time_unverified;
      const ul = $("alarms"); ul.innerHTML = "";
      for (const a of s.alarms || []) {
        const li = document.createElement("li");
        const span = document.createElement("span"); span.textContent = a.line; li.append(span);
        const add = (label, method, path) => { const b = document.createElement("button"); b.textContent = label; b.onclick = () => act(method, path, undefined, "alarm-error"); li.append(b); };
        add(a.enabled ? "Off" : "On", "POST", `/api/alarms/${a.n}/${a.enabled ? "off" : "on"}`);
        add("Skip next", "POST", `/api/alarms/${a.n}/skip-next`);
        add("Remove", "DELETE", `/api/alarms/${a.n}`);
        ul.append(li);
      }
    }
    async function act(method, path, body, where) {
      try { const s = await api(method, path, body); say("", where); if (where) say(""); if (s.state) render(s); }
      catch (e) { say(e.message, where); }
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
    \#(timersJS)
    \#(addJS)
    // The live stream is the page's one source: its first event is the
    // status (no GET /api/status on load), then the display's changes; a
    // state, switch or buzzer change reads the status again unless an
    // action's reply already showed it. A page out of sight drops the stream and
    // takes it up again when it comes back.
    let events, paired = false;
    function showPairing() {
      paired = false;
      if (events) { events.close(); events = undefined; }
      $("app").hidden = true; $("pairing").hidden = false; $("state").textContent = "not paired";
    }
    function listen() {
      if (events) events.close();
      let first = true;
      events = new EventSource("/api/events");
      events.onmessage = (m) => {
        const e = JSON.parse(m.data);
        const shown = () => { if (!paired) { paired = true; $("pairing").hidden = true; $("app").hidden = false; tokens().catch(() => {}); } };
        if (e.ok !== undefined) { first = false; render(e); shown(); return; }
        if (first) { first = false; refresh().then(shown, () => {}); }
        if (e.segments) drawDisplay(e.segments, e.colon, e.display);
        if (e.timers) { last.timers = e.timers; renderTimers(e.timers); ringing(last); }
        // A daily alarm changes no state: its buzzer says it rings.
        if ((e.state && e.state !== last.state) || (e.switch && e.switch !== last.switch)
            || (e.buzzer !== undefined && e.buzzer !== last.buzzer)) refresh().catch(() => {});
      };
      events.onerror = () => {
        if (events && events.readyState === EventSource.CLOSED) refresh().then(() => setTimeout(listen, 1000), () => { if (!paired) showPairing(); });
      };
    }
    document.addEventListener("visibilitychange", () => {
      if (!paired) return;
      if (document.hidden) { if (events) { events.close(); events = undefined; } } else if (!events) listen();
    });
    document.addEventListener("DOMContentLoaded", () => {
      document.querySelectorAll("[data-post]").forEach((b) => b.onclick = () => act("POST", b.dataset.post));
      $("silence").onclick = () => act("POST", $("silence").dataset.post);
      $("dismiss").onclick = () => act("POST", "/api/alarm/dismiss");
      $("mode").onchange = () => act("POST", "/api/mode", { mode: $("mode").value }, "mode-error");
      $("program").onchange = () => act("POST", "/api/program", { name: $("program").value }, "mode-error");
      document.querySelectorAll("[data-switch]").forEach((b) => b.onclick = () => act("POST", "/api/switch", { position: b.dataset.switch }));
      $("brightness").onchange = () => act("POST", "/api/brightness", { level: Number($("brightness").value) }, "brightness-error");
      // Times are 24-hour HH:MM everywhere: text boxes with a pattern, as the box and its lists write them.
      for (const i of document.querySelectorAll("input.hhmm")) {
        i.pattern = "([01][0-9]|2[0-3]):[0-5][0-9]"; i.placeholder = "HH:MM"; i.maxLength = 5;
        i.inputMode = "numeric"; i.autocomplete = "off"; i.title = "24-hour time, HH:MM";
      }
      $("night-form").onsubmit = (e) => {
        e.preventDefault();
        act("POST", "/api/night", { from: $("night-from").value, to: $("night-to").value, brightness: Number($("night-level").value) }, "night-error");
      };
      $("night-off").onclick = () => act("POST", "/api/night", { off: true }, "night-error");
      $("preset-form").onsubmit = (e) => { e.preventDefault(); act("POST", "/api/preset", { duration: $("preset").value }, "preset-error"); };
      $("alarm-form").onsubmit = (e) => {
        e.preventDefault();
        const body = { at: $("alarm-at").value };
        if ($("alarm-days").value) body.days = $("alarm-days").value;
        if ($("alarm-label").value) body.label = $("alarm-label").value;
        act("POST", "/api/alarms", body, "alarm-error");
      };
      $("ask").onclick = async () => {
        try { const r = await api("POST", "/api/pair/request"); $("pair-message").className = "hint"; $("pair-message").textContent = `The box shows ${r.prompt}: within ${r.within} s, hold its Start button until a code appears (it stays ${r.seconds / 60} minutes), and type it here.`; }
        catch (e) { $("pair-message").className = "error"; $("pair-message").textContent = e.message; }
      };
      $("pair-form").onsubmit = async (e) => {
        e.preventDefault();
        try { await api("POST", "/api/pair", { code: $("code").value, name: navigator.platform || "browser" }); $("pair-message").textContent = ""; listen(); }
        catch (x) { $("pair-message").className = "error"; $("pair-message").textContent = x.message; }
      };
      listen();
    });
    """#
}
