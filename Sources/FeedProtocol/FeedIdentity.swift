import ModeS
import Support

/// Who an aircraft is, as the feed carries it in an aircraft's `identity` (`null` when
/// nothing is known): what the identity data says, for the card ("Airbus A-320 · easyJet ·
/// G-EZAB") and the icon (`class`).
package struct FeedIdentity: Sendable, Equatable {
    /// Registration, e.g. "G-EZAB".
    package var registration: String?
    /// ICAO type designator, e.g. "A320".
    package var typeCode: String?
    /// Manufacturer and model, e.g. "Airbus A-320".
    package var typeDescription: String?
    /// light, small, medium_jet, heavy, helicopter, glider, balloon, drone or military.
    package var aircraftClass: String?
    /// Operator or owner, e.g. "easyJet".
    package var operatorName: String?
    /// Year built, e.g. "2012".
    package var year: String?
    /// Country of registration by its address block, e.g. "United Kingdom".
    package var country: String?
    /// Whether it is military (address block or database flag).
    package var military: Bool

    /// An identity from its parts; by default nothing known.
    package init(
        registration: String? = nil, typeCode: String? = nil, typeDescription: String? = nil,
        aircraftClass: String? = nil, operatorName: String? = nil, year: String? = nil, country: String? = nil,
        military: Bool = false
    ) {
        self.registration = registration
        self.typeCode = typeCode
        self.typeDescription = typeDescription
        self.aircraftClass = aircraftClass
        self.operatorName = operatorName
        self.year = year
        self.country = country
        self.military = military
    }

    /// Every field, in wire order: the one list its writer and parser follow.
    mutating func visit<V: FeedFieldVisitor>(_ v: inout V) throws(V.Failure) {
        try v.text("registration", &registration)
        try v.text("type", &typeCode)
        try v.text("type_desc", &typeDescription)
        try v.text("class", &aircraftClass)
        try v.text("operator", &operatorName)
        try v.text("year", &year)
        try v.text("country", &country)
        try v.flag("military", &military)
    }

    /// Reads an identity object; each field may be unknown.
    init(_ fields: JSONFields) throws(FeedParseError) {
        self.init()
        var reader = FeedFieldReader(fields: fields)
        try visit(&reader)
    }
}

extension FeedIdentity: FeedObject {}
