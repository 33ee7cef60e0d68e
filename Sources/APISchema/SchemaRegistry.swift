import APIJSON
import APISupport
/// Every schema resource the compiler can reach, by absolute URI: the root document, resources
/// embedded with `$id`, documents fetched through the loader; with their `$anchor`s and
/// `$dynamicAnchor`s as JSON Pointers into their resource.
struct SchemaRegistry {
    struct Resource {
        let value: JSONValue
        let dialect: SchemaDialect
        /// Where the resource sits for messages: `#/…` in the root document, else its URI.
        let location: String
    }
    struct Place: Hashable { let resource: String; let pointer: [String] }
    typealias Walked = (value: JSONValue, place: Place, dialect: SchemaDialect, location: String)

    private(set) var resources: [String: Resource] = [:]
    private(set) var anchors: [String: Place] = [:]
    private(set) var dynamicAnchors: [String: [String: Place]] = [:]
    let loader: (@Sendable (String) -> JSONValue?)?
    /// Pointers already walked, shared by every copy of the registry (each operation of a
    /// description compiles with a copy): a step into an object scans its members, so walking
    /// `#/components/schemas/X` again for every `$ref` made an import quadratic in the number of
    /// schemas (issue 36). A walk depends only on its resource's document, which never changes.
    private let walked = Locked<[Place: Walked]>([:])

    package init(loader: (@Sendable (String) -> JSONValue?)?) { self.loader = loader }

    /// Keywords whose value is a schema, an array of schemas or a map of schemas: only there are
    /// `$id` and anchors identifiers (not inside `const`, `enum` or unknown keywords).
    static let single: Set<String> = ["additionalProperties", "additionalItems", "items", "contains", "propertyNames",
                                      "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"]
    static let list: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems", "items"]
    /// The name `$recursiveAnchor: true` (2019-09) is kept under among the dynamic anchors: no
    /// `$dynamicAnchor` can be spelled so.
    static let recursiveAnchor = "$recursiveAnchor"
    static let map: Set<String> = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies"]

    mutating func add(_ value: JSONValue, uri: String, dialect: SchemaDialect, location: String) {
        let dialect = SchemaDialect.from(value["$schema"]?.stringValue) ?? dialect
        index(value, resource: uri, pointer: [], dialect: dialect, location: location)
        if resources[uri] == nil {  // a document whose $id differs from where it was read is known by both
            resources[uri] = Resource(value: value, dialect: dialect, location: location)
        }
    }

    /// Loads an unknown document through the loader; false when there is none.
    mutating func ensure(_ uri: String, dialect: SchemaDialect) -> Bool {
        if resources[uri] != nil { return true }
        guard let value = loader?(uri) else { return false }
        add(value, uri: uri, dialect: dialect, location: uri + "#")
        return resources[uri] != nil
    }

