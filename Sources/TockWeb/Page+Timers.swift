/// The page's Timers card (docs/web.md, Timers): the extra timers listed
/// from the status and the stream's `timers`, each counting down on the
/// page between events, with +1 min (until done: Page+Add.swift),
/// Pause/Resume, Silence and Cancel; the add form. The rules (names the
/// display can draw, 8 at most, 1s to 99h59m, one name once) are the
/// box's alone: a refusal is its sentence, written under the field it
/// concerns.
extension Page {
    static let timersHTML = #"""
    <section class="card" aria-labelledby="timers-title">
        <h2 id="timers-title">Timers</h2>
        <ul id="timers"></ul>
        <p id="timers-error" class="error" role="status"></p>
        <p id="timers-none">None: add one with a name the display can show.</p>
        <form id="timer-form">
          <label for="timer-name">Name</label> <input id="timer-name" class="tname" maxlength="16" placeholder="EGG" autocomplete="off" required>
          <label for="timer-duration">Duration</label> <input id="timer-duration" class="tdur" placeholder="6m" autocomplete="off" required>
          <button type="submit">Add</button>
        </form>
        <p id="timer-error" class="error" role="status"></p>
      </section>
    """#

    static let timersCSS = #"""
    input.tname { width: 7em; } input.tdur { width: 6em; }
    li.timer b { overflow-wrap: anywhere; }
    li.timer .left { flex: 1 1 auto; font-size: 1.15em; font-variant-numeric: tabular-nums; }
    li.timer small { flex: 1 0 100%; opacity: .8; }
    li.timer.ring { padding: .4em .6em; border-radius: 8px; background: var(--ring); color: #fff; animation: pulse 1s ease-in-out infinite alternate; }
    li.timer.ring button { background: #fff; color: var(--ring); border: 0; font-weight: 700; }
    li.timer.shown b::after { content: " \25C9"; }
    """#

    /// Each running timer counts down on the page's own clock from the
    /// `remaining_ms` the box last sent: the phone's wall clock may differ
    /// from the box's, so `ends` is not counted from. A refusal of the add
    /// form marks the field it concerns (neither for the ninth timer).
    /// (Comments here rather than in the script: they would be sent.)
    static let timersJS = #"""
    let timerTick;
    function hms(ms) {
      const s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, p = (n) => String(n).padStart(2, "0");
      return h ? `${h}:${p(m)}:${p(s % 60)}` : `${m}:${p(s % 60)}`;
    }
    function tickTimers() {
      const now = performance.now();
      for (const el of document.querySelectorAll("#timers [data-until]")) el.textContent = hms(Math.max(0, el.dataset.until - now));
    }
    function renderTimers(list) {
      const ul = $("timers"), at = performance.now();
      ul.innerHTML = "";
      for (const t of list) {
        const li = document.createElement("li"), ring = t.state === STATE.ringing, b = document.createElement("b");
        const left = document.createElement("span"), small = document.createElement("small");
        li.className = `timer${ring ? " ring" : ""}${t.shown ? " shown" : ""}`;
        li.dataset.name = t.name; li.dataset.state = t.state;
        b.textContent = t.name;
        left.className = "left"; left.setAttribute("role", "timer");
        if (t.state === STATE.running) left.dataset.until = at + t.remaining_ms;
        left.textContent = ring ? "Time's up" : hms(t.remaining_ms);
        small.textContent = `${t.state} · ${t.duration}${t.shown ? " · on the display" : ""}`;
        li.append(b, left);
        const add = (label, path, body) => {
          const x = document.createElement("button");
          x.type = "button"; x.textContent = label; x.setAttribute("aria-label", `${label} ${t.name}`);
          if (path === "/api/add") x.className = "add";
          x.onclick = () => act("POST", path, body, "timers-error");
          li.append(x);
        };
        if (t.state !== STATE.done) add("+1 min", "/api/add", { duration: "1m", name: t.name });
        if (t.state === STATE.running) add("Pause", "/api/timers/pause", { name: t.name });
        if (t.state === STATE.paused) add("Resume", "/api/timers/resume", { name: t.name });
        if (ring && t.shown) add("Silence", "/api/stop");
        add("Cancel", "/api/timers/cancel", { name: t.name });
        li.append(small);
        ul.append(li);
      }
      $("timers-none").hidden = list.length > 0;
      const running = list.some((t) => t.state === STATE.running);
      if (running && !timerTick) timerTick = setInterval(tickTimers, 250);
      else if (!running && timerTick) { clearInterval(timerTick); timerTick = undefined; }
    }
    function sayTimer(text) {
      say(text, "timer-error");
      if (!text) return;
      const which = /duration|counts/.test(text) ? "timer-duration" : /most a box keeps/.test(text) ? "" : "timer-name";
      for (const id of ["timer-name", "timer-duration"]) if (id !== which) $(id).removeAttribute("aria-invalid");
    }
    document.addEventListener("DOMContentLoaded", () => {
      $("timer-form").onsubmit = async (e) => {
        e.preventDefault();
        try {
          render(await api("POST", "/api/timers", { name: $("timer-name").value, duration: $("timer-duration").value }));
          sayTimer(""); $("timer-name").value = "";
        } catch (x) { sayTimer(x.message); }
      };
    });
    """#
}
