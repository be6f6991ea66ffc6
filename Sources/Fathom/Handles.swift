import CFathom

// Opaque handles: a retained Swift object behind each `fathom_*` handle pointer.

/// A new handle holding `object` (one retain, released by `releaseHandle`).
func retainedHandle(_ object: AnyObject) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(object).toOpaque())
}

/// The object behind `handle`, or a NULL-pointer error naming the argument.
func object<T: AnyObject>(_ handle: OpaquePointer?, _ name: String, as type: T.Type = T.self) throws -> T {
    guard let handle else { throw ArgumentError(status: FATHOM_ERR_NULL_POINTER, message: "\(name) must not be NULL") }
    return Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

/// Releases a handle made by `retainedHandle`; NULL does nothing (every `_destroy`/`_close` accepts it).
func releaseHandle<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type) {
    guard let handle else { return }
    Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).release()
}
