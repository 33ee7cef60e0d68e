import APISupport
import APIDiagnostics
import APITransport
/// `apicli import har`: a browser's or a proxy's recording (HAR 1.2) → one service file per origin
/// (scheme, host and port: the `baseURL`), one target per method and path, with the recorded
/// responses as samples. Path segments that look like ids become `{id}` (so `/users/1` and
/// `/users/2` are one target); static assets (style sheets, scripts, images, fonts, media, HTML
/// pages) are left out unless `all`; credentials (Authorization, Cookie, secret-looking headers,
/// query and form fields) become `${VAR}`s, never the recorded values.
package struct HarImport: Importer {
    package struct Options: Sendable {
        /// The service name for a recording of one origin; with several, a prefix (`NAME-host`).
        package var service: String?
        /// Import static assets too.
        package var all: Bool

        package init(service: String? = nil, all: Bool = false) {
            self.service = service
            self.all = all
        }
    }


    package var options: Options
    package static var source: String { "recorded" }

    package init(options: Options) {
        self.options = options
    }

    package func read(_ input: ImportInput) throws(APIError) -> ImportResult {
        let file = input.name
        var notes: [String] = []
        let entries = try HarEntry.entries(input.bytes, warnings: &notes)
        var kept: [(entry: HarEntry, url: CurlURL)] = []
        var skipped: [String: Int] = [:]
        for e in entries {
            guard let url = try? CurlURL(e.url), e.url.lowercased().hasPrefix("http") else {
                skipped["not an http or https URL", default: 0] += 1
                continue
            }
            if e.status == 0 { skipped["no response recorded (status 0)", default: 0] += 1; continue }
            if e.status == 101 { skipped["WebSocket", default: 0] += 1; continue }
            if !options.all, let kind = Self.staticKind(e) { skipped["\(kind) (static; --all imports them)", default: 0] += 1; continue }
            kept.append((e, url))
        }
        let origins = ImportOrigins.group(kept) { $0.url.base }
        for (why, n) in skipped.sorted(by: { $0.key < $1.key }) {
            notes.append("\(n) entr\(n == 1 ? "y" : "ies") skipped: \(why)")
        }
        guard !origins.isEmpty else {
            throw .invalid(Diagnostic(file: file, mark: nil, message: "nothing to import: the recording has \(entries.count) entries and none is an API request",
                                      hint: options.all ? nil : "pass --all to import static assets and pages too"))
        }
        var taken = UniqueNames()
        var drafts: [ServiceDraft] = []
        for origin in origins {
            var name = origin.items[0].url.serviceName
            if let given = options.service { name = origins.count == 1 ? given : given + "-" + name }
            var mapper = HarService(service: taken.claim(name), baseURL: origin.origin)
            for (e, url) in origin.items { mapper.add(e, url: url) }
            notes += mapper.finish()
            drafts.append(mapper.draft)
        }
        return ImportResult(drafts: drafts, warnings: notes.map { ImportWarning(file: file, mark: nil, message: $0) })
    }

    /// What kind of static asset the entry is, from its response's media type (or Chrome's
    /// resource type when the media type is missing); nil for what an API answers.
    static func staticKind(_ e: HarEntry) -> String? {
        let type = e.mimeType.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
        let kinds: [(String, [String])] = [
            ("style sheet", ["text/css"]),
            ("script", ["text/javascript", "application/javascript", "application/x-javascript", "application/ecmascript",
                        "text/ecmascript", "application/wasm"]),
            ("HTML page", ["text/html", "application/xhtml+xml"]),
            ("font", ["font/", "application/font-", "application/x-font-", "application/vnd.ms-fontobject"]),
            ("image", ["image/"]), ("audio", ["audio/"]), ("video", ["video/"]),
        ]
        for (kind, prefixes) in kinds where prefixes.contains(where: { type.hasPrefix($0) }) { return kind }
        if type.isEmpty, let r = e.resourceType?.lowercased(),
           ["stylesheet", "script", "image", "font", "media", "document", "manifest"].contains(r) {
            return r
        }
        return nil
    }
}
