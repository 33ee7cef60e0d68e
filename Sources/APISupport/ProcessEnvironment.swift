#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The process's environment as a dictionary, read from `environ` in one pass over its bytes: what
/// `ProcessInfo.processInfo.environment` gives (each entry split at its first `=`, an entry without
/// one skipped, a name given twice keeping its last value, bytes that are not UTF-8 repaired), without
/// its walk of every entry by `Character` and a dictionary grown one entry at a time, which made it
/// most of what a `call --stub` does once the program is loaded.
package enum ProcessEnvironment {
    package static func all() -> [String: String] {
        #if canImport(Glibc)
        var count = 0
        while environ[count] != nil { count += 1 }
        var variables = [String: String](minimumCapacity: count)
        for i in 0..<count {
            guard let entry = environ[i] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            variables[String(decoding: bytes[..<equals], as: UTF8.self)] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
        }
        return variables
        #else
        return ProcessInfo.processInfo.environment
        #endif
    }
}
