import FuzzTargets

/// libFuzzer's entry point: the body is `FuzzTarget.tar`, which `FuzzTargetsTests`
/// replays too. Built with `swift build --sanitize=fuzzer` (`make fuzz`), libFuzzer supplies
/// `main`; in a normal build this executable does nothing.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTarget.tar.fuzz(start, count)
}
