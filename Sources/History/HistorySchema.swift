/// The store's tables, and the marks that tell its file from any other SQLite file.
///
/// `application_id` is set to `applicationID` when the file is made; a file with another id,
/// or with tables but no id, is not ours. `user_version` is the schema's version: a file of a
/// newer version is left alone (moved aside) rather than misread.
package enum HistorySchema {
    /// "AVH1" as a big-endian 32-bit number: this program's history store.
    package static let applicationID: Int64 = 0x4156_4831
    /// The schema described here.
    package static let version: Int64 = 1

    /// Settings made once, before the first table: pages freed by pruning can be given back
    /// to the file system (`incremental_vacuum`), which only works when set before any table.
    static let creation = """
        PRAGMA auto_vacuum = INCREMENTAL;
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    /// The tables and indexes. Times are seconds since 1970; altitudes feet, speeds knots,
    /// ranges kilometres; an address is the tracker's key (bit 24 set for non-ICAO).
    static let tables = """
        CREATE TABLE IF NOT EXISTS sightings (
            address INTEGER NOT NULL, start REAL NOT NULL, last_seen REAL NOT NULL,
            callsign TEXT, registration TEXT, type_code TEXT, type_description TEXT, class TEXT,
            operator TEXT, category TEXT, min_altitude_ft INTEGER, max_altitude_ft INTEGER,
            max_speed_kt REAL, closest_km REAL,
            PRIMARY KEY (address, start)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS sightings_last_seen ON sightings (last_seen);
        CREATE TABLE IF NOT EXISTS positions (
            address INTEGER NOT NULL, time REAL NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
            altitude_ft INTEGER, ground_speed_kt REAL, track_deg REAL, vertical_rate_fpm INTEGER,
            on_ground INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS positions_time ON positions (time);
        CREATE INDEX IF NOT EXISTS positions_address_time ON positions (address, time);
        CREATE TABLE IF NOT EXISTS minutes (
            time INTEGER PRIMARY KEY, messages INTEGER NOT NULL, aircraft INTEGER NOT NULL,
            with_position INTEGER NOT NULL, max_range_km REAL, signal_dbfs REAL, noise_dbfs REAL,
            peak_signal_dbfs REAL);
        CREATE TABLE IF NOT EXISTS coverage (
            hour INTEGER NOT NULL, sector INTEGER NOT NULL, band INTEGER NOT NULL, range_km REAL NOT NULL,
            latitude REAL NOT NULL, longitude REAL NOT NULL, altitude_ft INTEGER NOT NULL,
            PRIMARY KEY (hour, sector, band)) WITHOUT ROWID;
        """

    /// Each kind of row's statement: parameters in the order `HistoryStore` binds them.
    static let insertSighting = """
        INSERT OR REPLACE INTO sightings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertPosition = "INSERT INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let insertMinute = "INSERT OR REPLACE INTO minutes VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    static let insertCoverage = """
        INSERT INTO coverage VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (hour, sector, band) DO UPDATE SET range_km = excluded.range_km,
            latitude = excluded.latitude, longitude = excluded.longitude, altitude_ft = excluded.altitude_ft
        WHERE excluded.range_km > coverage.range_km
        """
}
