import TockCore

/// Draws a `Frame` as an SVG picture of a 7-segment display.
///
/// Like `BigDigits`, the picture is built from the frame's segment bits
/// (`Frame.segments(at:)`: bit 0 = a ... bit 6 = g, bit 7 = dp), so it
/// shows exactly what a real display would light. Every segment is drawn:
/// lit ones red, unlit ones dark grey. Each lit segment or point carries
/// `class="seg on"`, each unlit one `class="seg off"`; the colon dots carry
/// `class="colon on"` or `class="colon off"`. A 4-digit frame has a colon
/// between digits 1 and 2 (where the TM1637 clock modules put it).
///
/// All coordinates are integers and the element order is fixed, so the same
/// frame always gives the same bytes.
public enum SegmentSVG {
    public static let litColor = "#e8202a"
    public static let unlitColor = "#2e2e2e"
    public static let backgroundColor = "#0c0c0c"

    /// Segment geometry, in SVG user units.
    static let width = 48        // a segment skeleton: left to right edge
    static let height = 84       // top to bottom edge
    static let thickness = 10
    static let gap = 2           // between the ends of neighbouring segments
    static let pitch = 80        // from one digit to the next
    static let colonWidth = 24   // extra space for the colon
    static let margin = 20

    static let segmentNames: [Character] = ["a", "b", "c", "d", "e", "f", "g"]

    /// The SVG document (with a trailing newline).
    public static func svg(for frame: Frame) -> String {
        let hasColon = frame.digits == 4 || frame.colon
        let dpRadius = thickness / 2 + 1
        // From a skeleton's left edge to the right edge of its point.
        let digitExtent = width + thickness + 2 * dpRadius
        let totalWidth = 2 * margin + thickness / 2 + (frame.digits - 1) * pitch + digitExtent + (hasColon ? colonWidth : 0)
        let totalHeight = 2 * margin + height + thickness
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(totalWidth)\" height=\"\(totalHeight)\" viewBox=\"0 0 \(totalWidth) \(totalHeight)\">\n"
        out += "<title>\(escaped(frame.text))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(totalWidth)\" height=\"\(totalHeight)\" rx=\"8\" fill=\"\(backgroundColor)\"/>\n"
        var x = margin + thickness / 2
        let y = margin + thickness / 2
        for i in 0..<frame.digits {
            if i == 2, hasColon {
                // Midway between digit 1's point and digit 2's left edge.
                let left = x - pitch + digitExtent
                let right = x + colonWidth - thickness / 2
                out += colon(lit: frame.colon, x: (left + right) / 2, y: y)
                x += colonWidth
            }
            out += digit(bits: frame.segments(at: i), index: i, x: x, y: y)
            x += pitch
        }
        out += "</svg>\n"
        return out
    }

    /// The seven segments and the point of one digit whose skeleton's top
    /// left corner is at (x, y).
    static func digit(bits: UInt8, index: Int, x: Int, y: Int) -> String {
        let half = height / 2
        // Centres and orientation of a ... g.
        let placement: [(cx: Int, cy: Int, horizontal: Bool)] = [
            (x + width / 2, y, true),              // a
            (x + width, y + half / 2, false),      // b
            (x + width, y + half + half / 2, false), // c
            (x + width / 2, y + height, true),     // d
            (x, y + half + half / 2, false),       // e
            (x, y + half / 2, false),              // f
            (x + width / 2, y + half, true),       // g
        ]
        var out = "<g class=\"digit\" id=\"digit\(index)\">\n"
        for (bit, p) in placement.enumerated() {
            let lit = bits & (1 << UInt8(bit)) != 0
            let length = (p.horizontal ? width : half) - 2 * gap
            let points = hexagon(cx: p.cx, cy: p.cy, length: length, horizontal: p.horizontal)
            out += "<polygon class=\"seg \(lit ? "on" : "off")\" data-seg=\"\(segmentNames[bit])\" points=\"\(points)\" fill=\"\(lit ? litColor : unlitColor)\"/>\n"
        }
        let dpLit = bits & SevenSegmentFont.dp != 0
        let r = thickness / 2 + 1
        out += "<circle class=\"seg \(dpLit ? "on" : "off")\" data-seg=\"dp\" cx=\"\(x + width + thickness + r)\" cy=\"\(y + height)\" r=\"\(r)\" fill=\"\(dpLit ? litColor : unlitColor)\"/>\n"
        out += "</g>\n"
        return out
    }

    /// The two colon dots, centred on column x.
    static func colon(lit: Bool, x: Int, y: Int) -> String {
        let r = thickness / 2 + 1
        var out = ""
        for cy in [y + height / 4 + 4, y + 3 * height / 4 - 4] {
            out += "<circle class=\"colon \(lit ? "on" : "off")\" cx=\"\(x)\" cy=\"\(cy)\" r=\"\(r)\" fill=\"\(lit ? litColor : unlitColor)\"/>\n"
        }
        return out
    }

    /// A segment: a long hexagon with pointed ends, `length` tip to tip.
    static func hexagon(cx: Int, cy: Int, length: Int, horizontal: Bool) -> String {
        let l = length / 2
        let t = thickness / 2
        let pts: [(Int, Int)] = [(-l, 0), (-l + t, -t), (l - t, -t), (l, 0), (l - t, t), (-l + t, t)]
        return pts.map { horizontal ? "\(cx + $0.0),\(cy + $0.1)" : "\(cx + $0.1),\(cy + $0.0)" }.joined(separator: " ")
    }

    static func escaped(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
