import APISupport
import APIYAML
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The plain values of the shared option groups (Options.swift, FormOptions.swift). A command runs
// from these: argument-parser's groups map onto them (`values`), and the hand parser
// (HandParser.swift) fills them without argument-parser, whose property wrappers cannot be made
// outside its parse. Checks and derived values live here, once.

/// `--targets`: where the target files are.
struct TargetsValues {
    var targets: String?

    /// getenv, not ProcessInfo's environment: that builds a dictionary of the whole environment
    /// on each call.
    var directory: String {
        targets ?? getenv("APICLI_TARGETS").map { String(cString: $0) } ?? "targets"
    }
}

/// `--env` and `--env-file`.
struct EnvironmentValues {
    var environmentName: String?
    var envFiles: [String] = []
}

/// What the command line changes about a request (RequestOptions' values).
struct RequestValues {
    var params: [String] = []
    var headers: [String] = []
    var baseURL: String?
    var timeout: Double?
    var cacert: String?
    var cert: String?
    var key: String?
    var keyPassword: String?
    var insecure = false
    var resolve: [String] = []
    var connectTo: [String] = []
    var unixSocket: String?
    var http1 = false
    var cookie: String?
    var cookieJar: String?
    var http2PriorKnowledge = false
    var awsSigV4: String?
    var noFollow = false
    var showSecrets = false
    var maxEvent: Int64?

    func validate() throws {
        if let baseURL, let problem = URLBuilder.problem(withPortOf: baseURL) {
            throw ValidationError("--base-url '\(baseURL)' \(problem)")
        }
        if let cacert, !Path.isReadable(cacert) {
            throw ValidationError("--cacert: cannot read '\(cacert)'")
        }
        // One flag after the other, not a loop over an array of (flag, file) pairs: that array's type
        // would be made at run time, on every call's start.
        if let cert, !Path.isReadable(cert) { throw ValidationError("--cert: cannot read '\(cert)'") }
        if let key, !Path.isReadable(key) { throw ValidationError("--key: cannot read '\(key)'") }
        if key != nil && cert == nil { throw ValidationError("--key needs --cert (the certificate the key belongs to)") }
        for r in resolve where ConnectionOptions.parseResolve(r) == nil {
            throw ValidationError("--resolve takes host:port:address (port 1-65535, an IP address), got '\(r)'")
        }
        if let awsSigV4, AWSScope.parse(awsSigV4) == nil {
            throw ValidationError("--aws-sigv4 takes aws:amz:REGION:SERVICE (as curl; e.g. aws:amz:eu-west-1:execute-api), got '\(awsSigV4)'")
        }
        for c in connectTo {
            do { _ = try ConnectionOptions.parseConnectTo(c) } catch { throw ValidationError(error.message) }
        }
        if let unixSocket, unixSocket.isEmpty || unixSocket.utf8.count > 107 {
            throw ValidationError("--unix-socket takes a socket path of 1 to 107 bytes, got '\(unixSocket)'")
        }
        if let cookie, !Path.isReadable(cookie) { throw ValidationError("--cookie: cannot read '\(cookie)'") }
        for p in params where !p.contains("=") || p.hasPrefix("=") {
            throw ValidationError("-p takes name=value, got '\(p)'")
        }
        for h in headers {
            guard let colon = h.firstIndex(of: ":"), colon != h.startIndex else {
                throw ValidationError("-H takes 'Name: value', got '\(h)'")
            }
        }
        if let maxEvent, !StreamSettings.maxEventRange.contains(maxEvent) {
            throw ValidationError("--max-event-size takes a number of bytes from \(StreamSettings.maxEventRange.lowerBound) to "
                                  + "\(StreamSettings.maxEventRange.upperBound) (1 GiB), got \(maxEvent)")
        }
        if let timeout, !Durations.accepts(timeout, allowZero: false) {
            throw ValidationError("--timeout takes a positive number of seconds, at most \(Int(Durations.maxSeconds)) (a day), got \(timeout)")
        }
    }

    /// `--resolve`, `--connect-to`, `--unix-socket` and `--http1.1` (checked by `validate`).
    var connection: ConnectionOptions {
        ConnectionOptions(resolve: resolve.compactMap(ConnectionOptions.parseResolve),
                          connectTo: connectTo.compactMap { try? ConnectionOptions.parseConnectTo($0) },
                          unixSocket: unixSocket, http1Only: http1)
    }

    var overrides: EndpointResolver.Overrides {
        var values: [String: String] = [:]
        for p in params {
            let parts = p.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let fields = headers.map { h -> HeaderField in
            let colon = h.firstIndex(of: ":")!
            return HeaderField(String(h[..<colon]).trimmingSpaces(),
                               String(h[h.index(after: colon)...]).trimmingSpaces())
        }
        var overrides = EndpointResolver.Overrides(params: values, headers: fields, baseURL: baseURL, timeout: timeout,
                                                   tls: TLSOptions(caFile: cacert, verify: !insecure,
                                                                   certFile: cert, keyFile: key))
        overrides.tls.password = keyPassword
        if noFollow { overrides.followRedirects = false }
        overrides.awsSigV4 = awsSigV4.flatMap(AWSScope.parse)
        overrides.http2PriorKnowledge = http2PriorKnowledge
        overrides.maxEvent = maxEvent
        return overrides
    }
}


/// `-F`'s parts (FormOptions' values).
struct FormValues {
    var forms: [String] = []

    func validate() throws {
        for f in forms where Self.parse(f) == nil {
            throw ValidationError("-F takes name=value or name=@file, got '\(f)'")
        }
    }

    /// The parts, in order. A file must exist and be readable (else exit 2).
    func parts() throws(APIError) -> [FormPart] {
        var out: [FormPart] = []
        for f in forms {
            guard let part = Self.parse(f) else { continue }
            if case .file(let path) = part.content {
                do throws(APIError) {
                    _ = try SizedBody.size(of: path)
                } catch {
                    throw .invalid(Diagnostic(file: nil, mark: nil, message: "-F \(part.name)=@\(path): " + Self.reason(error),
                                              hint: "paths after @ are relative to the working directory"))
                }
            }
            out.append(part)
        }
        return out
    }

    private static func reason(_ error: APIError) -> String {
        guard case .invalidInput(let d) = error, let first = d.first else { return "cannot read it" }
        return first.message
    }

    /// `name=value`, or `name=@path` with optional `;type=…` and `;filename=…` (curl's spelling).
    static func parse(_ spec: String) -> FormPart? {
        guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex else { return nil }
        let name = String(spec[..<eq])
        let rest = String(spec[spec.index(after: eq)...])
        guard rest.hasPrefix("@") else { return FormPart(name: name, content: .value(Template(rest, mark: Mark(line: 0, column: 0)))) }
        var fields = rest.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let path = fields.removeFirst()
        guard !path.isEmpty else { return nil }
        var part = FormPart(name: name, content: .file(path))
        for field in fields {
            if field.hasPrefix("type=") { part.type = String(field.dropFirst(5)) }
            else if field.hasPrefix("filename=") { part.filename = String(field.dropFirst(9)) }
            else { return nil }
        }
        return part
    }
}
