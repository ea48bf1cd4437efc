/// File paths taken apart and put together as text, the way the shell and the C library read
/// them: `/` separates components, runs of `/` count as one, trailing ones are ignored, and a
/// relative path stays relative (unlike `URL`, nothing is resolved against the working
/// directory, so error messages show the path as the user gave it).
package enum PathText {
    /// The directory part of `path`: `/run/x.sock` → `/run`, `/x` → `/`, `x` → `""` (the
    /// working directory), `""` → `""`.
    package static func directory(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = withoutTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The last component of `path`: `/run/x.sock` → `x.sock`, `/run/` → `run`, `/` → `/`.
    package static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let name = trimmed[trimmed.index(after: slash)...]
        return name.isEmpty ? "/" : String(name)
    }

    /// `name` inside `directory`: `/run` + `x.sock` → `/run/x.sock`, one slash between them
    /// whatever `directory` ends with; `name` alone when `directory` is empty.
    package static func appending(_ name: String, to directory: String) -> String {
        guard !directory.isEmpty else { return name }
        let base = withoutTrailingSlashes(directory)
        return base == "/" ? "/" + name : base + "/" + name
    }

    /// `path` without its trailing slashes, except the one of the root.
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
