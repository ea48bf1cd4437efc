/// The web app the server shows at `/`: the files of `Sources/Web/App`, embedded in the
/// binary at build time so the daemon needs nothing beside it. Every file of that folder must
/// be listed here (a test checks).
enum WebApp {
    /// The app's files by the path they are served under.
    static let assets: [String: EmbeddedAsset] = {
        let files: [(String, [UInt8])] = [
            ("index.html", PackageResources.index_html),
            ("app.js", PackageResources.app_js),
            ("style.css", PackageResources.style_css),
            ("manifest.webmanifest", PackageResources.manifest_webmanifest),
            ("sw.js", PackageResources.sw_js),
            ("almanac.js", PackageResources.almanac_js),
            ("angles.js", PackageResources.angles_js),
            ("card.js", PackageResources.card_js),
            ("compass.js", PackageResources.compass_js),
            ("controls.js", PackageResources.controls_js),
            ("declutter.js", PackageResources.declutter_js),
            ("feed.js", PackageResources.feed_js),
            ("gestures.js", PackageResources.gestures_js),
            ("history.css", PackageResources.history_css),
            ("history.js", PackageResources.history_js),
            ("history-panel.js", PackageResources.history_panel_js),
            ("icon-192.png", PackageResources.icon_192_png),
            ("icon-512.png", PackageResources.icon_512_png),
            ("icon.svg", PackageResources.icon_svg),
            ("kid.js", PackageResources.kid_js),
            ("list.js", PackageResources.list_js),
            ("location.js", PackageResources.location_js),
            ("orientation.js", PackageResources.orientation_js),
            ("palette.js", PackageResources.palette_js),
            ("pinhole.js", PackageResources.pinhole_js),
            ("projection.js", PackageResources.projection_js),
            ("radar.js", PackageResources.radar_js),
            ("rewind.js", PackageResources.rewind_js),
            ("settings.js", PackageResources.settings_js),
            ("silhouettes.js", PackageResources.silhouettes_js),
            ("sky.js", PackageResources.sky_js),
            ("skygrid.js", PackageResources.skygrid_js),
            ("skymarkers.js", PackageResources.skymarkers_js),
            ("skysensors.js", PackageResources.skysensors_js),
            ("skyview.js", PackageResources.skyview_js),
            ("words.js", PackageResources.words_js)
        ]
        var table: [String: EmbeddedAsset] = [:]
        for (name, bytes) in files {
            let asset = EmbeddedAsset(name: name, bytes: bytes)
            table[asset.path] = asset
        }
        return table
    }()

    /// The names of the embedded files.
    static var fileNames: [String] { assets.keys.map { String($0.dropFirst()) }.sorted() }
}
