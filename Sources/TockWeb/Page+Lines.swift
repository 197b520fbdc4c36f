/// The page's lines under the display: how long is left (or has gone) of
/// the count on the display, named when a name shows there; and what the
/// daily update check found (docs/web.md).
extension Page {
    static let linesJS = #"""
    // "left" or "elapsed" follows what the display shows while a count runs
    // (a blank blink keeps the line as it was); otherwise it is the status's.
    // A name on the display (t1, the box's own count, or an extra timer's,
    // shown between counts) is no count: the line then names the count and
    // gives its time from the status. An extra timer on the display: its
    // name beside its count.
    function leftLine(text) {
      const shown = (text || "").trim(), word = last.direction === POSITION.up ? "elapsed" : "left";
      const bare = shown.replace(/[.:]/g, "").trim(), named = /[^\d\s-]/.test(bare);
      const own = last.remaining_ms !== undefined && last.direction !== POSITION.up ? `${fmt(last.remaining_ms)} left`
        : last.elapsed_ms !== undefined ? `${fmt(last.elapsed_ms)} elapsed` : "";
      const timer = last.notice ? undefined : (last.timers || []).find((t) => t.shown && t.state !== STATE.done);
      if (timer) {
        if (named) $("left").textContent = `${timer.name}: ${fmt(timer.remaining_ms)} left`;
        else if (/\d/.test(shown)) $("left").textContent = `${shown} left \u00b7 ${timer.name}`;
      } else if (last.notice || ![STATE.running, STATE.paused].includes(last.state)) {
        $("left").textContent = own;
      } else if (named) {
        $("left").textContent = `${own} \u00b7 the box's own count`;
      } else if (/\d/.test(shown)) {
        $("left").textContent = `${shown} ${word}`;
      }
    }
    // The daily update check's finding, unless the box is up to date.
    function updateLine(u) {
      const said = !u || u.result === UPDATE.current ? ""
        : u.result === UPDATE.no_repository ? "No update repository is configured: this box does not hear of new releases (docs/updates.md)."
        : u.result === UPDATE.available ? `Tock ${u.latest} is available (installed ${u.installed}): run tock-update on the box.`
        : `The update check: ${u.result.replace("_", " ")}${u.reason ? ` (${u.reason})` : ""}.`;
      $("update").textContent = said;
      $("update").hidden = !said;
    }
    """#
}
