import APISupport
import APIJSON
import APIDiagnostics
import APISchema
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Takes a target's captures from its response: each a string, or a clear reason why not.
enum CaptureReader {
    static func values(_ captures: [Capture], of target: String, from response: Response) throws(APIError) -> [String: String] {
        var out: [String: String] = [:]
        for capture in captures {
            guard let value = value(capture.source, response) else {
                throw .dependency("needs: capture '\(capture.name)' of \(target) found nothing: "
                                  + what(capture.source) + " (the response was \(response.status))")
            }
            if let schema = capture.schema, let violation = violations(schema, capture.source, value, response).first {
                // A secret's value stays out of the message (the violation's text may quote it).
                let said = capture.secret ? "\(violation.instancePath): expected \(violation.expected) (\(violation.schemaPath))" : violation.description
                throw .dependency("needs: capture '\(capture.name)' of \(target) breaks its schema: \(said) [\(violation.keyword)]")
            }
            out[capture.name] = value
        }
        return out
    }

    static func value(_ source: Capture.Source, _ response: Response) -> String? {
        switch source {
        case .json(let path):
            guard let root = JSONValue.parse(response.body), let found = path.evaluate(root) else { return nil }
            if case .string(let s) = found { return s }
            return found.text(limit: .max)
        case .header(let name):
            return response.headers.value(of: name)
        case .body(let pattern):
            guard let regex = try? BoundedRegex.compile(pattern),
                  case .success(let groups?) = regex.groups(in: String(decoding: response.body, as: UTF8.self)) else { return nil }
            return (groups.count > 1 ? groups[1] : groups.first ?? nil).map(String.init)
        }
    }

    /// The captured value judged by its schema: the JSON value a `json:` capture found, else the text.
    static func violations(_ schema: SchemaExpectation, _ source: Capture.Source, _ text: String, _ response: Response) -> [SchemaViolation] {
        guard let compiled = schema.schema(for: response.status) else { return [] }
        var instance = JSONValue.string(text)
        if case .json(let path) = source, let root = JSONValue.parse(response.body), let found = path.evaluate(root) { instance = found }
        return compiled.violations(of: instance, options: SchemaOptions(assertFormats: schema.assertFormats, direction: .response))
    }

    static func what(_ source: Capture.Source) -> String {
        switch source {
        case .json(let path): return "\(path) is not in the body"
        case .header(let name): return "there is no \(name) header"
        case .body(let pattern): return "the body does not match /\(pattern)/"
        }
    }
}
