import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a response body goes when it is not held in memory: a file being downloaded
/// (`PartialFile`), standard output. Writes come one at a time, from any thread.
package protocol BodySink: AnyObject, Sendable {
    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError)
}

extension BodySink {
    package func write(_ data: Data) throws(APIError) {
        let result = data.withUnsafeBytes { raw -> Result<Void, APIError> in
            do throws(APIError) { try self.write(raw) } catch { return .failure(error) }
            return .success(())
        }
        try result.get()
    }
}
