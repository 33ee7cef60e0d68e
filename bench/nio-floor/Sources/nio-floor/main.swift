// The floor of a closed-model HTTP/1.1 load on SwiftNIO, to compare `apicli load` with (bench/nio-floor.sh):
// CONNECTIONS connections on two event loops, each writing a prebuilt `GET /hello` and, once the whole
// response is in, the next one from its read handler. Nothing else: no parsing into types, no task,
// no continuation, no latency recorded — what NIO's channels cost a request, not what a client does.
// With --await, each connection is an async task on its event loop (a `TaskExecutor` over the loop,
// as apicli's `EventLoopExecutor`): the handler resumes the task's continuation at each response and
// the task writes the next request — what an `await` a request adds. With --await-inline, the same,
// but the handler's resumption runs the task at once, inside its read (the executor runs the job it is
// handed then instead of queueing it on the loop): what an `await` costs when it is not a queued job.
//
//   nio-floor [--await | --await-inline] PORT CONNECTIONS SECONDS [REQUESTS]   # REQUESTS: stop each connection after that many
//
// The response's size is read from the first one (head up to CRLF CRLF, then Content-Length) and taken
// for all: nginx's `return 200` responses to the same request differ only in the Date header, which is
// fixed-width. Loopback only.
import NIOCore
import NIOPosix
import Foundation

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: nio-floor [--await | --await-inline] PORT CONNECTIONS SECONDS [REQUESTS]\n".utf8))
    exit(64)
}
var args = CommandLine.arguments
let inline = args.count > 1 && args[1] == "--await-inline"
let awaiting = args.count > 1 && (args[1] == "--await" || inline)
if awaiting { args.remove(at: 1) }
guard args.count == 4 || args.count == 5,
      let port = Int(args[1]), (1...65535).contains(port),
      let connections = Int(args[2]), (1...1000).contains(connections),
      let seconds = Double(args[3]), seconds > 0, seconds <= 3600 else { usage() }
let limit: Int
if args.count == 5 { guard let n = Int(args[4]), n > 0 else { usage() }; limit = n } else { limit = .max }
let request = "GET /hello HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: nio-floor\r\nAccept: */*\r\n\r\n"
let deadline = NIODeadline.now() + .nanoseconds(Int64(seconds * 1e9))

final class Total: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add(_ count: Int) { lock.lock(); n += count; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
let total = Total()

final class Handler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    private let request: ByteBuffer
    private var first: [UInt8] = []   // the first response, until its size is known
    private var size = 0              // one response's bytes
    private var have = 0              // bytes of responses not yet counted
    private var count = 0
    /// --await: the connection's task, waiting for the response to the request it wrote.
    var waiter: CheckedContinuation<Bool, Never>?
    /// --await-inline: the task's executor, which runs it within the resumption.
    var executor: LoopExecutor?

    init(_ request: ByteBuffer) { self.request = request }

    func channelActive(context: ChannelHandlerContext) {
        if !awaiting { context.writeAndFlush(NIOAny(request), promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if size == 0 {
            first.append(contentsOf: buffer.readableBytesView)
            guard let end = headEnd(), let length = contentLength(end), first.count >= end + length else { return }
            (size, have) = (end + length, first.count)
        } else {
            have += buffer.readableBytes
        }
        while have >= size {
            have -= size
            count += 1
            let more = count < limit && NIODeadline.now() < deadline
            if awaiting {
                let waiter = self.waiter
                self.waiter = nil
                if !more { context.close(promise: nil) }
                if let executor { executor.resumingHere { waiter?.resume(returning: more) } } else { waiter?.resume(returning: more) }
                return
            }
            guard more else { return context.close(promise: nil) }
            context.writeAndFlush(NIOAny(request), promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        total.add(count)
        let waiter = self.waiter
        self.waiter = nil
        waiter?.resume(returning: false)
    }

    private func headEnd() -> Int? {
        guard first.count >= 4 else { return nil }
        for i in 0...(first.count - 4) where first[i] == 13 && first[i + 1] == 10 && first[i + 2] == 13 && first[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    private func contentLength(_ end: Int) -> Int? {
        let head = String(decoding: first[0..<end], as: UTF8.self).lowercased()
        guard let r = head.range(of: "\r\ncontent-length:") else { return nil }
        return Int(head[r.upperBound...].drop { $0 == " " }.prefix { $0.isNumber })
    }
}

/// Jobs run on the event loop (the --await tasks' executor).
final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    let loop: any EventLoop
    init(_ loop: any EventLoop) { self.loop = loop }
    /// Set on the loop's thread only, around a resumption (--await-inline).
    private var runNextHere = false
    func resumingHere(_ resume: () -> Void) {
        runNextHere = true
        resume()
        runNextHere = false
    }
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if loop.inEventLoop && runNextHere {
            runNextHere = false
            return job.runSynchronously(on: asUnownedTaskExecutor())
        }
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
let start = Date()
var channels: [Channel] = []
do {
    for _ in 0..<connections {
        let request = ByteBuffer(string: request)
        let handler = Handler(request)
        let channel = try ClientBootstrap(group: group).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
        }.connect(host: "127.0.0.1", port: port).wait()
        channels.append(channel)
        if awaiting {
            let loop = channel.eventLoop
            let executor = LoopExecutor(loop)
            if inline { try loop.submit { handler.executor = executor }.wait() }
            Task(executorPreference: executor) {
                // On the loop's thread: the handler's state is only touched there.
                var more = true
                while more {
                    more = await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
                        loop.preconditionInEventLoop()
                        handler.waiter = c
                        channel.writeAndFlush(request, promise: nil)
                    }
                }
            }
        }
    }
    for channel in channels { try channel.closeFuture.wait() }
} catch {
    FileHandle.standardError.write(Data("nio-floor: \(error)\n".utf8))
    exit(1)
}
let elapsed = Date().timeIntervalSince(start)
print(String(format: "%d requests in %.2f s: %.0f req/s", total.value, elapsed, Double(total.value) / elapsed))
