import Foundation
import HTTPTypes
import Testing

@testable import Web

/// The small rules of the web server, one by one.
@Suite struct WebPartsTests {
    @Test func gzipIsTakenOnlyWhenAcceptedWithAPositiveQuality() {
        #expect(WebResponder.acceptsGzip("gzip, deflate, br"))
        #expect(WebResponder.acceptsGzip("br;q=1.0, gzip;q=0.8"))
        #expect(WebResponder.acceptsGzip("*"))
        #expect(!WebResponder.acceptsGzip("gzip;q=0"))
        #expect(!WebResponder.acceptsGzip("br"))
        #expect(!WebResponder.acceptsGzip(nil))
    }

    @Test func onlyPagesOfTheDaemonItselfOpenTheFeed() {
        func request(origin: String?, host: String = "192.168.1.5:8443") -> HTTPRequest {
            var fields = HTTPFields()
            if let origin { fields[.origin] = origin }
            return HTTPRequest(method: .get, scheme: nil, authority: host, path: "/feed", headerFields: fields)
        }
        #expect(FeedSocket.isSameOrigin(request(origin: nil)))
        #expect(FeedSocket.isSameOrigin(request(origin: "https://192.168.1.5:8443")))
        #expect(FeedSocket.isSameOrigin(request(origin: "HTTPS://192.168.1.5:8443")))
        #expect(!FeedSocket.isSameOrigin(request(origin: "https://192.168.1.5:9999")))
        #expect(!FeedSocket.isSameOrigin(request(origin: "https://evil.example")))
        #expect(!FeedSocket.isSameOrigin(request(origin: "null")))
        // Not a browser: tools name themselves however they like.
        #expect(FeedSocket.isSameOrigin(request(origin: "ws://127.0.0.1")))
        #expect(FeedSocket.isFeed(HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/feed?v=1")))
        #expect(!FeedSocket.isFeed(HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/feedx")))
    }

    @Test func contentTypesFollowTheExtension() {
        #expect(EmbeddedAsset.contentType(of: "app.js") == "application/javascript; charset=utf-8")
        #expect(EmbeddedAsset.contentType(of: "manifest.webmanifest") == "application/manifest+json")
        #expect(EmbeddedAsset.contentType(of: "icon.png") == "image/png")
        #expect(EmbeddedAsset.contentType(of: "unknown.bin") == "application/octet-stream")
        #expect(!EmbeddedAsset.isCompressible("image/png"))
    }

    @Test func everyFileOfTheAppFolderIsEmbedded() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Web/App").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            .sorted()
        #expect(files == WebApp.fileNames)
    }
}
