import History
import Logging
import Outputs
import Pipeline
import ServiceLifecycle
import Tracking

/// The history as one of the daemon's services: the sampler feeding the writer, and with
/// `--json-dir` readsb's `outline.json` rewritten there once a minute.
struct HistoryService: Service {
    let sampler: HistorySampler
    let reader: HistoryReader
    let jsonDirectory: String?
    let tracker: LiveTracker
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sampler.run() }
                if let jsonDirectory {
                    group.addTask { await writeOutline(into: jsonDirectory) }
                }
            }
        }
    }

    /// Rewrites `outline.json` in `directory` once a minute until cancelled; a failure is
    /// logged once until a write succeeds again.
    private func writeOutline(into directory: String) async {
        let writer = AircraftJSONWriter(directory: directory)
        var failing = false
        // The first after the first batch, so a restart brings back yesterday's outline.
        do { try await Task.sleep(for: .seconds(10)) } catch { return }
        while !Task.isCancelled {
            do {
                try writer.write("outline.json", try reader.outlineJSON(now: tracker.now))
                failing = false
            } catch {
                if !failing { logger.warning("outline.json: \(error)") }
                failing = true
            }
            do { try await Task.sleep(for: .seconds(60)) } catch { return }
        }
    }
}
