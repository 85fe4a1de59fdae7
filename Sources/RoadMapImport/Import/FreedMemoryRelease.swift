#if canImport(Glibc)
    import Glibc
#endif

/// Hands memory that the process freed but its allocator kept back to the system.
enum FreedMemoryRelease {
    /// Calls glibc's `malloc_trim(0)` (looked up at run time: the Glibc module does not export
    /// `<malloc.h>`), which returns the free pages of every malloc arena, those of finished
    /// worker threads included; nothing where the C library has no such call.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
