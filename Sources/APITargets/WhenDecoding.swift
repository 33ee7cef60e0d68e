import APISupport
import APIYAML
import APIDiagnostics

/// `when:` on a target and on `expect:` blocks (see `Condition`).
extension ServiceDecoder {
    /// A `when:` read and parsed now: a syntax error is reported at its line and column.
    mutating func when(_ node: Node) -> When? {
        guard case .scalar(let s) = node.content, !node.isNull else {
            reader.error("when: must be a condition (text), not \(node.kindName)", at: node.mark,
                         hint: "write when: ${ENV} == 'staging' (docs/target-files.md, Conditions)")
            return nil
        }
        switch ConditionParser.parse(s.value) {
        case .success(let condition):
            return When(condition: condition, text: s.value, mark: node.mark)
        case .failure(let failure):
            // On one line, the column of the offending character; a quote before it counts.
            var mark = node.mark
            if !s.value.contains("\n") { mark.column += failure.offset + (s.isPlain ? 0 : 1) }
            reader.error("when: \(failure.message)", at: mark, hint: failure.hint)
            return nil
        }
    }

    /// `expect:` of a target: one block, or a list of blocks; a block with `when:` applies only
    /// when its condition holds (`Target.conditionalExpect`), the others are merged into `expect`.
    mutating func targetExpect(_ node: Node, _ what: @autoclosure () -> String, into target: inout Target) {
        // One block without when: (nearly every target): as before, no list made.
        if node.items == nil, !(node.pairs?.contains { $0.key.scalarText == "when" } ?? false) {
            target.expect = expectations(node, what())
            return
        }
        let blocks = node.items ?? [node]
        if node.items != nil, blocks.isEmpty {
            reader.error("expect: [] holds no block", at: node.mark, hint: "write expect: { status: 200 } or a list of such blocks")
            return
        }
        var plain: Expectations?
        var conditional: [ConditionalExpectations] = []
        for block in blocks {
            let (when, hasWhen, expect) = expectBlock(block, what())
            guard let expect else { continue }
            if let when {
                conditional.append(ConditionalExpectations(when: when, expect: expect))
            } else if !hasWhen {
                plain = plain.map { expect.merged(over: $0) } ?? expect
            }
        }
        target.expect = plain
        if !conditional.isEmpty { target.conditionalExpect = conditional }
    }

    /// One `expect:` block, its `when:` taken out first.
    private mutating func expectBlock(_ node: Node, _ what: String) -> (When?, Bool, Expectations?) {
        guard let pairs = node.pairs, let i = pairs.firstIndex(where: { $0.key.scalarText == "when" }) else {
            return (nil, false, expectations(node, what))
        }
        let when = self.when(pairs[i].value)
        var rest = pairs
        rest.remove(at: i)
        return (when, true, expectations(Node(content: .mapping(rest), tag: node.tag, mark: node.mark), what))
    }
}

extension ServiceDecoder {
    /// A `${NAME}` in a condition reads the environment; when NAME is also a param of the target
    /// or a capture in the file, `{NAME}` was likely meant: a warning (`validate`, `show`, `call`).
    func warnAboutVariablesThatNamePlaceholders(_ targets: inout [Target]) {
        // By index, a pointer compared: no Target is copied out of a file of thousands.
        guard targets.indices.contains(where: { targets[$0].conditionsBox != nil }) else { return }
        var captured = Set<String>()
        for i in targets.indices where !targets[i].captures.isEmpty { captured.formUnion(targets[i].captures.map(\.name)) }
        for i in targets.indices where targets[i].conditionsBox != nil {
            let params = Set(targets[i].params.map(\.name))
            let whens = (targets[i].when.map { [$0] } ?? []) + targets[i].conditionalExpect.map(\.when)
            for when in whens {
                for name in Set(when.condition.variables).sorted() where params.contains(name) || captured.contains(name) {
                    var d = Diagnostic(file: file, mark: when.mark,
                                       message: "when: ${\(name)} reads the environment variable \(name), not the \(params.contains(name) ? "param" : "capture") {\(name)}",
                                       hint: "write {\(name)} for the placeholder value")
                    d.isWarning = true
                    targets[i].warnings.append(d)
                }
            }
        }
    }
}

extension Condition {
    /// The `${NAME}`s it reads, in order.
    var variables: [String] {
        func names(_ o: Operand) -> [String] { if case .variable(let n) = o { [n] } else { [] } }
        switch self {
        case .any(let all), .all(let all): return all.flatMap(\.variables)
        case .not(let c): return c.variables
        case .exists(let o): return names(o)
        case .equal(let a, let b), .notEqual(let a, let b): return names(a) + names(b)
        case .matches(let a, _): return names(a)
        }
    }
}

extension Expectations {
    /// These expectations over `base`: what this block writes wins. `status:`, `body:`,
    /// `schema:`, `maxTime:`, `events:` replace the base's; `headers:` and `json:` add up, and a
    /// header name or JSONPath written in both is this block's.
    package func merged(over base: Expectations) -> Expectations {
        var out = base
        out.mark = mark
        if let status { out.status = status }
        out.headers = base.headers.filter { h in !headers.contains { $0.name.lowercased() == h.name.lowercased() } } + headers
        out.json = base.json.filter { j in !json.contains { $0.path == j.path } } + json
        if let body { out.body = body }
        if let schema { out.schema = schema }
        if let maxTime { out.maxTime = maxTime }
        if let events { out.events = events }
        if let messages { out.messages = messages }
        out.graphqlErrors = base.graphqlErrors || graphqlErrors
        return out
    }
}

extension Target {
    /// The expectations that apply with these values: `expect` with every conditional block whose
    /// `when:` holds merged over it, in file order.
    package func expectations(with values: ConditionValues) -> Expectations? {
        var out = expect
        for block in conditionalExpect where block.when.condition.holds(in: values) {
            out = out.map { block.expect.merged(over: $0) } ?? block.expect
        }
        return out
    }
}
