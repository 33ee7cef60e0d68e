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

/// One `log.entries[]` item of a HAR 1.2 file (a browser's or a proxy's recording): the parts an
/// import maps. Read from the project's JSON parser (`Value`: members and numbers as written).
struct HarEntry {
    struct Header {
        var name: String
        var value: String
    }

    /// The entry's index in `log.entries`, for warnings.
    var index: Int
    var method: String
    var url: String
    var requestHeaders: [Header]
    /// `postData.mimeType` and `postData.text` (HAR keeps request bodies as text).
    var postType: String?
    var postText: String?
    /// `request.bodySize` (-1 or missing: unknown).
    var bodySize: Int?
    /// `postData.params` given (a form as name/value pairs; HAR keeps `text` beside it).
    var postParams = false
    var status: Int
    var responseHeaders: [Header]
    /// `content.mimeType`, and the body's bytes (`encoding: base64` decoded); nil when the HAR has no text.
    var mimeType: String
    var body: [UInt8]?
    /// Chrome's `_resourceType` (`xhr`, `fetch`, `document`, `script`, …), when present.
    var resourceType: String?

    /// `log.entries` of a HAR file; the reasons entries were skipped are `warnings`.
    static func entries(_ bytes: [UInt8], warnings: inout [String]) throws(APIError) -> [HarEntry] {
        guard let root = JSONParser.parseValue(bytes) else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "not JSON, so not a HAR file",
                                      hint: "export the recording as HAR (Chrome: DevTools → Network → Export HAR…)"))
        }
        guard case .array(let items)? = root["log"]?["entries"] else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "not a HAR file: it has no log.entries list",
                                      hint: "a HAR file is {\"log\": {\"version\": \"1.2\", \"entries\": [...]}}"))
        }
        var out: [HarEntry] = []
        for (i, item) in items.enumerated() {
            if let e = entry(item, index: i, warnings: &warnings) { out.append(e) }
        }
        return out
    }

    private static func entry(_ item: Value, index: Int, warnings: inout [String]) -> HarEntry? {
        guard let request = item["request"], let method = request["method"]?.stringValue, let url = request["url"]?.stringValue,
              TargetFile.isToken(method) else {
            warnings.append("entry \(index): no request method and url; skipped")
            return nil
        }
        let response = item["response"]
        let content = response?["content"]
        var body: [UInt8]?
        if let text = content?["text"]?.stringValue {
            if content?["encoding"]?.stringValue?.lowercased() != "base64" {
                body = Array(text.utf8)
            } else if let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) {
                body = [UInt8](data)
            } else {
                warnings.append("entry \(index) (\(method) \(url)): its response body is not base64 as its encoding says; no sample body")
            }
        }
        return HarEntry(index: index, method: method.uppercased(), url: url, requestHeaders: headers(request),
                        postType: request["postData"]?["mimeType"]?.stringValue, postText: request["postData"]?["text"]?.stringValue,
                        bodySize: request["bodySize"]?.scalarText.flatMap { Int($0) },
                        postParams: { if case .array(let p)? = request["postData"]?["params"] { return !p.isEmpty } else { return false } }(),
                        status: status(response), responseHeaders: headers(response), mimeType: content?["mimeType"]?.stringValue ?? "",
                        body: body, resourceType: item["_resourceType"]?.stringValue)
    }

    /// A request body the recording does not hold, as a warning says it (`a 17-byte body`):
    /// `Content-Length` or `bodySize` above 0, or `postData.params`, with no `postData.text`
    /// (Playwright writes `bodySize: 0` and no `postData` for some uploads, and then the header
    /// is the only trace); nil when nothing is missing.
    var missingBody: String? {
        guard (postText ?? "").isEmpty else { return nil }
        let length = requestHeaders.last { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value.trimmingSpaces()) }
        let size = max(length ?? 0, bodySize ?? 0)
        if size > 0 { return "a \(size)-byte body" }
        return postParams ? "a form body (postData.params without text)" : nil
    }

    /// HAR statuses are numbers; 0 (a request that got no answer) is kept as 0.
    private static func status(_ response: Value?) -> Int {
        guard let text = response?["status"]?.scalarText, let n = Int(text), (0...999).contains(n) else { return 0 }
        return n
    }

    private static func headers(_ message: Value?) -> [Header] {
        guard case .array(let items)? = message?["headers"] else { return [] }
        return items.compactMap { h in
            guard let name = h["name"]?.stringValue, let value = h["value"]?.stringValue else { return nil }
            return Header(name: name, value: value)
        }
    }
}

extension Value {
    /// The member `key` of an object (the first one), or nil.
    subscript(key: String) -> Value? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A string's text, or nil.
    var stringValue: String? {
        if case .string(let t) = self { return t.text }
        return nil
    }
}
