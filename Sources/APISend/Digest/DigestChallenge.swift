import APISupport
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// One `WWW-Authenticate: Digest …` challenge (RFC 7616 §3.3) and the `Authorization` that
/// answers it (§3.4): MD5 or SHA-256, each also as `-sess`, `qop=auth` or none (RFC 2069).
package struct DigestChallenge: Sendable, Equatable {
    package enum Algorithm: String, Sendable, CaseIterable {
        case md5 = "MD5"
        case md5Session = "MD5-sess"
        case sha256 = "SHA-256"
        case sha256Session = "SHA-256-sess"

        var isSession: Bool { self == .md5Session || self == .sha256Session }

        func hash(_ text: String) -> String {
            let data = Data(text.utf8)
            switch self {
            case .md5, .md5Session: return Insecure.MD5.hash(data: data).map { Self.hex($0) }.joined()
            case .sha256, .sha256Session: return SHA256.hash(data: data).map { Self.hex($0) }.joined()
            }
        }

        private static func hex(_ byte: UInt8) -> String {
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }
    }

    package var realm: String
    package var nonce: String
    package var opaque: String?
    package var algorithm: Algorithm
    /// `qop="auth"` offered (`auth-int` alone is not supported: nil then, and the challenge is refused).
    package var qopAuth: Bool
    /// The server says the nonce expired, not the credentials: answer once more with the new one.
    package var stale: Bool

    /// The challenges of a 401's `WWW-Authenticate` fields that apicli can answer, strongest
    /// first (SHA-256 before MD5). Other schemes and unknown algorithms are skipped.
    package static func parse(_ values: [String]) -> [DigestChallenge] {
        let all = values.flatMap { AuthParams.challenges($0) }
        let digest = all.filter { $0.scheme.lowercased() == "digest" }.compactMap { DigestChallenge(params: $0.params) }
        return digest.sorted { rank($0.algorithm) > rank($1.algorithm) }
    }

    private static func rank(_ a: Algorithm) -> Int {
        switch a {
        case .sha256Session, .sha256: return 1
        case .md5, .md5Session: return 0
        }
    }

    package init?(params: [String: String]) {
        guard let realm = params["realm"], let nonce = params["nonce"] else { return nil }
        let name = params["algorithm"] ?? "MD5"
        guard let algorithm = Algorithm.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        let qops = params["qop"].map { $0.split(separator: ",").map { String($0).trimmingSpaces().lowercased() } }
        if let qops, !qops.contains("auth") { return nil }
        self.init(realm: realm, nonce: nonce, opaque: params["opaque"], algorithm: algorithm, qopAuth: qops != nil,
                  stale: params["stale"]?.lowercased() == "true")
    }

    package init(realm: String, nonce: String, opaque: String?, algorithm: Algorithm, qopAuth: Bool, stale: Bool = false) {
        self.realm = realm
        self.nonce = nonce
        self.opaque = opaque
        self.algorithm = algorithm
        self.qopAuth = qopAuth
        self.stale = stale
    }

    /// The `Authorization` value for `method` on `uri` (the request target as sent: path and
    /// query), the `nc`-th use of this nonce, with client nonce `cnonce`.
    package func authorization(_ login: DigestLogin, method: String, uri: String, nc: Int, cnonce: String) -> String {
        let h = algorithm.hash
        var ha1 = h("\(login.user):\(realm):\(login.password)")
        if algorithm.isSession { ha1 = h("\(ha1):\(nonce):\(cnonce)") }
        let ha2 = h("\(method):\(uri)")
        let count = String(String(nc, radix: 16).suffix(8))
        let ncText = String(repeating: "0", count: 8 - count.count) + count
        let response = qopAuth ? h("\(ha1):\(nonce):\(ncText):\(cnonce):auth:\(ha2)") : h("\(ha1):\(nonce):\(ha2)")
        var fields = ["username=\(Self.quoted(login.user))", "realm=\(Self.quoted(realm))", "nonce=\(Self.quoted(nonce))",
                      "uri=\(Self.quoted(uri))", "algorithm=\(algorithm.rawValue)"]
        if qopAuth { fields += ["qop=auth", "nc=\(ncText)", "cnonce=\(Self.quoted(cnonce))"] }
        fields.append("response=\(Self.quoted(response))")
        if let opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        return "Digest " + fields.joined(separator: ", ")
    }

    static func quoted(_ s: String) -> String {
        "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// The challenges of one `WWW-Authenticate` value (RFC 9110 §11.6.1): `Scheme k=v, k="v", Other …`.
enum AuthParams {
    struct Challenge {
        var scheme: String
        var params: [String: String]
    }

    static func challenges(_ value: String) -> [Challenge] {
        var out: [Challenge] = []
        var s = Substring(value)
        while true {
            s = s.drop { $0 == " " || $0 == "," || $0 == "\t" }
            guard !s.isEmpty else { return out }
            let token = s.prefix { !" \t,=".contains($0) }
            s = s.dropFirst(token.count)
            let rest = s.drop { $0 == " " || $0 == "\t" }
            if rest.first == "=", var last = out.popLast() {  // another param of the current challenge
                s = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                last.params[token.lowercased()] = paramValue(&s)
                out.append(last)
            } else {
                out.append(Challenge(scheme: String(token), params: [:]))
            }
        }
    }

    /// A token or quoted string at the front of `s`, consumed.
    private static func paramValue(_ s: inout Substring) -> String {
        guard s.first == "\"" else {
            let token = s.prefix { !" \t,".contains($0) }
            s = s.dropFirst(token.count)
            return String(token)
        }
        s = s.dropFirst()
        var out = ""
        while let c = s.first {
            s = s.dropFirst()
            if c == "\"" { break }
            if c == "\\", let next = s.first { out.append(next); s = s.dropFirst() } else { out.append(c) }
        }
        return out
    }
}
