import Testing

extension EndToEnd {
    @Suite struct HelpTests {
        @Test func helpListsEverySubcommand() throws {
            let result = try BinaryRunner.run(["--help"])
            #expect(result.status == 0)
            for command in ["run", "demod", "decode", "radar", "simulate", "bench", "db"] {
                #expect(result.stdout.contains(command), "missing \(command)")
            }
        }

        @Test func unknownOptionIsAClearError() throws {
            let result = try BinaryRunner.run(["decode", "--no-such-option"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("no-such-option"))
        }
    }
}
