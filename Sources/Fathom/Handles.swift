import FathomCore

// Opaque handles: a retained Swift object behind each `fathom_*` handle pointer.

/// A new handle holding `object` (one retain, released by `releaseHandle`).
func retainedHandle(_ object: AnyObject) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(object).toOpaque())
}

/// The object behind `handle`, or nil for NULL (an optional handle argument).
@inline(__always)
func optionalObject<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type = T.self) -> T? {
    guard let handle else { return nil }
    return Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

/// The object behind `handle`, or a NULL-pointer error naming the argument ("`name` must not be NULL").
@inline(__always)
func object<T: AnyObject>(_ handle: OpaquePointer?, _ name: String, as type: T.Type = T.self) throws(FathomError) -> T {
    try required(optionalObject(handle, as: type), name)
}

/// Releases a handle made by `retainedHandle`; NULL does nothing (every `_destroy`/`_close` accepts it).
func releaseHandle<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type) {
    guard let handle else { return }
    Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).release()
}
