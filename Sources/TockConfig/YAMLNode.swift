import CLibyaml

/// A node of a YAML document as the configuration reader walks it. Every
/// scalar is text (the reader parses each value itself: durations,
/// numbers, on/off), whatever its tag or style; each node keeps the line
/// it starts on, for the problem that names it.
struct Node {
    enum Value {
        case scalar(String)
        case sequence([Node])
        /// In the file's order, repeated keys kept (the reader names the
        /// second of two).
        case mapping([(key: Node, value: Node)])
    }

    var value: Value
    var line: Int
}

/// Why a text is not a YAML document the reader takes, and where.
struct YAMLProblem: Error, Equatable {
    var line: Int
    var message: String
}

/// libyaml's events (Debian's libyaml-0-2, through Sources/CLibyaml) built
/// into one `Node` tree. Anchors and aliases are followed; what a hostile
/// file could make of them is bounded: at most `maxNodes` nodes after
/// every alias is expanded, and at most `maxDepth` levels of nesting.
enum YAMLDocument {
    static let maxNodes = 100_000
    static let maxDepth = 64

    /// The document's root, or nil when the text holds none (empty, or
    /// only comments).
    static func parse(_ bytes: [UInt8]) throws(YAMLProblem) -> Node? {
        guard !bytes.isEmpty else { return nil }
        var builder = Builder()
        let outcome: Result<Node?, YAMLProblem> = bytes.withUnsafeBufferPointer { buffer in
            guard let parser = tock_yaml_open(buffer.baseAddress!, buffer.count) else {
                return .failure(YAMLProblem(line: 1, message: "out of memory"))
            }
            defer { tock_yaml_close(parser) }
            var event = tock_yaml_event()
            while true {
                guard tock_yaml_next(parser, &event) == 0 else {
                    var line = 0, column = 0
                    var context: UnsafePointer<CChar>? = nil
                    let problem = String(cString: tock_yaml_problem(parser, &line, &column, &context))
                    let within = context.map { " (\(String(cString: $0)))" } ?? ""
                    return .failure(YAMLProblem(line: line, message: "line \(line), column \(column): \(problem)\(within)"))
                }
                do throws(YAMLProblem) {
                    if let done = try builder.take(event) { return .success(done) }
                } catch {
                    return .failure(error)
                }
            }
        }
        return try outcome.get()
    }

    /// The tree under construction: the open collections, innermost last
    /// (each a class, so that adding an item does not copy its siblings).
    private struct Builder {
        private final class Open {
            let isMapping: Bool
            let line: Int
            let anchor: String?
            var items: [Node] = []
            var pairs: [(key: Node, value: Node)] = []
            var pendingKey: Node?
            /// The nodes it holds, itself included.
            var count = 1

            init(mapping: Bool, line: Int, anchor: String?) {
                isMapping = mapping
                self.line = line
                self.anchor = anchor
            }

            var node: Node { Node(value: isMapping ? .mapping(pairs) : .sequence(items), line: line) }
        }

        private var stack: [Open] = []
        private var root: Node?
        private var documents = 0
        /// Each anchored node and how many nodes it holds.
        private var anchors: [String: (node: Node, count: Int)] = [:]
        private var total = 0

        /// Takes one event; the result once the stream has ended (the
        /// root, or nil for no document).
        mutating func take(_ e: tock_yaml_event) throws(YAMLProblem) -> Node?? {
            let line = Int(e.line)
            let anchor = e.anchor.map { String(cString: $0) }
            switch e.kind {
            case Int32(TOCK_YAML_STREAM_END.rawValue):
                return .some(root)
            case Int32(TOCK_YAML_DOCUMENT_START.rawValue):
                documents += 1
                if documents > 1 {
                throw YAMLProblem(line: line, message: "line \(line): a second document starts here (after ---); a configuration is one document")
                }
            case Int32(TOCK_YAML_SCALAR.rawValue):
                let bytes = UnsafeRawBufferPointer(start: e.text, count: Int(e.length))
                let node = Node(value: .scalar(String(decoding: bytes, as: UTF8.self)), line: line)
                try add(node, count: 1, anchor: anchor, new: 1)
            case Int32(TOCK_YAML_ALIAS.rawValue):
                guard let name = anchor, let target = anchors[name] else {
                    throw YAMLProblem(line: line, message: "line \(line): the alias *\(anchor ?? "") names no anchor (&name) above it")
                }
                var node = target.node
                node.line = line
                try add(node, count: target.count, anchor: nil, new: target.count)
            case Int32(TOCK_YAML_SEQUENCE_START.rawValue), Int32(TOCK_YAML_MAPPING_START.rawValue):
                guard stack.count < YAMLDocument.maxDepth else {
                    throw YAMLProblem(line: line, message: "line \(line): nested deeper than \(YAMLDocument.maxDepth) levels")
                }
                total += 1
                stack.append(Open(mapping: e.kind == Int32(TOCK_YAML_MAPPING_START.rawValue), line: line, anchor: anchor))
            case Int32(TOCK_YAML_SEQUENCE_END.rawValue), Int32(TOCK_YAML_MAPPING_END.rawValue):
                let done = stack.removeLast()
                try add(done.node, count: done.count, anchor: done.anchor, new: 0)
            default:
                break
            }
            return nil
        }

        /// Puts a finished node in its place: `count` nodes it holds,
        /// `new` of them not counted yet (a collection counted itself and
        /// its items as they came).
        private mutating func add(_ node: Node, count: Int, anchor: String?, new: Int) throws(YAMLProblem) {
            total += new
            guard total <= YAMLDocument.maxNodes else {
                throw YAMLProblem(line: node.line, message: "line \(node.line): the document holds more than \(YAMLDocument.maxNodes) values once its aliases are expanded")
            }
            if let anchor { anchors[anchor] = (node, count) }
            guard let top = stack.last else {
                root = node
                return
            }
            top.count += count
            if !top.isMapping {
                top.items.append(node)
            } else if let key = top.pendingKey {
                top.pairs.append((key, node))
                top.pendingKey = nil
            } else {
                top.pendingKey = node
            }
        }
    }
}