    private mutating func index(_ value: JSONValue, resource: String, pointer: [String], dialect: SchemaDialect, location: String) {
        guard case .object(let members) = value else {
            if pointer.isEmpty { resources[resource] = Resource(value: value, dialect: dialect, location: location) }
            return
        }
        var resource = resource, pointer = pointer, location = location
        let dialect = SchemaDialect.from(value["$schema"]?.stringValue) ?? dialect
        let hidden = dialect.refHidesSiblings && value["$ref"] != nil
        if !hidden, let id = value[dialect.idKeyword]?.stringValue {
            let full = SchemaURI.resolve(id, against: resource)
            let base = SchemaURI.stripFragment(full)
            if id.hasPrefix("#"), dialect.draft <= .d7, let name = SchemaURI.fragment(full) {
                anchors[resource + "#" + name] = Place(resource: resource, pointer: pointer)
            } else if base != resource || pointer.isEmpty {
                resource = base
                pointer = []
                if resources[base] == nil || location.hasPrefix("#") == false {
                    resources[base] = Resource(value: value, dialect: dialect, location: location)
                }
            }
        }
        if pointer.isEmpty, resources[resource] == nil {
            resources[resource] = Resource(value: value, dialect: dialect, location: location)
        }
        if dialect.draft >= .d2019, let name = value["$anchor"]?.stringValue {
            anchors[resource + "#" + name] = Place(resource: resource, pointer: pointer)
        }
        if dialect.draft == .d2019, pointer.isEmpty, value["$recursiveAnchor"] == .bool(true) {
            dynamicAnchors[resource, default: [:]][Self.recursiveAnchor] = Place(resource: resource, pointer: pointer)
        }
        if dialect.draft == .d2020 {
            if let name = value["$dynamicAnchor"]?.stringValue {
                anchors[resource + "#" + name] = Place(resource: resource, pointer: pointer)
                dynamicAnchors[resource, default: [:]][name] = Place(resource: resource, pointer: pointer)
            }
        }
        if hidden { return }
        for member in members {
            let key = member.key
            let here = location + "/" + SchemaURI.escape(key)
            if Self.map.contains(key), case .object(let children) = member.value {
                for child in children {
                    index(child.value, resource: resource, pointer: pointer + [key, child.key], dialect: dialect,
                          location: here + "/" + SchemaURI.escape(child.key))
                }
            } else if Self.list.contains(key), case .array(let children) = member.value {
                for (i, child) in children.enumerated() {
                    index(child, resource: resource, pointer: pointer + [key, String(i)], dialect: dialect, location: here + "/\(i)")
                }
            } else if Self.single.contains(key) {
                index(member.value, resource: resource, pointer: pointer + [key], dialect: dialect, location: here)
            }
        }
    }

    /// The schema at `uri` (`resource#/pointer` or `resource#anchor`), with the resource it
    /// belongs to once the pointer has walked through any embedded `$id`.
    mutating func locate(_ uri: String, dialect: SchemaDialect) -> (value: JSONValue, place: Place, dialect: SchemaDialect, location: String)? {
        let base = SchemaURI.stripFragment(uri)
        guard ensure(base, dialect: dialect) else { return nil }
        let fragment = SchemaURI.fragment(uri) ?? ""
        if let steps = SchemaURI.pointer(fragment) {
            return walk(Place(resource: base, pointer: steps))
        }
        guard let place = anchors[base + "#" + fragment] else { return nil }
        return walk(place)
    }

    func walk(_ place: Place) -> Walked? {
        if let hit = walked.withLock({ $0[place] }) { return hit }
        guard let found = walkUncached(place) else { return nil }
        walked.withLock { $0[place] = found }
        return found
    }

    private func walkUncached(_ place: Place) -> Walked? {
        guard let start = resources[place.resource] else { return nil }
        var value = start.value
        var resource = place.resource, pointer: [String] = [], location = start.location, dialect = start.dialect
        if let base = identifier(value, dialect: dialect, in: resource), resources[base] != nil { resource = base }
        for step in place.pointer {
            switch value {
            case .object:
                guard let next = value[step] else { return nil }
                value = next
            case .array(let items):
                guard let i = Int(step), i >= 0, i < items.count else { return nil }
                value = items[i]
            default: return nil
            }
            pointer.append(step)
            location += "/" + SchemaURI.escape(step)
            if let base = identifier(value, dialect: dialect, in: resource), let r = resources[base] {
                resource = base
                pointer = []
                dialect = r.dialect
            }
        }
        return (value, Place(resource: resource, pointer: pointer), dialect, location)
    }
}

extension SchemaRegistry {
    /// The resource URI `value` starts (its `$id`, or draft 4's `id`, resolved), nil when it starts none.
    func identifier(_ value: JSONValue, dialect: SchemaDialect, in resource: String) -> String? {
        if dialect.refHidesSiblings && value["$ref"] != nil { return nil }
        guard let id = value[dialect.idKeyword]?.stringValue, !id.hasPrefix("#") else { return nil }
        let base = SchemaURI.stripFragment(SchemaURI.resolve(id, against: resource))
        return base == resource ? nil : base
    }
}

extension JSONValue {
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        // the last one wins (as JSON parsers keep it); an index loop copies no member on the way
        var i = members.endIndex
        while i > members.startIndex {
            i -= 1
            if members[i].key == key { return members[i].value }
        }
        return nil
    }

    package var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    package var numberValue: Double? { if case .number(let n) = self { return n }; return nil }
}
