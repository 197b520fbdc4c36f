/// The page's "+1 min" (docs/web.md, Adding time): beside the line under
/// the display for the box's own count, and in each extra timer's row
/// (Page+Timers.swift); each sends `POST /api/add`, the control socket's
/// `add`. The box's button shows only while its count can take time,
/// judged from the status the page already has: the timer's mode (or a
/// stopwatch counting down to its preset: one with `remaining_ms`),
/// running, paused or ringing. The box stays the judge: a page a moment
/// behind gets its refusal, written under the display as a press's is.
extension Page {
    static let countLineHTML = #"""
    <div class="count-line"><p id="left" aria-live="off"></p>
            <button id="add-minute" type="button" class="add" aria-label="+1 min to the box's count" hidden>+1 min</button></div>
    """#

    static let addCSS = #"""
    .count-line { display: flex; gap: .5em; align-items: center; margin: .4em 0 0; }
    .count-line #left { flex: 1 1 auto; margin: 0; }
    button.add { padding: .3em .6em; font-variant-numeric: tabular-nums; white-space: nowrap; }
    """#

    static let addJS = #"""
    function countTakesTime(s) {
      return [MODE.timer, MODE.stopwatch].includes(s.mode) && s.remaining_ms !== undefined && [STATE.running, STATE.paused, STATE.ringing].includes(s.state);
    }
    function showAdd(s) { $("add-minute").hidden = !countTakesTime(s); }
    document.addEventListener("DOMContentLoaded", () => { $("add-minute").onclick = () => act("POST", "/api/add", { duration: "1m" }); });
    """#
}
