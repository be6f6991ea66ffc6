import CFathom
import FathomCore
import Glibc

/// Runs the body of an exported function: a thrown error becomes its status code and a thread-local message
/// "function: message". Nothing is written through out-pointers unless the body succeeds. Every check of the ABI
/// layer (Validation.swift, Handles.swift) and of the core throws `FathomError`, so the body's errors are typed.
@inline(__always)
func abiCall(_ function: StaticString, _ body: () throws(FathomError) -> Void) -> fathom_status {
    do throws(FathomError) {
        try body()
        return FATHOM_OK
    } catch {
        return fail(function, status(of: error.kind), error.message)
    }
}

@inline(never)
func fail(_ function: StaticString, _ status: fathom_status, _ message: String) -> fathom_status {
    LastError.set("\(function): \(message)")
    return status
}

func status(of kind: FathomError.Kind) -> fathom_status {
    switch kind {
    case .notFinite: FATHOM_ERR_NOT_FINITE
    case .outOfRange: FATHOM_ERR_OUT_OF_RANGE
    case .overflow: FATHOM_ERR_OVERFLOW
    case .bufferTooSmall: FATHOM_ERR_BUFFER_TOO_SMALL
    case .notRigid: FATHOM_ERR_NOT_RIGID
    case .degenerate: FATHOM_ERR_DEGENERATE
    case .invalidState: FATHOM_ERR_INVALID_STATE
    case .parse: FATHOM_ERR_PARSE
    case .format: FATHOM_ERR_FORMAT
    case .notABox: FATHOM_ERR_NOT_A_BOX
    case .io: FATHOM_ERR_IO
    case .lapack: FATHOM_ERR_LAPACK
    case .outOfMemory: FATHOM_ERR_OUT_OF_MEMORY
    case .noData: FATHOM_ERR_NO_DATA
    case .nullPointer: FATHOM_ERR_NULL_POINTER
    }
}

/// The calling thread's last error message, in a malloc'd C string owned by a pthread key (freed when
/// the thread exits or the next error replaces it).
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    static func set(_ message: String) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(previous)
    }

    static var current: UnsafePointer<CChar> {
        if let p = pthread_getspecific(key) { return UnsafePointer(p.assumingMemoryBound(to: CChar.self)) }
        return cString("")
    }
}

/// A C string with static lifetime from a string literal.
func cString(_ literal: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// FathomVersion.string as a C string made once (a global's initializer runs once, thread-safely), never freed or
/// written: safe to share.
nonisolated(unsafe) private let versionText: UnsafePointer<CChar> = FathomVersion.string.withCString { UnsafePointer(strdup($0)!) }

@_cdecl("fathom_version")
public func fathom_version() -> UnsafePointer<CChar> { versionText }

@_cdecl("fathom_version_number")
public func fathom_version_number() -> UInt32 {
    UInt32(FathomVersion.major * 10000 + FathomVersion.minor * 100 + FathomVersion.patch)
}

@_cdecl("fathom_status_name")
public func fathom_status_name(_ status: fathom_status) -> UnsafePointer<CChar> {
    switch status {
    case FATHOM_OK: cString("FATHOM_OK")
    case FATHOM_ERR_NULL_POINTER: cString("FATHOM_ERR_NULL_POINTER")
    case FATHOM_ERR_NOT_FINITE: cString("FATHOM_ERR_NOT_FINITE")
    case FATHOM_ERR_OUT_OF_RANGE: cString("FATHOM_ERR_OUT_OF_RANGE")
    case FATHOM_ERR_OVERFLOW: cString("FATHOM_ERR_OVERFLOW")
    case FATHOM_ERR_BUFFER_TOO_SMALL: cString("FATHOM_ERR_BUFFER_TOO_SMALL")
    case FATHOM_ERR_NOT_RIGID: cString("FATHOM_ERR_NOT_RIGID")
    case FATHOM_ERR_DEGENERATE: cString("FATHOM_ERR_DEGENERATE")
    case FATHOM_ERR_INVALID_STATE: cString("FATHOM_ERR_INVALID_STATE")
    case FATHOM_ERR_PARSE: cString("FATHOM_ERR_PARSE")
    case FATHOM_ERR_FORMAT: cString("FATHOM_ERR_FORMAT")
    case FATHOM_ERR_NOT_A_BOX: cString("FATHOM_ERR_NOT_A_BOX")
    case FATHOM_ERR_IO: cString("FATHOM_ERR_IO")
    case FATHOM_ERR_LAPACK: cString("FATHOM_ERR_LAPACK")
    case FATHOM_ERR_OUT_OF_MEMORY: cString("FATHOM_ERR_OUT_OF_MEMORY")
    case FATHOM_ERR_NO_DATA: cString("FATHOM_ERR_NO_DATA")
    default: cString("FATHOM_UNKNOWN_STATUS")
    }
}

@_cdecl("fathom_last_error")
public func fathom_last_error() -> UnsafePointer<CChar> { LastError.current }
