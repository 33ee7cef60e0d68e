import CLibYAML

/// Where one target's value stands in a target file, start and end, from libyaml's marks: what
/// `record` needs to rewrite a flow-style target (`t: { path: /x }`) as an indented mapping.
///
/// Read in a pass of its own over the file's events (no nodes built), so `YAMLParser` — the parse
/// every command does — carries no end marks and costs nothing more.
package struct TargetSpan {
    package struct Entry {
        /// The key's text runs from `keyStart` up to `keyEnd`, the value's from `valueStart` up to
        /// `valueEnd` (an anchor or tag before a node is part of it).
        package var keyStart: Mark, keyEnd: Mark
        package var valueStart: Mark, valueEnd: Mark
        /// `{ a, b: 1 }`: `a` has no value written (an empty plain scalar).
        package var valueIsEmpty: Bool
    }

    /// The target's key.
    package var keyStart: Mark, keyEnd: Mark
    /// The value: from its first character (an anchor, a tag, or `{`) up to after its last one.
    package var start: Mark, end: Mark
    /// Whether the value is a mapping written in flow style (`{ … }`).
    package var isFlowMapping: Bool
    package var anchor: String?
    package var tag: String?
    /// A flow mapping's entries, in order.
    package var entries: [Entry]

    /// The span of `targets:` → `target` in `bytes` (UTF-8), or nil when there is none or the
    /// text is not YAML (the normal parse reports that).
    package static func find(_ target: String, in bytes: [UInt8]) -> TargetSpan? {
        bytes.withUnsafeBufferPointer { buffer -> TargetSpan? in
            let reader = EventReader(buffer)
            return reader.find(target)
        }
    }

    private struct Event {
        var type: yaml_event_type_t
        var start: Mark
        var end: Mark
        var scalar: String?
        var plainEmpty = false
        var anchor: String?
        var tag: String?
        var flow = false
    }

    private final class EventReader {
        let parser: UnsafeMutablePointer<yaml_parser_t>
        let event: UnsafeMutablePointer<yaml_event_t>

        init(_ buffer: UnsafeBufferPointer<UInt8>) {
            // libyaml keeps a pointer into its own struct: it must not move.
            parser = .allocate(capacity: 1)
            event = .allocate(capacity: 1)
            yaml_parser_initialize(parser)
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
        }

        deinit {
            yaml_parser_delete(parser)
            parser.deallocate()
            event.deallocate()
        }

        private static func mark(_ m: yaml_mark_t) -> Mark {
            Mark(line: Int(m.line) + 1, column: Int(m.column) + 1)
        }

        private static func string(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            p.map { String(cString: $0) }
        }

        func next() -> Event? {
            guard yaml_parser_parse(parser, event) == 1 else { return nil }
            defer { yaml_event_delete(event) }
            let e = event.pointee
            var out = Event(type: e.type, start: Self.mark(e.start_mark), end: Self.mark(e.end_mark))
            switch e.type {
            case YAML_SCALAR_EVENT:
                let s = e.data.scalar
                out.scalar = s.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(s.length)), as: UTF8.self) }
                out.plainEmpty = s.length == 0 && s.style == YAML_PLAIN_SCALAR_STYLE && s.anchor == nil && s.tag == nil
                out.anchor = Self.string(s.anchor)
                out.tag = Self.string(s.tag)
            case YAML_MAPPING_START_EVENT:
                out.anchor = Self.string(e.data.mapping_start.anchor)
                out.tag = Self.string(e.data.mapping_start.tag)
                out.flow = e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
            case YAML_SEQUENCE_START_EVENT:
                out.anchor = Self.string(e.data.sequence_start.anchor)
                out.tag = Self.string(e.data.sequence_start.tag)
            default:
                break
            }
            if e.type == YAML_STREAM_END_EVENT { return nil }
            return out
        }

        /// Reads past the node `first` starts; returns where it ends.
        func skip(_ first: Event) -> Mark? {
            guard first.type == YAML_MAPPING_START_EVENT || first.type == YAML_SEQUENCE_START_EVENT else { return first.end }
            var open = 1
            while let e = next() {
                if e.type == YAML_MAPPING_START_EVENT || e.type == YAML_SEQUENCE_START_EVENT { open += 1 }
                if e.type == YAML_MAPPING_END_EVENT || e.type == YAML_SEQUENCE_END_EVENT {
                    open -= 1
                    if open == 0 { return e.end }
                }
            }
            return nil
        }

        func find(_ target: String) -> TargetSpan? {
            guard next()?.type == YAML_STREAM_START_EVENT, next()?.type == YAML_DOCUMENT_START_EVENT,
                  next()?.type == YAML_MAPPING_START_EVENT else { return nil }
            while let key = next(), key.type != YAML_MAPPING_END_EVENT {
                guard let value = next() else { return nil }
                guard key.type == YAML_SCALAR_EVENT, key.scalar == "targets", value.type == YAML_MAPPING_START_EVENT else {
                    guard skip(key) != nil, skip(value) != nil else { return nil }
                    continue
                }
                while let name = next(), name.type != YAML_MAPPING_END_EVENT {
                    guard let value = next() else { return nil }
                    if name.type == YAML_SCALAR_EVENT, name.scalar == target {
                        return span(key: name, value: value)
                    }
                    guard skip(name) != nil, skip(value) != nil else { return nil }
                }
                return nil
            }
            return nil
        }

        private func span(key: Event, value: Event) -> TargetSpan? {
            var span = TargetSpan(keyStart: key.start, keyEnd: key.end, start: value.start, end: value.end,
                                  isFlowMapping: value.type == YAML_MAPPING_START_EVENT && value.flow,
                                  anchor: value.anchor, tag: value.tag, entries: [])
            guard span.isFlowMapping else {
                guard let end = skip(value) else { return nil }
                span.end = end
                return span
            }
            while let k = next() {
                if k.type == YAML_MAPPING_END_EVENT {
                    span.end = k.end
                    return span
                }
                guard let keyEnd = skip(k), let v = next(), let valueEnd = skip(v) else { return nil }
                span.entries.append(Entry(keyStart: k.start, keyEnd: keyEnd, valueStart: v.start, valueEnd: valueEnd,
                                          valueIsEmpty: v.plainEmpty))
            }
            return nil
        }
    }
}
