extension StringProtocol {
    /// The text without the white space (`Character.isWhitespace`: spaces, tabs, line breaks
    /// and the other Unicode white space) at either end.
    ///
    /// The one trim of the project: command-line values, header values and answers of outside
    /// services all go through it, so they all agree on what white space is.
    package func trimmingWhitespace() -> SubSequence {
        var result = self[...]
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
