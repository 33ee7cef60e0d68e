import APISupport
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `mock` watches for a reload: the modification time and size of every file of the targets
/// folder (`*.yaml`, `*.yml`, `.env*`), of the `--env-file`s and of the files the
/// services name (sample bodies). Two equal stamps: nothing changed.
package struct FileStamps: Sendable, Equatable {
    private var stamps: [String: [Int64]]

    package init(directory: String, files: [String]) {
        var paths = Set(files)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.hasPrefix(".env") {
            paths.insert(Path.join(directory, name))
        }
        var stamps: [String: [Int64]] = [:]
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                stamps[path] = []
                continue
            }
            #if canImport(Darwin)
            let time = info.st_mtimespec
            #else
            let time = info.st_mtim
            #endif
            stamps[path] = [Int64(time.tv_sec), Int64(time.tv_nsec), Int64(info.st_size)]
        }
        self.stamps = stamps
    }

    /// The files of `catalog`'s services that live outside the folder listing (sample bodies, …).
    package static func referenced(by services: [Service]) -> [String] {
        services.flatMap { $0.files.map(\.path) }
    }
}
