/// Which operation a GraphQL request runs: its `operationName`, else the first operation its
/// document defines (what `apicli mock` matches a request to a GraphQL target by).
extension GraphQLOperation {
    /// The operation this target sends: `operationName:`, else the query's first named operation.
    package var servedName: String? { operationName ?? Self.firstOperationName(in: query) }

    /// The name of the first operation definition (`query Name`, `mutation Name`,
    /// `subscription Name`) at the top level of `document`; nil for an anonymous one (`{ … }`)
    /// or none. Comments (`#…`) and strings (`"…"`, `"""…"""`) are skipped.
    package static func firstOperationName(in document: String) -> String? {
        let chars = Array(document.unicodeScalars)
        var i = 0
        var depth = 0
        // the first word of the top-level definition being read (`query`, `fragment`, …)
        var definition: String?
        let operations: Set<String> = ["query", "mutation", "subscription"]
        func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || (c.isASCII && c.properties.isAlphabetic) }
        func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }
        while i < chars.count {
            let c = chars[i]
            if c == "#" {
                while i < chars.count, chars[i] != "\n", chars[i] != "\r" { i += 1 }
            } else if c == "\"" {
                let block = i + 2 < chars.count && chars[i + 1] == "\"" && chars[i + 2] == "\""
                i += block ? 3 : 1
                while i < chars.count {
                    if chars[i] == "\\" { i += 2; continue }
                    if block, i + 2 < chars.count, chars[i] == "\"", chars[i + 1] == "\"", chars[i + 2] == "\"" { i += 3; break }
                    if !block, chars[i] == "\"" { i += 1; break }
                    i += 1
                }
                continue
            } else if c == "{" || c == "(" || c == "[" {
                // `{ … }` or `query { … }` first: an anonymous operation
                if depth == 0, c == "{", definition.map(operations.contains) ?? true { return nil }
                depth += 1
            } else if c == "}" || c == ")" || c == "]" {
                depth = max(0, depth - 1)
                if depth == 0 && c == "}" { definition = nil }
            } else if isNameStart(c) {
                let start = i
                while i < chars.count, isName(chars[i]) { i += 1 }
                let word = String(String.UnicodeScalarView(chars[start..<i]))
                if depth == 0 {
                    if let definition {
                        if operations.contains(definition) { return word }
                    } else {
                        definition = word
                    }
                }
                continue
            }
            i += 1
        }
        return nil
    }
}
