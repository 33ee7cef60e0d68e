import APIJSON
/// The applicators: in-place (`allOf`, `anyOf`, `oneOf`, `not`, `if`, discriminator) and the
/// array and object keywords, with the annotations `unevaluated*` reads.
extension SchemaEvaluator {
    func applicators(_ n: SchemaNode, _ v: JSONValue, _ at: InstanceLocation, _ errs: inout [SchemaViolation]?, _ ann: inout Annotations) -> Bool {
        var ok = true
        for sub in n.allOf {
            var a = Annotations()
            if eval(sub, v, at, &errs, &a) { ann.merge(a) } else { ok = false; if errs == nil { return false } }
        }
        // a schema the discriminator picks may include this one (`allOf: [$ref: Pet]`): on that
        // instance the discriminator has done its work and is not applied again
        if let d = n.discriminator, case .string(let name)? = v[d.property],
           !dispatching.contains(where: { $0.node == ObjectIdentifier(n) && $0.depth == at.depth }) {
            let target = d.mapping[name] ?? (n.oneOf + n.anyOf).first { $0.ref?.location.hasSuffix("/" + SchemaURI.escape(name)) == true }
            guard let target else {
                return fail(&errs, n, at, "discriminator", expected: "a known \(d.property)", got: name,
                            "\(d.property) \(JSONValue.string(name).text(limit: 40)) names no schema")
            }
            dispatching.append((ObjectIdentifier(n), at.depth))
            defer { dispatching.removeLast() }
            var a = Annotations()
            if eval(target, v, at, &errs, &a) { ann.merge(a); return ok }
            return false
        }
        // every branch is evaluated: an outer `unevaluated*` reads the annotations of all that pass
        if !n.anyOf.isEmpty {
            var any = false
            for sub in n.anyOf {
                var quiet: [SchemaViolation]? = nil, a = Annotations()
                if eval(sub, v, at, &quiet, &a) { any = true; ann.merge(a); }
            }
            if !any {
                ok = fail(&errs, n, at, "anyOf", expected: "one of \(n.anyOf.count) schemas", got: v.text(limit: 40),
                          "matches none of the \(n.anyOf.count) schemas in anyOf")
                if errs == nil { return false }
            }
        }
        if !n.oneOf.isEmpty {
            var passed: [Int] = [], kept = Annotations()
            for (i, sub) in n.oneOf.enumerated() {
                var quiet: [SchemaViolation]? = nil, a = Annotations()
                if eval(sub, v, at, &quiet, &a) { passed.append(i); kept = a; if passed.count > 1 { break } }
            }
            if passed.count == 1 {
                ann.merge(kept)
            } else {
                let got = passed.isEmpty ? "none" : "#\(passed[0]) and #\(passed[1])"
                ok = fail(&errs, n, at, "oneOf", expected: "exactly one of \(n.oneOf.count) schemas", got: got,
                          passed.isEmpty ? "matches none of the \(n.oneOf.count) schemas in oneOf"
                                         : "matches more than one schema in oneOf (\(got))")
                if errs == nil { return false }
            }
        }
        if let not = n.not {
            var quiet: [SchemaViolation]? = nil, a = Annotations()
            if eval(not, v, at, &quiet, &a) {
                ok = fail(&errs, n, at, "not", expected: "not \(not.location)", got: v.text(limit: 40), "matches the schema it must not match")
                if errs == nil { return false }
            }
        }
        if let test = n.ifNode {
            var quiet: [SchemaViolation]? = nil, a = Annotations()
            if eval(test, v, at, &quiet, &a) {
                ann.merge(a)
                if let then = n.thenNode {
                    var b = Annotations()
                    if eval(then, v, at, &errs, &b) { ann.merge(b) } else { ok = false }
                }
            } else if let other = n.elseNode {
                var b = Annotations()
                if eval(other, v, at, &errs, &b) { ann.merge(b) } else { ok = false }
            }
        }
        return ok
    }

    func array(_ n: SchemaNode, _ xs: [JSONValue], _ at: InstanceLocation, _ errs: inout [SchemaViolation]?, _ ann: inout Annotations) -> Bool {
        var ok = true
        if let m = n.minItems, xs.count < m {
            ok = fail(&errs, n, at, "minItems", expected: "at least \(m) items", got: "\(xs.count)", "has \(xs.count) items, fewer than \(m)")
        }
        if let m = n.maxItems, xs.count > m {
            ok = fail(&errs, n, at, "maxItems", expected: "at most \(m) items", got: "\(xs.count)", "has \(xs.count) items, more than \(m)") && ok
        }
        if n.uniqueItems {
            outer: for i in xs.indices {
                for j in xs.indices where j > i && SchemaEquality.equal(xs[i], xs[j]) {
                    ok = fail(&errs, n, at, "uniqueItems", expected: "unique items", got: "items \(i) and \(j) equal",
                              "items \(i) and \(j) are equal") && ok
                    break outer
                }
            }
        }
        if errs == nil && !ok { return false }
        for (i, sub) in n.prefixItems.enumerated() where i < xs.count {
            var a = Annotations()
            if !eval(sub, xs[i], path.child(at, .index(i)), &errs, &a) { ok = false; if errs == nil { return false } }
            if annotates { ann.items.insert(i) }
        }
        if let items = n.items, xs.count > n.prefixItems.count {
            for i in n.prefixItems.count..<xs.count {
                var a = Annotations()
                if !eval(items, xs[i], path.child(at, .index(i)), &errs, &a) { ok = false; if errs == nil { return false } }
            }
            ann.allItems = true
        }
        if let contains = n.contains {
            var found = 0
            for (i, x) in xs.enumerated() {
                var quiet: [SchemaViolation]? = nil, a = Annotations()
                if eval(contains, x, path.child(at, .index(i)), &quiet, &a) { found += 1; if annotates && n.containsAnnotates { ann.items.insert(i) } }
            }
            let least = n.minContains ?? 1
            if found < least {
                ok = fail(&errs, n, at, "contains", expected: "at least \(least) matching items", got: "\(found)",
                          "has \(found) items matching contains, fewer than \(least)") && ok
            }
            if let most = n.maxContains, found > most {
                ok = fail(&errs, n, at, "maxContains", expected: "at most \(most) matching items", got: "\(found)",
                          "has \(found) items matching contains, more than \(most)") && ok
            }
        }
        if let rest = n.unevaluatedItems, !ann.allItems {
            for i in xs.indices where !ann.items.contains(i) {
                var a = Annotations()
                if !eval(rest, xs[i], path.child(at, .index(i)), &errs, &a) { ok = false; if errs == nil { return false } }
            }
            ann.allItems = true
        }
        return ok
    }

