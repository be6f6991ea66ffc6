import Glibc
import Synchronization

/// Runs work over 0..<count on a number of threads (pthreads), handing out chunks from a shared counter.
/// Each index is processed exactly once, by whichever thread takes its chunk, so results that depend
/// only on the index do not depend on the thread count.
public enum ParallelFor {
    /// Online CPUs (at least 1).
    public static var processorCount: Int { Swift.max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    private final class Work: @unchecked Sendable {
        let count: Int, chunk: Int
        let next = Atomic<Int>(0)
        let body: (Range<Int>) -> Void
        init(count: Int, chunk: Int, body: @escaping (Range<Int>) -> Void) { self.count = count; self.chunk = chunk; self.body = body }

        func run() {
            while true {
                let start = next.wrappingAdd(chunk, ordering: .relaxed).oldValue
                guard start < count else { return }
                body(start..<Swift.min(count, start + chunk))
            }
        }
    }

    /// Calls `body` on chunks of 0..<count from `threads` threads (0 = one per online CPU; the calling
    /// thread is one of them). Returns when all chunks are done.
    public static func run(count: Int, threads: Int, chunk: Int = 256, _ body: @escaping (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let workers = Swift.min(threads == 0 ? processorCount : threads, (count + chunk - 1) / chunk)
        let work = Work(count: count, chunk: chunk, body: body)
        var started = [pthread_t]()
        for _ in 1..<Swift.max(1, workers) {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(work).toOpaque()
            let result = pthread_create(&thread, nil, { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
            if result == 0 { started.append(thread) } else { Unmanaged<Work>.fromOpaque(context).release() }
        }
        work.run()  // the calling thread works too, and alone if no thread could be started
        for thread in started { pthread_join(thread, nil) }
    }
}
