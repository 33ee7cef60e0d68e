import APISupport
import APISecrets
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A runnable curl command for a prepared request, every argument quoted for a POSIX shell.
/// `-L` because apicli follows redirects too. Secrets are hidden unless the redactor is off.
/// `connection`: the run's connection options (`RunSettings.connection`), as curl's own flags.
package enum Curl {
    package static func command(_ r: PreparedRequest, redactor: Redactor, connection: ConnectionOptions) -> String {
        if r.websocket != nil { return webSocketHandshake(r, redactor: redactor, connection: connection) }
        var args = ["curl", "-L"]
        if r.method == "HEAD" {
            args.append("--head")
        } else if r.method != "GET" || r.body != nil {
            args += ["-X", quote(r.method)]
        }
        args.append(quote(redactor.url(r.url.absoluteString)))
        for header in r.headers {
            // curl -F writes its own boundary.
            if case .multipart(let body)? = r.body, header.name.lowercased() == "content-type",
               header.value.contains(body.boundary) { continue }
            let shown = redactor.header(header)
            args += ["-H", quote("\(shown.name): \(shown.value)")]
        }
        let route = connection.route(for: r.url, socket: r.socket)
        if let socket = route.socket { args += ["--unix-socket", quote(socket)] }
        if let entry = route.connectTo { args += ["--connect-to", quote(entry.text)] }
        if let entry = route.resolve {
            let address = entry.address.contains(":") ? "[\(entry.address)]" : entry.address
            args += ["--resolve", quote("\(entry.host):\(entry.port):\(address)")]
        }
        if connection.http1Only { args.append("--http1.1") } else if r.http2PriorKnowledge, r.url.scheme?.lowercased() == "http" {
            args.append("--http2-prior-knowledge")
        }
        // TLS trust as the request is sent: curl's --cacert stands for the file apicli trusts besides
        // the system's (enough for the private CA or self-signed server it is there for).
        if !r.tls.verify { args.append("-k") } else if let ca = r.tls.caFile { args += ["--cacert", quote(ca)] }
        if let bundle = r.tls.pkcs12File {
            let spec = r.tls.password.map { bundle.replacing(":", with: "\\:") + ":" + redactor.text($0) } ?? bundle
            args += ["--cert-type", "P12", "--cert", quote(spec)]
        }
        if let cert = r.tls.certFile {
            args += ["--cert", quote(cert)]
            if let key = r.tls.keyFile { args += ["--key", quote(key)] }
            if let password = r.tls.password { args += ["--pass", quote(redactor.text(password))] }
        }
        if let login = r.digest {
            args += ["--digest", "-u", quote(redactor.text("\(login.user):\(login.password)"))]
        }
        if let aws = r.aws {
            args += ["--aws-sigv4", quote("aws:amz:\(aws.region):\(aws.service)"),
                     "--user", quote(redactor.text("\(aws.accessKey):\(aws.secretKey)"))]
            if let token = aws.sessionToken { args += ["-H", quote(redactor.text("X-Amz-Security-Token: \(token)"))] }
        }
        // curl adds `application/x-www-form-urlencoded` to --data-binary without one: a body sent
        // with none (`contentType: none`) removes it
        if let body = r.body, r.headers.value(of: "Content-Type") == nil {
            if case .multipart = body {} else { args += ["-H", quote("Content-Type:")] }
        }
        switch r.body {
        case .data(let data)?:
            args += ["--data-binary", quote(redactor.text(String(decoding: data, as: UTF8.self)))]
        case .file(let path)?:
            args += ["--data-binary", quote("@" + path)]
        case .multipart(let body)?:
            for part in body.parts {
                switch part.content {
                case .text(let value):
                    args += ["--form-string", quote(redactor.text("\(part.name)=\(value)"))]
                case .file(let path):
                    var spec = "\(part.name)=@\(formParameter(path))"
                    if let filename = part.filename { spec += ";filename=\(formParameter(filename))" }
                    if let type = part.effectiveType { spec += ";type=\(type)" }
                    args += ["-F", quote(spec)]
                }
            }
        case nil: break
        }
        args += ["--max-time", Text.number(r.timeout)]
        return args.joined(separator: " ") + "\n"
    }

    /// A value inside a curl `-F` spec: double-quoted when it holds `;`, `,` or `"`.
    static func formParameter(_ s: String) -> String {
        guard s.contains(where: { ";,\"".contains($0) }) else { return s }
        return "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// `'text'`, with each `'` written as `'\''`. Plain words stay bare.
    package static func quote(_ text: String) -> String {
        let safe = !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./:=@%+,".unicodeScalars.contains($0))
        }
        return safe ? text : "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
