import RoadMap

// The text of Data/safety-location-rules.toml, built into the binary so that an installed daemon
// needs no data directory; DaemonConfigurationTests checks that the two are identical.

extension SafetyLocationRules {
    /// The shipped default table (`Data/safety-location-rules.toml`) as TOML text.
    public static let shippedTableText = #"""
        # adasis — legal filter for safety locations (the shipped default).
        #
        # Whether the driver may be warned of a safety location is decided by the rules of the country
        # and region where the location LIES, not where the vehicle is: a camera across the border is
        # filtered by its own country's rules while the vehicle is still on the other side. A filtered
        # location is never sent on CAN and never reported by `adasis horizon`.
        #
        # Rows are tables:
        #   [everywhere]          rows for every country
        #   [country.CC]          ISO 3166-1 alpha-2 country code (DE, CH, FR, …)
        #   [region.CC-SUB]       ISO 3166-2 region code (US-CA, DE-BY, AT-5, …)
        # with keys
        #   safety_locations = true|false      every safety-location type
        #   fixed_speed_camera, mobile_speed_zone, red_light_camera, average_speed_zone,
        #   restriction_camera, danger_zone = true|false      one type
        #   source = "…"                       required: the law or policy behind the row
        # The most specific row decides: region and type, region, country and type, country, type
        # everywhere, everywhere; without any row a location is reported. Tunnels, bridges, border
        # crossings, traffic signals, incidents and user-defined objects are never filtered.
        # Where a row forbids a camera type but allows danger_zone (France), each such camera becomes a
        # danger zone at run time: a stretch of its road that contains it (lengths above), the camera
        # point itself never sent (Docs/adasis-conventions.md, "Danger zones").
        #
        # This table is a starting point from public sources, not legal advice: check the law of every
        # market before shipping, and pass your own table with `--safety-rules FILE` or the daemon key
        # `safety_locations.rules`. Countries without a row (e.g. FI, AT: warning of cameras by a
        # navigation device is legal there; AT forbids radar detectors, KFG 1967 § 98a, which this
        # provider is not) report every safety location.

        [everywhere]
        restriction_camera = false
        danger_zone = false
        source = "Product policy, not law: cameras enforcing access or turn restrictions are off by default (the example of TomTom's legal-filter documentation); set true to report them. Danger zones stand in for cameras only where a country's row allows them (France): elsewhere a camera that is off stays off, and the horizon looks for none"

        [country.DE]
        safety_locations = false
        source = "Straßenverkehrs-Ordnung (StVO) § 23 Abs. 1c: a driver may not operate a device meant to indicate traffic enforcement (Verkehrsüberwachungsmaßnahmen), and that function of other devices (navigation systems, phones) may not be used"

        [country.CH]
        safety_locations = false
        source = "Strassenverkehrsgesetz (SVG, SR 741.01) Art. 98a: devices that warn of or hinder official traffic controls are forbidden, and so is warning of them publicly; applied to navigation devices warning of fixed and mobile cameras"

        [country.FR]
        safety_locations = false
        danger_zone = true
        source = "Code de la route art. R413-15 as amended by décret n° 2012-3 of 3 January 2012 (JORF 4 January 2012): devices that warn of or locate speed enforcement are forbidden; driving aids may only warn of 'zones de danger' (the protocol of 2011 between the Ministry of the Interior and the makers, AFFTAC, applied from 28 November 2011): about 4 km on motorways, 2 km outside and 300 m inside built-up areas, containing the camera without giving its position (flotauto.com, 'Radars : le Code de la route change ses dispositions', January 2012). adasis turns each camera it may not report here into such a zone"

        # A region row, for a market whose law differs by state or Land (no such rule ships: adasis knows
        # of no region whose law forbids what its country allows). For example:
        # [region.US-CA]
        # safety_locations = false
        # source = "…the regulation that forbids it…"

        """#

    /// The shipped default table, parsed; `source` names it in errors (there are none: a test
    /// parses it).
    public static func shippedDefault() throws(ConfigurationError) -> SafetyLocationRules {
        try SafetyLocationRules(toml: shippedTableText, source: "built-in safety-location-rules.toml")
    }
}