    func object(_ n: SchemaNode, _ ms: [(key: String, value: JSONValue)], _ at: InstanceLocation, _ errs: inout [SchemaViolation]?, _ ann: inout Annotations) -> Bool {
        var ok = true
        if let m = n.minProperties, ms.count < m {
            ok = fail(&errs, n, at, "minProperties", expected: "at least \(m) properties", got: "\(ms.count)", "has \(ms.count) properties, fewer than \(m)")
        }
        if let m = n.maxProperties, ms.count > m {
            ok = fail(&errs, n, at, "maxProperties", expected: "at most \(m) properties", got: "\(ms.count)", "has \(ms.count) properties, more than \(m)") && ok
        }
        if !n.required.isEmpty || !n.dependentRequired.isEmpty {
            let present = KeySet(ms)
            for name in n.required where !present.contains(name) {
                if let p = n.properties[name], (p.readOnly && options.direction == .request) || (p.writeOnly && options.direction == .response) { continue }
                ok = fail(&errs, n, at, "required", expected: name, got: "absent", "required property \(JSONValue.string(name).text(limit: 60)) is missing") && ok
            }
            for (name, needs) in n.dependentRequired where present.contains(name) {
                for need in needs where !present.contains(need) {
                    ok = fail(&errs, n, at, "dependentRequired", expected: need, got: "absent", "property \(need) is required when \(name) is present") && ok
                }
            }
        }
        if errs == nil && !ok { return false }
        let open = !n.properties.isEmpty || !n.patternProperties.isEmpty || n.additionalProperties != nil || n.propertyNames != nil
        if open {
            for m in ms {
                var matched = false
                let here = path.child(at, .key(m.key))
                if let p = n.properties[m.key] {
                    matched = true
                    var a = Annotations()
                    if !eval(p, m.value, here, &errs, &a) { ok = false; if errs == nil { return false } }
                    if annotates { ann.properties.insert(m.key) }
                }
                for (pattern, p) in n.patternProperties where matches(pattern, key: m.key, n, here, &errs) {
                    matched = true
                    var a = Annotations()
                    if !eval(p, m.value, here, &errs, &a) { ok = false; if errs == nil { return false } }
                    if annotates { ann.properties.insert(m.key) }
                }
                if !matched, let extra = n.additionalProperties {
                    var a = Annotations()
                    if !eval(extra, m.value, here, &errs, &a) {
                        if extra.constant == false { errs?.removeLast(); ok = fail(&errs, n, here, "additionalProperties", expected: "no other properties", got: m.key, "property is not allowed (additionalProperties)") }
                        ok = false
                        if errs == nil { return false }
                    }
                    if annotates { ann.properties.insert(m.key) }
                }
                if let names = n.propertyNames {
                    var a = Annotations()
                    if !eval(names, .string(m.key), here, &errs, &a) { ok = false; if errs == nil { return false } }
                }
            }
        }
        for (name, sub) in n.dependentSchemas where ms.contains(where: { $0.key == name }) {
            var a = Annotations()
            if eval(sub, .object(ms), at, &errs, &a) { ann.merge(a) } else { ok = false; if errs == nil { return false } }
        }
        if let rest = n.unevaluatedProperties {
            for m in ms where !ann.properties.contains(m.key) {
                var a = Annotations()
                if !eval(rest, m.value, path.child(at, .key(m.key)), &errs, &a) { ok = false; if errs == nil { return false } }
                if annotates { ann.properties.insert(m.key) }
            }
        }
        return ok
    }
}

/// The keys of an object, for `required`: a small object is searched in place (no hashing), a
/// large one through a set.
private struct KeySet {
    let members: [(key: String, value: JSONValue)]
    let set: Set<String>?

    init(_ members: [(key: String, value: JSONValue)]) {
        self.members = members
        set = members.count > 16 ? Set(members.map(\.key)) : nil
    }

    func contains(_ key: String) -> Bool {
        if let set { return set.contains(key) }
        return members.contains { $0.key == key }
    }
}
